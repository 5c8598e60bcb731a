import { loadVectors, streamSplits } from "@toolcall/conformance";
import {
  ContentCallReader,
  type ContentCallsRead,
  foldContentEvents,
  readContentCalls,
  type ToolCallSyntax,
} from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { gemma4, hermes, llama3Json, qwen3Coder, SYNTAXES, syntaxById } from "../src/index.js";
import { argumentsObject, toolName, trickyText } from "./arbitraries.js";
import { splitAt } from "./helpers.js";

/** What a content-call reading holds, ids aside (a syntax without ids makes fresh ones). */
function shape(read: ContentCallsRead) {
  return {
    calls: read.calls.map(({ syntax, toolCall }) => ({
      syntax,
      name: toolCall.function.name,
      arguments: toolCall.function.arguments,
    })),
    content: read.content,
    reasoning: read.reasoning,
    issues: read.issues.map(({ syntax, issue }) => `${syntax}:${issue.code}`).sort(),
    changed: read.changed,
  };
}

function streamed(args: {
  syntaxes: readonly ToolCallSyntax[];
  tools?: readonly unknown[] | null;
  text: string;
  chunks: readonly string[];
}): ContentCallsRead {
  const reader = new ContentCallReader({ syntaxes: args.syntaxes, tools: args.tools ?? null });
  const events = args.chunks.flatMap((chunk) => reader.push(chunk));
  events.push(...reader.end());
  return foldContentEvents(args.text, events);
}

/** Whole reading and streamed reading at every split given agree; returns the whole reading. */
/** Random cuts (fast-check naturals) moved inside the text, so every piece is non-empty. */
function innerCuts(text: string, cuts: readonly number[]): number[] {
  return cuts.map((c) => 1 + (c % Math.max(1, text.length - 1)));
}

function expectWholeIsStreamed(args: {
  syntaxes: readonly ToolCallSyntax[];
  tools?: readonly unknown[] | null;
  text: string;
  splits: readonly (readonly string[])[];
}): ContentCallsRead {
  const whole = readContentCalls({ text: args.text, syntaxes: args.syntaxes, tools: args.tools ?? null });
  for (const chunks of args.splits)
    expect(shape(streamed({ ...args, chunks })), `split ${JSON.stringify(chunks.slice(0, 6))}`).toEqual(
      shape(whole),
    );
  return whole;
}

const weather = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" } } },
    },
  },
];

describe("content calls: the two readings issue 30 found apart", () => {
  it("an empty Gemma 4 thought channel is dropped whole as streamed, as gemma4.parse drops it", () => {
    const text = "<|channel>thought\n<channel|>Hello!";
    const read = expectWholeIsStreamed({ syntaxes: [gemma4], text, splits: [[text], [...text]] });
    expect(read).toEqual({ calls: [], content: "Hello!", reasoning: "", issues: [], changed: true });
    expect(gemma4.parse(text)).toMatchObject({ content: "Hello!", reasoning: "" });
    // Only the channel: nothing but blanks remains.
    expect(readContentCalls({ text: "<|channel>thought\n<channel|>\n", syntaxes: [gemma4] }).content).toBe(
      null,
    );
  });

  it("text no syntax reads comes back byte for byte, blanks included", () => {
    for (const text of ["  \n ", "Hello!", '{"name": "Alice"}', "<|channel>final\nHi<channel|>"])
      expect(expectWholeIsStreamed({ syntaxes: [gemma4, llama3Json], text, splits: [[...text]] })).toEqual({
        calls: [],
        content: text,
        reasoning: "",
        issues: [],
        changed: false,
      });
  });

  it("a bare Llama 3 call naming an offered tool under an unknown key: content as written, with the issue", () => {
    const text = '{"name": "get_weather", "argz": {"city": "Paris"}}';
    const read = expectWholeIsStreamed({ syntaxes: [llama3Json], tools: weather, text, splits: [[...text]] });
    expect(read.calls).toEqual([]);
    expect(read.content).toBe(text);
    expect(read.issues.map(({ issue }) => [issue.code, issue.tool, issue.raw])).toEqual([
      ["arguments_key_unknown", "get_weather", text],
    ]);
    // No tools, or a name no tool has: prose that holds JSON, silently.
    expect(readContentCalls({ text, syntaxes: [llama3Json] }).issues).toEqual([]);
    expect(
      readContentCalls({ text: text.replace("get_weather", "Alice"), syntaxes: [llama3Json], tools: weather })
        .issues,
    ).toEqual([]);
  });

  it("calls of several syntaxes come in the order they were written, whole as streamed", () => {
    const text =
      'First <tool_call>\n{"name": "a", "arguments": {}}\n</tool_call> then ' +
      "<|tool_call>call:b{x:1}<tool_call|> and " +
      '<tool_call>\n{"name": "c", "arguments": {}}\n</tool_call>';
    const read = expectWholeIsStreamed({
      syntaxes: [gemma4, hermes],
      text,
      splits: [[text], [...text], splitAt(text, [7, 40, 80])],
    });
    expect(read.calls.map((call) => `${call.syntax}:${call.toolCall.function.name}`)).toEqual([
      "hermes:a",
      "gemma4:b",
      "hermes:c",
    ]);
  });
});

describe("content calls: every R10 vector read from content, whole and streamed at the runner's splits", () => {
  const cases = loadVectors({ rules: ["R10"], operations: ["parseToolCalls"] });
  for (const testCase of cases) {
    const options = (testCase.options ?? {}) as {
      syntax?: string;
      tools?: unknown[];
      startInReasoning?: boolean;
    };
    const syntax = syntaxById(options.syntax ?? "");
    // A prompt that opened the reasoning block is a template's fact, not the content's: content calls start outside.
    if (syntax === undefined || options.startInReasoning === true || typeof testCase.input !== "string")
      continue;
    it(testCase.id, () => {
      const text = testCase.input as string;
      const expected = testCase.expected as {
        toolCalls?: { name: string; arguments: string }[];
        content?: string | null;
        reasoning?: string | null;
        issues?: string[];
      };
      const read = expectWholeIsStreamed({
        syntaxes: [syntax],
        tools: options.tools ?? null,
        text,
        splits: streamSplits(text),
      });
      if (expected.toolCalls !== undefined)
        expect(read.calls.map(({ toolCall }) => toolCall.function)).toEqual(
          expected.toolCalls.map(({ name, arguments: args }) => ({ name, arguments: args })),
        );
      if (expected.issues !== undefined)
        expect(read.issues.map(({ issue }) => issue.code).sort()).toEqual([...expected.issues].sort());
      if (expected.reasoning !== undefined) expect(read.reasoning).toBe(expected.reasoning ?? "");
      if (expected.content === undefined) return;
      // The syntax read nothing of its own: the text stays as it came (a parse says `null` for blanks).
      const untouched =
        read.calls.length === 0 &&
        expected.reasoning === null &&
        (expected.content === text || (expected.content === null && text.trim() === ""));
      expect(read.content).toBe(untouched ? text : expected.content);
    });
  }
});

describe("content calls: whole ≡ streamed at every split, for every family's syntax (property)", () => {
  const call = fc.record({ name: toolName, args: argumentsObject });
  for (const syntax of Object.values(SYNTAXES)) {
    it(syntax.id, () => {
      fc.assert(
        fc.property(
          fc.array(call, { minLength: 1, maxLength: 2 }),
          fc.array(
            fc.oneof(
              trickyText(),
              fc.constantFrom(
                ...syntax.startMarkers,
                "<think>",
                "</think>",
                "<|channel>thought\n<channel|>",
                "\n",
              ),
            ),
            { maxLength: 4 },
          ),
          fc.nat(),
          fc.array(fc.nat(), { maxLength: 6 }),
          fc.boolean(),
          (calls, prose, cutAt, cuts, offered) => {
            const encoded = syntax.encode(
              calls.map(({ name, args }) => ({ function: { name, arguments: JSON.stringify(args) } })),
            );
            // A whole call, a call cut anywhere, prose and the family's markers around it.
            const cut = encoded.slice(0, cutAt % (encoded.length + 1));
            const text = [prose[0] ?? "", encoded, ...prose.slice(1), cut].join("");
            const tools = offered
              ? calls.map(({ name }) => ({
                  type: "function",
                  function: { name, parameters: { type: "object" } },
                }))
              : null;
            expectWholeIsStreamed({
              syntaxes: [syntax],
              tools,
              text,
              splits: [[...text], splitAt(text, innerCuts(text, cuts))],
            });
          },
        ),
        { numRuns: 40 },
      );
    });
  }

  it("two syntaxes in a chain (Gemma 4 then Qwen3-Coder)", () => {
    const syntaxes = [gemma4, qwen3Coder];
    const pieces = fc.constantFrom(
      "<|channel>thought\n<channel|>",
      "<|tool_call>call:f{a:1}<tool_call|>",
      "<tool_call>\n<function=g>\n<parameter=k>\nv\n</parameter>\n</function>\n</tool_call>",
      "<tool_call>\n<function=g>",
      "Hello ",
      "\n",
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 6 }), (parts, cuts) => {
        const text = parts.join("");
        expectWholeIsStreamed({
          syntaxes,
          text,
          splits: [[...text], splitAt(text, innerCuts(text, cuts))],
        });
      }),
      { numRuns: 100 },
    );
  });
});
