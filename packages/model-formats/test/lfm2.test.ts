import { safeRenderChatTemplate } from "@toolcall/jinja";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectToolCallSyntax, lfm2 } from "../src/index.js";
import { cutsFor, expectSplitInvariant } from "./helpers.js";
import { familyTemplate } from "./reference-round-trip.js";
import { expectTurnReads, MESSAGES, RENDER_NOW, TOOLS } from "./round-trip-property.js";

// The real templates are read where they are (../shared/templates/families), never copied into the repository.
const lfm25 = familyTemplate("LiquidAI-LFM2.5-8B-A1B");
const lfm2Template = familyTemplate("LiquidAI-LFM2-24B-A2B");
const TURN = "<|im_start|>assistant\n";
const END = "<|im_end|>";

/** Text the template keeps as it is: it writes strings in single quotes without escaping, so no quote or backslash. */
const text = fc
  .array(fc.constantFrom(...'abcXYZ 019_-/.:,;!?()=+*"é中😀<>{}[]'), { minLength: 1, maxLength: 16 })
  .map((a) => a.join("").trim())
  .filter((t) => t !== "");
const key = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/);
const editArgs = fc.record(
  {
    path: text,
    line: fc.integer(),
    force: fc.boolean(),
    meta: fc.dictionary(key, fc.oneof(text, fc.integer(), fc.boolean()), { maxKeys: 3 }),
    items: fc.array(fc.oneof(text, fc.integer()), { maxLength: 3 }),
    note: text,
  },
  { requiredKeys: [] },
);
const message = fc
  .record({
    content: fc.option(text, { nil: null }),
    thinking: fc.option(text, { nil: undefined }),
    calls: fc.array(
      fc.oneof(
        editArgs.map((args) => ({ name: "edit_file", args: args as Record<string, unknown> })),
        fc.constant({ name: "list_files", args: {} as Record<string, unknown> }),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .map(({ content, thinking, calls }) => ({
    calls,
    thinking,
    message: {
      role: "assistant",
      content: content ?? "",
      ...(thinking === undefined ? {} : { thinking }),
      tool_calls: calls.map((call, index) => ({
        id: `call_${index}`,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.args) },
      })),
    } as Record<string, unknown>,
  }));

/** The assistant turn LFM2.5's template writes for `assistant` (after its role line, up to `<|im_end|>`). */
function turnOf(assistant: Record<string, unknown>): string | undefined {
  const rendered = safeRenderChatTemplate({
    template: lfm25,
    tools: TOOLS,
    now: RENDER_NOW,
    variables: { bos_token: "<|startoftext|>" },
    messages: [...MESSAGES, assistant],
  });
  if (!rendered.ok) return undefined;
  const start = rendered.text.lastIndexOf(TURN);
  const end = rendered.text.indexOf(END, start);
  return start < 0 || end < 0 ? undefined : rendered.text.slice(start + TURN.length, end);
}

describe("lfm2 on the real templates (LiquidAI LFM2.5-8B-A1B, LFM2-24B-A2B)", () => {
  it("detects LFM2.5 by what it renders (not as Llama's pythonic list) and LFM2 by its tool list's preamble", () => {
    expect(detectToolCallSyntax(lfm25)).toMatchObject({ id: "lfm2" });
    expect(detectToolCallSyntax(lfm2Template)).toMatchObject({ id: "lfm2", method: "signature" });
  });

  it("parses what LFM2.5's template writes for a turn: the same calls, content and reasoning", () => {
    let checked = 0;
    fc.assert(
      fc.property(message, ({ message: assistant, thinking }) => {
        const turn = turnOf(assistant);
        if (turn === undefined) return;
        checked++;
        const parsed = expectTurnReads({ syntax: lfm2, turn, message: assistant });
        expect(parsed.content ?? "").toBe(assistant.content);
        expect(parsed.reasoning ?? undefined).toBe(thinking);
      }),
      { numRuns: 40 },
    );
    expect(checked, "most generated messages render").toBeGreaterThan(30);
  });

  it("streams as it parses whole at any cut, reasoning split from content", () => {
    const output =
      "<think>The user wants a fix.</think>Sure.<|tool_call_start|>[edit_file(path='main.py', line=3, meta={\"a\": true})]<|tool_call_end|>";
    fc.assert(
      fc.property(cutsFor(output.length), (cuts) => {
        const result = expectSplitInvariant(lfm2, output, { tools: TOOLS }, [cuts]);
        expect(result.reasoning).toBe("The user wants a fix.");
        expect(result.content).toBe("Sure.");
        expect(result.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual([
          ["edit_file", '{"path": "main.py", "line": 3, "meta": {"a": true}}'],
        ]);
      }),
      { numRuns: 30, seed: 30 },
    );
  });

  it("keeps the calls when <|tool_call_end|> is missing, and a marker without a list in content", () => {
    const cut = lfm2.parse("<|tool_call_start|>[f(a=1)]");
    expect(cut.toolCalls.map((c) => c.function.arguments)).toEqual(['{"a": 1}']);
    expect(cut.issues.map((issue) => issue.code)).toEqual(["call_unclosed"]);
    expect(lfm2.parse("<|tool_call_start|> hello").content).toBe("<|tool_call_start|> hello");
  });
});
