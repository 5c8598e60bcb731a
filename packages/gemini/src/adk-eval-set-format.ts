import { type ChatMessage, parseJson, type ToolCall } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatConversation,
  type FormatReading,
  type FormatWriteResult,
  isPlainObject,
  originOf,
  serializeJson,
  withOrigin,
} from "@toolcall/core/kit";
import { withKey } from "./with-key.js";

type Item = Record<string, unknown>;

/** One invocation as read: where it is, its messages, and each call's tool use (by the call's id). */
interface ReadInvocation {
  evalCase: number;
  turn: number;
  messages: readonly ChatMessage[];
  /** The calls as read, by tool-use index (each call carries its index as its origin). */
  uses: readonly ToolCall[];
}

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
 * do, not what ran: no result is expected for the calls (`expectsResults: false`). A repair is written back as tool
 * uses (`args` an object again, a dropped call out of `tool_uses`); every part no rule touched is the same object.
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
    const read: ReadInvocation[] = [];
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
          const call: ToolCall = {
            id: typeof item.id === "string" ? item.id : `use@${c}.${t}.${k}`,
            type: "function",
            function: { name: item.name, arguments: args.success ? args.value : item.args },
          };
          return withOrigin(call, { use: k });
        });
        // The expected final text goes with the expected calls: one answer, whose calls await their results.
        const final = textOf(turn.final_response);
        if (calls.length > 0 || final !== null)
          messages.push({
            role: "assistant",
            content: final,
            ...(calls.length > 0 ? { tool_calls: calls } : {}),
          });
        read.push({ evalCase: c, turn: t, messages, uses: calls });
        conversations.push({
          messages,
          answer: true,
          expectsResults: false,
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
        if (!isEvalSet(value)) return { ok: true, value };
        return writeEvalSet({ value, read, replacements });
      },
    };
  },
};

/** A replacement's tool uses, by index: each call of its assistant message, put back as a tool use. */
function usesOf(options: {
  invocation: ReadInvocation;
  next: readonly unknown[];
  recorded: readonly unknown[];
}): { ok: true; uses: unknown[] } | { ok: false; reason: string } {
  const { invocation, next, recorded } = options;
  const refuse = (reason: string) => ({
    ok: false as const,
    reason: `eval_cases[${invocation.evalCase}].conversation[${invocation.turn}]: ${reason}`,
  });
  if (next.length !== invocation.messages.length)
    return refuse("a message added or removed has no place in an eval set");
  const uses: unknown[] = [];
  for (const [i, message] of next.entries()) {
    const was = invocation.messages[i] as ChatMessage;
    if (!isPlainObject(message) || message.role !== was.role || message.content !== was.content)
      return refuse("an expected text is not rewritten");
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      const origin = originOf(call) as { use: number } | undefined;
      const was = origin === undefined ? undefined : invocation.uses[origin.use];
      if (origin === undefined || was === undefined || !isPlainObject(call))
        return refuse("a new call has no place in an eval set");
      const recordedUse = recorded[origin.use];
      if (call === was || !isPlainObject(recordedUse)) {
        uses.push(recordedUse);
        continue;
      }
      let use: Item = recordedUse;
      const fn = isPlainObject(call.function) ? call.function : {};
      if (fn.name !== was.function?.name) return refuse("a call's name is not rewritten");
      // A duplicate id a rule renamed is written as renamed; an id made up for a use without one stays absent.
      if (call.id !== was.id && typeof use.id === "string") use = withKey(use, "id", call.id);
      if (fn.arguments === was.function?.arguments) {
        uses.push(use);
        continue;
      }
      const parsed =
        typeof fn.arguments === "string" ? parseJson(fn.arguments, { lossless: true }) : undefined;
      if (parsed === undefined || !parsed.success || !isPlainObject(parsed.value))
        return refuse("ADK keeps args as an object; these are not one");
      uses.push(withKey(use, "args", parsed.value));
    }
  }
  return { ok: true, uses };
}

/** The eval set with each replaced invocation's tool uses put back; everything else the same objects. */
function writeEvalSet(options: {
  value: Item & { eval_cases: unknown[] };
  read: readonly ReadInvocation[];
  replacements: ReadonlyArray<readonly unknown[] | undefined>;
}): FormatWriteResult {
  const { value, read, replacements } = options;
  let cases = value.eval_cases;
  for (const [index, invocation] of read.entries()) {
    const next = replacements[index];
    if (next === undefined) continue;
    const evalCase = cases[invocation.evalCase] as Item;
    const turns = evalCase.conversation as unknown[];
    const turn = turns[invocation.turn] as Item;
    const data = isPlainObject(turn.intermediate_data) ? turn.intermediate_data : {};
    const recorded = Array.isArray(data.tool_uses) ? data.tool_uses : [];
    const put = usesOf({ invocation, next, recorded });
    if (!put.ok) return put;
    if (put.uses.length === recorded.length && put.uses.every((use, i) => use === recorded[i])) continue;
    const nextTurn = withKey(turn, "intermediate_data", withKey(data, "tool_uses", put.uses));
    const nextTurns = turns.slice();
    nextTurns[invocation.turn] = nextTurn;
    cases = cases.slice();
    cases[invocation.evalCase] = withKey(evalCase, "conversation", nextTurns);
  }
  return { ok: true, value: cases === value.eval_cases ? value : withKey(value, "eval_cases", cases) };
}
