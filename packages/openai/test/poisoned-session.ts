import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";

const payloads = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../../../shared/wild/payloads.json"), "utf8"),
) as Array<{
  raw: string;
  category: string;
}>;

/**
 * A 20-turn agent session as persisted after talking to a lenient server: every payload captured in the wild stored
 * as some call's arguments, clean calls between them, one tool result that answers nothing, and one call never
 * answered.
 */
export function poisonedSession(): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [{ role: "system", content: "You are a coding agent." }];
  for (let turn = 0; turn < 20; turn++) {
    messages.push({ role: "user", content: `Step ${turn + 1}, please.` });
    const payload = payloads[turn % payloads.length] as { raw: string };
    const calls = [
      {
        id: `call_${turn}_a`,
        type: "function" as const,
        function: { name: "run_step", arguments: payload.raw },
      },
      {
        id: `call_${turn}_b`,
        type: "function" as const,
        function: { name: "log", arguments: `{"turn": ${turn}}` },
      },
    ];
    messages.push({
      role: "assistant",
      content: turn % 3 === 0 ? `Working on step ${turn + 1}.` : null,
      tool_calls: calls,
    });
    messages.push({ role: "tool", tool_call_id: `call_${turn}_a`, content: `done ${turn}` });
    if (turn !== 7) messages.push({ role: "tool", tool_call_id: `call_${turn}_b`, content: "logged" });
    if (turn === 12)
      messages.push({ role: "tool", tool_call_id: "call_from_another_session", content: "stale" });
    messages.push({ role: "assistant", content: `Step ${turn + 1} finished.` });
  }
  messages.push({ role: "user", content: "Summarize." });
  return messages;
}
