import { readFileSync } from "node:fs";
import { join } from "node:path";

const payloads = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../../../../shared/wild/payloads.json"), "utf8"),
) as Array<{ raw: string; category: string }>;

/** Call ids as the stacks that persisted them mint them (Kimi, OpenAI, Anthropic, Mistral). */
function idFor(turn: number, call: number): string {
  switch (turn % 4) {
    case 0:
      return `functions.${call === 0 ? "run_step" : "log"}:${turn * 2 + call}`;
    case 1:
      return `call_${turn}${call}PTLP8xhu3uwZk4l3nlnrrJha`;
    case 2:
      return `toolu_01A09q90qw90lq9${turn}${call}`;
    default:
      return `Ab3dE9x${String(turn).padStart(2, "0")}`.slice(0, 8) + String(call);
  }
}

/**
 * A 20-turn agent session as persisted after talking to lenient servers and switching models: ids from four
 * stacks, every payload captured in the wild as some call's arguments, Claude's `"\n\n"` beside calls, reasoning
 * kept on some turns only, an empty user message, a result that answers nothing, a call never answered, a user
 * message between a call and its result, and turns that go from tool results straight to the next user message.
 */
export function poisonedSession(): Array<Record<string, unknown>> {
  const messages: Array<Record<string, unknown>> = [{ role: "system", content: "You are a coding agent." }];
  for (let turn = 0; turn < 20; turn++) {
    messages.push({ role: "user", content: turn === 3 ? "" : `Step ${turn + 1}, please.` });
    const [a, b] = [idFor(turn, 0), idFor(turn, 1)];
    const payload = payloads[turn % payloads.length] as { raw: string };
    messages.push({
      role: "assistant",
      content: turn % 5 === 0 ? "\n\n" : turn % 5 === 1 ? null : `Working on step ${turn + 1}.`,
      ...(turn % 2 === 0 ? { reasoning_content: `Plan for step ${turn + 1}.` } : {}),
      tool_calls: [
        { id: a, type: "function", function: { name: "run_step", arguments: payload.raw } },
        { id: b, type: "function", function: { name: "log", arguments: `{"turn": ${turn}}` } },
      ],
    });
    messages.push({ role: "tool", tool_call_id: a, content: `done ${turn}` });
    if (turn === 15) messages.push({ role: "user", content: "Status?" });
    if (turn !== 7) messages.push({ role: "tool", tool_call_id: b, content: "logged" });
    if (turn === 12)
      messages.push({ role: "tool", tool_call_id: "call_from_another_session", content: "stale" });
    if (turn % 3 !== 2) messages.push({ role: "assistant", content: `Step ${turn + 1} finished.` });
  }
  messages.push({ role: "user", content: "Summarize." });
  return messages;
}
