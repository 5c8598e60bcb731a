import { safeRenderChatTemplate } from "@toolcall/jinja";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectToolCallSyntax, nemotronNanoV2 } from "../src/index.js";
import { cutsFor, expectSplitInvariant } from "./helpers.js";
import { familyTemplate } from "./reference-round-trip.js";
import {
  assistantMessage,
  type Case,
  expectTurnReads,
  MESSAGES,
  RENDER_NOW,
  TOOLS,
} from "./round-trip-property.js";

// The real template is read where it is (../shared/templates/families), never copied into the repository.
const template = familyTemplate("nvidia-NVIDIA-Nemotron-Nano-9B-v2");
const CASE: Case = {
  template: "nvidia-NVIDIA-Nemotron-Nano-9B-v2",
  syntax: nemotronNanoV2,
  content: true,
  reasoning: "none",
  calls: 3,
};
const TURN = "<SPECIAL_11>Assistant\n";
const END = "\n<SPECIAL_12>";

/**
 * The template renders the last assistant message as a prefill without its calls: a call turn renders only as a past
 * turn, so the conversation goes on with a tool result and an answer, and the call turn is read off the prompt.
 */
function pastTurn(message: Record<string, unknown>): string | undefined {
  const rendered = safeRenderChatTemplate({
    template,
    tools: TOOLS,
    now: RENDER_NOW,
    variables: { bos_token: "<s>", eos_token: "</s>" },
    messages: [
      ...MESSAGES,
      message,
      { role: "tool", tool_call_id: "call_0", content: "ok" },
      { role: "assistant", content: "Done." },
      { role: "user", content: "Thanks." },
    ],
  });
  if (!rendered.ok) return undefined;
  const start = rendered.text.indexOf(TURN);
  if (start < 0) return undefined;
  const end = rendered.text.indexOf(END, start);
  return rendered.text.slice(start + TURN.length, end);
}

describe("nemotronNanoV2 on the real template (nvidia/NVIDIA-Nemotron-Nano-9B-v2)", () => {
  it("is detected by its markers (the generation prompt opens <think>; a last turn's calls are not rendered)", () => {
    expect(detectToolCallSyntax(template)).toMatchObject({
      id: "nemotron-nano-v2",
      method: "signature",
      startInReasoning: true,
    });
  });

  it("parses what the template writes for a turn with calls: the same calls and content; the encoder writes it", () => {
    let checked = 0;
    fc.assert(
      fc.property(assistantMessage(CASE), ({ message }) => {
        const turn = pastTurn(message);
        if (turn === undefined) return;
        checked++;
        const parsed = expectTurnReads({ syntax: nemotronNanoV2, turn, message });
        expect(parsed.content?.trim() ?? null).toBe(
          typeof message.content === "string" && message.content !== "" ? message.content : null,
        );
      }),
      { numRuns: 40 },
    );
    // About four in five generated messages render (the rest hold what the template refuses); half is a bound no seed misses.
    expect(checked, "most generated messages render").toBeGreaterThan(20);
  });

  it("splits reasoning the generation prompt opened, and streams as it parses whole, at any cut", () => {
    const text =
      'The user wants a fix.\n</think>\n\nSure.\n<TOOLCALL>[{"name": "edit_file", "arguments": {"path": "main.py", "line": 3}}]</TOOLCALL>';
    fc.assert(
      fc.property(cutsFor(text.length), (cuts) => {
        const result = expectSplitInvariant(nemotronNanoV2, text, { startInReasoning: true, tools: TOOLS }, [
          cuts,
        ]);
        expect(result.reasoning).toBe("The user wants a fix.");
        expect(result.content?.trim()).toBe("Sure.");
        expect(result.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual([
          ["edit_file", '{"path": "main.py", "line": 3}'],
        ]);
      }),
      { numRuns: 30, seed: 31 },
    );
  });
});
