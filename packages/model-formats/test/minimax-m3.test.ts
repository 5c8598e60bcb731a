import { safeRenderChatTemplate } from "@toolcall/jinja";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectToolCallSyntax, minimaxM3 } from "../src/index.js";
import { cutsFor, expectSplitInvariant } from "./helpers.js";
import { familyTemplate } from "./reference-round-trip.js";
import { expectTurnReads, MESSAGES, RENDER_NOW, TOOLS } from "./round-trip-property.js";

// The real template is read where it is (../shared/templates/families), never copied into the repository.
const template = familyTemplate("MiniMaxAI-MiniMax-M3");
const TURN = "]~b]ai\n";
const END = "[e~[";
const NS = "]<]minimax[>[";

/** Text the template keeps as it is (no namespace token, no surrounding whitespace). */
const text = fc
  .array(fc.constantFrom(..."abcXYZ 019_-/.:,;!?()=+*'\"\\é中😀<>{}[]"), { minLength: 1, maxLength: 16 })
  .map((a) => a.join("").trim())
  .filter((t) => t !== "");
const key = fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/);
/** Arguments whose every leaf the schema types back: nested objects and lists hold text (the template drops nulls). */
const editArgs = fc.record(
  {
    path: text,
    line: fc.integer(),
    force: fc.boolean(),
    meta: fc.dictionary(key, fc.oneof(text, fc.array(text, { minLength: 1, maxLength: 2 })), {
      minKeys: 1,
      maxKeys: 3,
    }),
    items: fc.array(fc.oneof(text, fc.dictionary(key, text, { minKeys: 1, maxKeys: 2 })), { maxLength: 3 }),
    note: text,
  },
  { requiredKeys: [] },
);
const message = fc
  .record({
    content: fc.option(text, { nil: null }),
    reasoning: fc.option(text, { nil: undefined }),
    calls: fc.array(
      fc.oneof(
        editArgs.map((args) => ({ name: "edit_file", args: args as Record<string, unknown> })),
        fc.constant({ name: "list_files", args: {} as Record<string, unknown> }),
      ),
      { minLength: 1, maxLength: 3 },
    ),
  })
  .map(({ content, reasoning, calls }) => ({
    calls,
    reasoning,
    message: {
      role: "assistant",
      content,
      ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
      tool_calls: calls.map((call, index) => ({
        id: `call_${index}`,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.args) },
      })),
    } as Record<string, unknown>,
  }));

/** The assistant turn the template writes for `assistant` (after `]~b]ai\n`, up to its end token). */
function turnOf(assistant: Record<string, unknown>): string | undefined {
  const rendered = safeRenderChatTemplate({
    template,
    tools: TOOLS,
    now: RENDER_NOW,
    messages: [...MESSAGES, assistant],
  });
  if (!rendered.ok) return undefined;
  const start = rendered.text.lastIndexOf(TURN);
  const end = rendered.text.indexOf(END, start);
  return start < 0 || end < 0 ? undefined : rendered.text.slice(start + TURN.length, end);
}

describe("minimaxM3 on the real template (MiniMaxAI/MiniMax-M3)", () => {
  it("is detected by its namespace token, not as MiniMax M2", () => {
    expect(detectToolCallSyntax(template)).toMatchObject({ id: "minimax-m3" });
  });

  it("parses what the template writes for a turn: the same calls, nested arguments, content and reasoning", () => {
    let checked = 0;
    fc.assert(
      fc.property(message, ({ message: assistant, reasoning }) => {
        const turn = turnOf(assistant);
        if (turn === undefined) return;
        checked++;
        // A turn without reasoning starts with the template's bare `</mm:think>`: syntax, not content.
        const parsed = expectTurnReads({ syntax: minimaxM3, turn, message: assistant });
        expect(parsed.content ?? null).toBe(assistant.content ?? null);
        expect(parsed.reasoning ?? undefined).toBe(reasoning);
      }),
      { numRuns: 40 },
    );
    expect(checked, "most generated messages render").toBeGreaterThan(30);
  });

  it("streams as it parses whole at any cut, reasoning split from content", () => {
    const output = `<mm:think>The user wants a fix.</mm:think>Sure.${NS}<tool_call>\n${NS}<invoke name="edit_file">${NS}<path>main.py${NS}</path>${NS}<line>3${NS}</line>${NS}<meta>${NS}<tags>${NS}<item>a${NS}</item>${NS}</tags>${NS}</meta>${NS}</invoke>\n${NS}</tool_call>`;
    fc.assert(
      fc.property(cutsFor(output.length), (cuts) => {
        const result = expectSplitInvariant(minimaxM3, output, { tools: TOOLS }, [cuts]);
        expect(result.reasoning).toBe("The user wants a fix.");
        expect(result.content).toBe("Sure.");
        expect(result.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual([
          ["edit_file", '{"path": "main.py", "line": 3, "meta": {"tags": ["a"]}}'],
        ]);
      }),
      { numRuns: 30, seed: 30 },
    );
  });

  it("keeps a call whose tags do not match in content, and survives hostile nesting", () => {
    const bad = `${NS}<tool_call>\n${NS}<invoke name="f">${NS}<a>1${NS}</b>${NS}</invoke>\n${NS}</tool_call>`;
    const result = minimaxM3.parse(bad);
    expect(result.toolCalls).toEqual([]);
    expect(result.issues.map((issue) => issue.code)).toContain("call_invalid");
    const deep = `${NS}<tool_call>\n${NS}<invoke name="f">${`${NS}<a>`.repeat(5000)}`;
    expect(minimaxM3.parse(deep).issues.map((issue) => issue.code)).toContain("call_invalid");
  });
});
