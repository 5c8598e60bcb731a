import type { ChatMessage, ToolCall } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatConversation,
  type FormatReading,
  isPlainObject,
  serializeJson,
} from "@toolcall/core/kit";

type Item = Record<string, unknown>;

function isEvalSet(value: unknown): value is Item & { eval_cases: unknown[] } {
  return (
    isPlainObject(value) &&
    Array.isArray(value.eval_cases) &&
    value.eval_cases.every((c) => isPlainObject(c) && typeof c.eval_id === "string")
  );
}

/** The text of a Gemini content (`{role, parts: [{text}]}`); `null` when it holds none. */
function textOf(content: unknown): string | null {
  const parts = isPlainObject(content) && Array.isArray(content.parts) ? content.parts : [];
  const texts = parts.flatMap((part) =>
    isPlainObject(part) && typeof part.text === "string" ? [part.text] : [],
  );
  return texts.length > 0 ? texts.join("") : null;
}

/**
 * Google ADK eval sets (`*.evalset.json`, and the `*.test.json` files of `adk eval`): `{eval_set_id, eval_cases:
 * [{eval_id, conversation: [{invocation_id, user_content, final_response, intermediate_data: {tool_uses}}]}]}`.
 * Each invocation is read as one answer: the user's text, the tool uses the agent is expected to make (`args` an
 * object, `id` often `null`, named by place then) and the expected final text. These files say what an agent should
 * do, not what was sent: they are checked and never rewritten (a repair keeps the file and says why).
 *
 * @example
 * const reading = adkEvalSetFormat.read(evalSet);
 * reading.conversations[0].messages; // the first invocation: user text, expected calls, final text
 */
export const adkEvalSetFormat: ConversationFormat = {
  id: "adk-eval-set",
  name: "Google ADK eval set (eval_cases, tool_uses)",
  expected:
    '{"eval_set_id", "eval_cases": [{"eval_id", "conversation": [{"user_content", "intermediate_data"}]}]}',
  unit: "record",
  priority: 20,
  matches: isEvalSet,
  resembles: (value) => isPlainObject(value) && ("eval_cases" in value || "eval_set_id" in value),
  read(value): FormatReading {
    const cases = isEvalSet(value) ? value.eval_cases : [];
    const conversations: FormatConversation[] = [];
    cases.forEach((raw, c) => {
      const turns = Array.isArray((raw as Item).conversation)
        ? ((raw as Item).conversation as unknown[])
        : [];
      turns.forEach((turn, t) => {
        if (!isPlainObject(turn)) return;
        const place = `eval_cases[${c}].conversation[${t}]`;
        const messages: ChatMessage[] = [];
        const user = textOf(turn.user_content);
        if (user !== null) messages.push({ role: "user", content: user });
        const data = isPlainObject(turn.intermediate_data) ? turn.intermediate_data : {};
        const uses = Array.isArray(data.tool_uses) ? data.tool_uses : [];
        const calls = uses.map((use, k): ToolCall => {
          const item = isPlainObject(use) ? use : {};
          const args = serializeJson(item.args ?? {});
          return {
            id: typeof item.id === "string" ? item.id : `use@${c}.${t}.${k}`,
            type: "function",
            function: { name: item.name, arguments: args.success ? args.value : item.args },
          };
        });
        // The expected final text goes with the expected calls: one answer, whose calls await their results.
        const final = textOf(turn.final_response);
        if (calls.length > 0 || final !== null)
          messages.push({
            role: "assistant",
            content: final,
            ...(calls.length > 0 ? { tool_calls: calls } : {}),
          });
        conversations.push({
          messages,
          answer: true,
          label: place,
          placeOf: (path) =>
            path[1] === "tool_calls" && typeof path[2] === "number"
              ? `${place}.intermediate_data.tool_uses[${path[2]}]`
              : place,
        });
      });
    });
    return {
      conversations,
      issues: [],
      write(replacements) {
        const same = replacements.every((next, index) => {
          const read = conversations[index]?.messages ?? [];
          return next === undefined || (next.length === read.length && next.every((m, i) => m === read[i]));
        });
        if (same) return { ok: true, value };
        return { ok: false, reason: "an ADK eval set says what an agent should do; it is not rewritten" };
      },
    };
  },
};
