import { safeRenderChatTemplate } from "@toolcall/jinja";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectOutputSyntax, detectToolCallSyntax, step3 } from "../src/index.js";
import { cutsFor, expectSplitInvariant, fixedIds } from "./helpers.js";
import { familyTemplate } from "./reference-round-trip.js";
import { referenceRenders, referenceSamples } from "./round-trip-families-cases.js";
import {
  assistantMessage,
  type Case,
  expectTurnReads,
  MESSAGES,
  RENDER_NOW,
  type RenderRequest,
  TOOLS,
} from "./round-trip-property.js";

/*
 * StepFun Step3: its real template is read where it is (../shared/templates/families, not copied into the
 * repository). Outputs below follow the cases of vLLM's tests/tool_parsers/test_step3_tool_parser.py (Apache-2.0),
 * written here from what they show.
 */
const template = familyTemplate("stepfun-ai-step3");
const CASE: Case = {
  template: "stepfun-ai-step3",
  syntax: step3,
  content: true,
  reasoning: "none",
  calls: 3,
};
const TURN = "<|BOT|>assistant\n";
const END = "<|EOT|>";

/**
 * The template writes no reasoning for a past turn while its generation prompt opens `<think>`, and wraps content in a
 * space each side: a turn is never the prompt's continuation byte for byte, so it is read off a past turn.
 */
function pastTurnRequest(message: Record<string, unknown>, forPython = false): RenderRequest {
  const calls = message.tool_calls as { function: { name: string; arguments: string } }[];
  return {
    template,
    tools: TOOLS,
    variables: { bos_token: "<s>", eos_token: "</s>" },
    messages: [
      ...MESSAGES,
      // @toolcall/jinja takes the wire text (it reads it as the template does); Python is handed `json.loads` of it.
      forPython
        ? {
            ...message,
            tool_calls: calls.map((call) => ({
              ...call,
              function: { ...call.function, arguments: JSON.parse(call.function.arguments) },
            })),
          }
        : message,
      { role: "user", content: "Thanks." },
    ],
  };
}
function turnOf(text: string): string {
  const start = text.indexOf(TURN) + TURN.length;
  return text.slice(start, text.indexOf(END, start));
}

/** The turn reads to the message's calls (info issues allowed) and its content, trimmed. */
function expectStep3TurnReads(turn: string, message: Record<string, unknown>): void {
  const parsed = expectTurnReads({ syntax: step3, turn, message, allowInfo: true });
  expect(parsed.content?.trim() ?? "").toBe(
    typeof message.content === "string" ? message.content.trim() : "",
  );
}

describe("StepFun Step3 on its real template", () => {
  it("is detected by rendering; the generation prompt opens <think>", () => {
    expect(detectToolCallSyntax(template)).toMatchObject({
      id: "step3",
      module: "@toolcall/model-formats/step3",
      method: "render",
      parallelCalls: true,
      startInReasoning: true,
      candidates: ["step3"],
    });
  });

  it("reads what @toolcall/jinja writes for a past turn: the same calls and content; the encoder writes it", () => {
    let checked = 0;
    fc.assert(
      fc.property(assistantMessage(CASE), ({ message }) => {
        const rendered = safeRenderChatTemplate({ ...pastTurnRequest(message), now: RENDER_NOW });
        if (!rendered.ok) return;
        checked++;
        expectStep3TurnReads(turnOf(rendered.text), message);
      }),
      { numRuns: 40 },
    );
    expect(checked).toBeGreaterThan(30);
  });

  it("reads what the reference renderer (transformers' Jinja2) writes, which @toolcall/jinja writes byte for byte", () => {
    const samples = referenceSamples(CASE);
    const requests = samples.map((sample) => pastTurnRequest(sample, true));
    const reference = referenceRenders(requests);
    let compared = 0;
    for (const [i, request] of requests.entries()) {
      const expected = reference(request);
      const sample = samples[i] as Record<string, unknown>;
      const actual = safeRenderChatTemplate({ ...pastTurnRequest(sample), now: RENDER_NOW });
      expect(actual.ok).toBe(expected.ok);
      if (!actual.ok || !expected.ok) continue;
      expect(actual.text).toBe(expected.text);
      expectStep3TurnReads(turnOf(expected.text), sample);
      compared++;
    }
    expect(compared).toBeGreaterThanOrEqual(6);
  });
});

describe("StepFun Step3's calls (vLLM's Step3 cases)", () => {
  const read = (text: string, options = {}) => step3.parse(text, { createId: fixedIds, ...options });
  const WEATHER =
    '<steptml:invoke name="get_weather"><steptml:parameter name="city">Tokyo</steptml:parameter></steptml:invoke>';

  it("with or without function<｜tool_sep｜>; text around the section is content; at any cut", () => {
    const output = `Let me check the weather for you.\n\n<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜>${WEATHER}<｜tool_call_end｜><｜tool_call_begin｜><steptml:invoke name="refresh"></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>\n\nI'll get that information.`;
    fc.assert(
      fc.property(cutsFor(output.length), (cuts) => {
        const parsed = expectSplitInvariant(step3, output, {}, [cuts]);
        expect(parsed.content).toBe("Let me check the weather for you.\n\n\n\nI'll get that information.");
        expect(parsed.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual([
          ["get_weather", '{"city": "Tokyo"}'],
          ["refresh", "{}"],
        ]);
        expect(parsed.issues).toEqual([]);
      }),
      { numRuns: 30, seed: 3 },
    );
  });

  it("types values by the tool's schema; a string keeps the white space around it", () => {
    const tools = [
      {
        type: "function",
        function: {
          name: "edit_file",
          parameters: {
            type: "object",
            properties: {
              old_string: { type: "string" },
              indent: { type: "integer" },
              enabled: { type: "boolean" },
            },
          },
        },
      },
    ];
    for (const value of [
      "    if x:",
      "return 1\n",
      "    if x:\n        return 1\n",
      "hello ",
      "hello\u00a0",
      "hello",
    ]) {
      const text = `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="edit_file"><steptml:parameter name="old_string">${value}</steptml:parameter><steptml:parameter name="indent"> 4 </steptml:parameter><steptml:parameter name="enabled"> true </steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_calls_end｜>`;
      const args = JSON.parse(read(text, { tools }).toolCalls[0]?.function.arguments ?? "null");
      expect(args, JSON.stringify(value)).toEqual({ old_string: value, indent: 4, enabled: true });
    }
  });

  it("malformed and cut calls stay in content as written", () => {
    const cut =
      '<｜tool_calls_begin｜><｜tool_call_begin｜><steptml:invoke name="func"><steptml:parameter name="a">va';
    expect(read(cut)).toMatchObject({ content: cut, toolCalls: [] });
    expect(read(cut).issues.map((issue) => issue.code)).toEqual(["call_truncated"]);
    const bad = `<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="f">stray text</steptml:invoke><｜tool_call_end｜><｜tool_call_begin｜>${WEATHER}<｜tool_call_end｜><｜tool_calls_end｜>`;
    const parsed = read(bad);
    expect(parsed.toolCalls.map((c) => c.function.name)).toEqual(["get_weather"]);
    expect(parsed.content).toBe(
      '<｜tool_calls_begin｜><｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name="f">stray text</steptml:invoke><｜tool_call_end｜>',
    );
    expect(parsed.issues.map((issue) => issue.code)).toEqual(["call_invalid"]);
  });

  it("from output alone, names the family", () => {
    const output = step3.encode([{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }]);
    expect(detectOutputSyntax(`Sure. ${output}`)).toMatchObject({ status: "detected", id: "step3" });
  });
});
