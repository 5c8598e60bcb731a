import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectOutputSyntax, detectToolCallSyntax, gigaChat3 } from "../src/index.js";
import { cutsFor, expectSplitInvariant } from "./helpers.js";
import { familyTemplate, itRoundTripsOnTemplate } from "./reference-round-trip.js";
import { type Case, TOOLS } from "./round-trip-property.js";

/*
 * Sber GigaChat 3 (ai-sage/GigaChat3-10B-A1.8B): the real template is read where it is (../shared/templates/families),
 * never copied into the repository. The cases below are written after vLLM's tests of its `gigachat3` parser
 * (vllm-project/vllm tests/tool_parsers/test_gigachat3_tool_parser.py: the `manage_user_memory` calls, both headers,
 * a trailing `</s>`, special tokens split across deltas), not copied from them.
 */
const template = familyTemplate("ai-sage-GigaChat3-10B-A1.8B");
// The template renders the first call of a message only.
const CASE: Case = {
  template: "ai-sage-GigaChat3-10B-A1.8B",
  syntax: gigaChat3,
  content: true,
  reasoning: "none",
  calls: 1,
};

const MEMORY = {
  action: "create",
  id: "preferences",
  content: { short_answers: true, hate_emojis: true, english_ui: false, russian_math_explanations: true },
};
const CALL = JSON.stringify({ name: "manage_user_memory", arguments: MEMORY }, null, 1).replace(/\n ?/g, " ");
const HEADER_3 = "<|message_sep|>\n\nfunction call<|role_sep|>\n";
const HEADER_31 = "<|function_call|>";

describe("GigaChat 3 on its real template", () => {
  it("is detected by rendering (one call per message)", () => {
    expect(detectToolCallSyntax(template)).toMatchObject({
      id: "gigachat3",
      method: "render",
      parallelCalls: false,
    });
  });

  itRoundTripsOnTemplate(CASE);
});

describe("GigaChat 3 / 3.1 output", () => {
  it.each([
    ["GigaChat 3, content first", `I'll check that for you.${HEADER_3}${CALL}`, "I'll check that for you."],
    ["GigaChat 3, call only", `${HEADER_3}${CALL}`, null],
    [
      "GigaChat 3, </s> left by the server",
      `I'll check that for you.${HEADER_3}${CALL}</s>`,
      "I'll check that for you.",
    ],
    ["GigaChat 3.1", `${HEADER_31}${CALL}`, null],
    [
      "GigaChat 3.1, content first and </s>",
      `I'll check that for you.${HEADER_31}${CALL}</s>`,
      "I'll check that for you.",
    ],
  ])("%s: the call, its content, at any cut (special tokens split too)", (_label, output, content) => {
    fc.assert(
      fc.property(cutsFor(output.length), (cuts) => {
        const parsed = expectSplitInvariant(gigaChat3, output, {}, [cuts]);
        expect(parsed.issues).toEqual([]);
        expect(parsed.content).toBe(content);
        expect(parsed.toolCalls.map((c) => [c.function.name, JSON.parse(c.function.arguments)])).toEqual([
          ["manage_user_memory", MEMORY],
        ]);
      }),
      { numRuns: 25, seed: 3 },
    );
  });

  it("a parameterless call is {}; prose that names the role without its token is content", () => {
    expect(
      gigaChat3.parse(`${HEADER_3}{"name": "manage_user_memory", "arguments": {}}`).toolCalls[0]?.function
        .arguments,
    ).toBe("{}");
    expect(gigaChat3.parse("Call the function call API.").content).toBe("Call the function call API.");
  });

  it("a call cut short stays in content as written", () => {
    const cut = `Checking.${HEADER_3}{"name": "manage_user_memory", "arguments": {"action": "cre`;
    const parsed = gigaChat3.parse(cut);
    expect(parsed.toolCalls).toEqual([]);
    expect(parsed.content).toBe(cut);
    expect(parsed.issues.map((issue) => issue.code)).toEqual(["call_truncated"]);
  });

  it("an unknown tool is told; output alone names the family, certain of it", () => {
    const output = `${HEADER_3}{"name": "edit_file", "arguments": {"path": "a.py"}}`;
    expect(detectOutputSyntax(output, { tools: TOOLS })).toMatchObject({
      status: "detected",
      id: "gigachat3",
      confidence: "certain",
    });
    expect(gigaChat3.parse(output, { tools: [] }).issues).toEqual([]);
    expect(
      gigaChat3
        .parse(`${HEADER_31}{"name": "nope", "arguments": {}}`, { tools: TOOLS })
        .issues.map((i) => i.code),
    ).toEqual(["unknown_tool"]);
  });
});
