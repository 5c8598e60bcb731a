import { decodeArguments, encodeArguments } from "@toolcall/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { trickyText, wireCall } from "../../test/arbitraries.js";
import { cutsFor, expectSplitInvariant, fixedIds, streamChunks, streamedWork } from "../../test/helpers.js";
import { encodeHermes, hermes } from "./hermes.js";

const tools = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } },
    },
  },
];
const parse = (text: string, options = {}) => hermes.parse(text, { createId: fixedIds, ...options });

describe("hermes: whole text", () => {
  it("reads a Qwen3-style answer: reasoning, content, two calls", () => {
    // Shaped like Qwen3-32B output in vLLM's hermes parser tests (tests/tool_parsers/test_hermes_tool_parser.py).
    const text =
      '<think>\nThe user wants the weather.\n</think>\n\nLet me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "San Francisco, California, United States", "days": 3}}\n</tool_call>\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Tokyo"}}\n</tool_call>';
    const result = expectSplitInvariant(hermes, text, { tools });
    expect(result).toEqual({
      content: "Let me check.",
      reasoning: "The user wants the weather.",
      issues: [],
      toolCalls: [
        {
          id: "call_0",
          type: "function",
          function: {
            name: "get_weather",
            arguments: '{"city": "San Francisco, California, United States", "days": 3}',
          },
        },
        { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } },
      ],
    });
  });

  it("keeps the model's argument bytes (compact, spaced, big numbers, 1.0)", () => {
    const text = '<tool_call>{"name": "f", "arguments": {"a":1.0,"b":12345678901234567890}}</tool_call>';
    expect(parse(text).toolCalls[0]?.function.arguments).toBe('{"a":1.0,"b":12345678901234567890}');
  });

  it("plain text is content, exactly", () => {
    expect(parse("This is plain text with no tool calling involved.")).toEqual({
      toolCalls: [],
      content: "This is plain text with no tool calling involved.",
      reasoning: null,
      issues: [],
    });
    expect(parse("  \n ").content).toBeNull();
    expect(parse("a < b and c <tool but no call").content).toBe("a < b and c <tool but no call");
  });

  it("arguments written as a JSON string are unwrapped once (Granite 4); a bare string is kept under _raw_arguments", () => {
    const serialized = parse(
      '<tool_call>\n{"name": "get_db_config", "arguments": "{\\"param\\": \\"max_connections\\"}"}\n</tool_call>',
    );
    expect(serialized.toolCalls[0]?.function.arguments).toBe('{"param": "max_connections"}');
    const bare = parse('<tool_call>\n{"name": "do_thing", "arguments": "hello"}\n</tool_call>');
    expect(bare.toolCalls[0]?.function.arguments).toBe('{"_raw_arguments":"hello"}');
    expect(bare.issues.map((i) => i.code)).toEqual(["arguments_invalid"]);
  });

  it("reads `parameters` as arguments, and flags a tool that was not offered", () => {
    const result = parse('<tool_call>{"name": "other", "parameters": {"x": 1}}</tool_call>', { tools });
    expect(result.toolCalls[0]?.function).toEqual({ name: "other", arguments: '{"x": 1}' });
    expect(result.issues.map((i) => i.code)).toEqual(["unknown_tool"]);
  });
});

describe("hermes: the known bug shapes", () => {
  it("a value holding the closing tag is data", () => {
    const text =
      '<tool_call>\n{"name": "write", "arguments": {"text": "end with </tool_call> and <tool_call> here"}}\n</tool_call>';
    const result = expectSplitInvariant(hermes, text);
    expect(JSON.parse(result.toolCalls[0]?.function.arguments ?? "")).toEqual({
      text: "end with </tool_call> and <tool_call> here",
    });
    expect(result.content).toBeNull();
  });

  it("a brace in a string value does not end the arguments (vLLM #21544: mkdir -p test/{test1,test2)", () => {
    const text =
      '<tool_call>\n{"name": "bash", "arguments": {"command": "mkdir -p test/{test1,test2"}}\n</tool_call>';
    const result = expectSplitInvariant(hermes, text);
    expect(result.toolCalls[0]?.function.arguments).toBe('{"command": "mkdir -p test/{test1,test2"}');
  });

  it("empty and absent arguments give {} (vLLM #28806), streamed too", () => {
    for (const body of [
      '{"name": "list_files", "arguments": {}}',
      '{"name": "list_files"}',
      '{"name": "list_files", "arguments": null}',
      '{"name": "list_files", "arguments": ""}',
    ]) {
      const result = expectSplitInvariant(hermes, `<tool_call>\n${body}\n</tool_call>`);
      expect(result.toolCalls.map((c) => c.function)).toEqual([{ name: "list_files", arguments: "{}" }]);
    }
  });

  it("a call inside <think> is a call, with a note", () => {
    const text =
      '<think>\nI will call it.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>\n</think>\n\nDone.';
    const result = expectSplitInvariant(hermes, text);
    expect(result.reasoning).toBe("I will call it.");
    expect(result.content).toBe("Done.");
    expect(result.toolCalls).toHaveLength(1);
    expect(result.issues.map((i) => i.code)).toEqual(["call_in_reasoning"]);
  });

  it("a missing opening tag at the start is read as a call; other JSON content is content", () => {
    const unopened = expectSplitInvariant(
      hermes,
      '\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
    );
    expect(unopened.toolCalls.map((c) => c.function.name)).toEqual(["get_weather"]);
    expect(unopened.issues.map((i) => i.code)).toEqual(["call_unopened"]);
    const json = expectSplitInvariant(hermes, '{"name": "Alice", "arguments": {}} is a JSON object.');
    expect(json).toEqual({
      toolCalls: [],
      content: '{"name": "Alice", "arguments": {}} is a JSON object.',
      reasoning: null,
      issues: [],
    });
  });

  it("a missing closing tag ends the call at its JSON (vLLM accepts an unterminated last call)", () => {
    const result = expectSplitInvariant(
      hermes,
      '<tool_call>\n{"name": "final_answer", "arguments": {"trigger": true}}',
    );
    expect(result.toolCalls[0]?.function).toEqual({ name: "final_answer", arguments: '{"trigger": true}' });
    expect(result.issues.map((i) => i.code)).toEqual(["call_unclosed"]);
  });

  it("invalid JSON and truncated calls stay in content, exactly as written", () => {
    const invalid = '<tool_call>\n{"name": "f", "arguments": {"a": 1,}}\n</tool_call>';
    const result = expectSplitInvariant(hermes, `Before. ${invalid}`);
    expect(result.content).toBe(`Before. ${invalid}`);
    expect(result.issues.map((i) => i.code)).toEqual(["call_invalid"]);
    const truncated = '<tool_call>\n{"name": "final_answer", "arguments": {"trigger": true}';
    const cut = expectSplitInvariant(hermes, truncated);
    expect(cut.content).toBe(truncated);
    expect(cut.issues.map((i) => i.code)).toEqual(["call_truncated"]);
    expect(expectSplitInvariant(hermes, '<tool_call>\n{"arguments": {}}\n</tool_call>').issues[0]?.code).toBe(
      "call_invalid",
    );
  });

  it("a reasoning close with no opening is text; startInReasoning reads it as the end of reasoning", () => {
    const text = "I thought.\n</think>\n\nAnswer.";
    expect(parse(text)).toMatchObject({ content: text, reasoning: null, issues: [] });
    const opened = expectSplitInvariant(hermes, text, { startInReasoning: true });
    expect(opened).toMatchObject({ reasoning: "I thought.", content: "Answer.", issues: [] });
  });

  it("reasoning opens the text or follows a call; a <think> inside an answer is text", () => {
    expect(parse("Use <think> tags.").content).toBe("Use <think> tags.");
    const interleaved = expectSplitInvariant(
      hermes,
      `<think>\nFirst.\n</think>\n\n<tool_call>\n{"name": "a", "arguments": {}}\n</tool_call><think>\nThen.\n</think>\n\nDone.`,
    );
    expect(interleaved).toMatchObject({ reasoning: "First.Then.", content: "Done." });
  });
});

describe("hermes: streaming", () => {
  it("passes content on as soon as it cannot start a marker, and argument text as it arrives", () => {
    const stream = hermes.createStream({ createId: fixedIds });
    expect(stream.push("Sure, let me check.<tool_ca")).toEqual([
      { type: "content", text: "Sure, let me check." },
    ]);
    expect(stream.push('ll>{"name": "get_weather", "arguments": {"ci')).toEqual([
      { type: "tool_call_start", index: 0, id: "call_0", name: "get_weather" },
      { type: "tool_call_delta", index: 0, arguments: '{"ci' },
    ]);
    expect(stream.push('ty": "NYC"}}</tool_call>')).toEqual([
      { type: "tool_call_delta", index: 0, arguments: 'ty": "NYC"}' },
      {
        type: "tool_call_end",
        index: 0,
        toolCall: {
          id: "call_0",
          type: "function",
          function: { name: "get_weather", arguments: '{"city": "NYC"}' },
        },
      },
    ]);
    expect(stream.end()).toEqual([]);
  });

  it("a call that turns out malformed is aborted and its text becomes content", () => {
    const { events } = streamChunks(hermes, [
      "<tool_call>",
      '{"name": "f", "arguments": {"a": 1,',
      "}}</tool_call>",
    ]);
    expect(events.map((e) => e.type)).toEqual([
      "tool_call_start",
      "tool_call_delta",
      "tool_call_abort",
      "content",
    ]);
  });

  it("any split of generated output gives the same calls", () => {
    fc.assert(
      fc.property(
        trickyText(20),
        fc.array(wireCall, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 5000 }),
        (content, calls, seed) => {
          const text = `${content.replaceAll("<", "(")}\n${encodeHermes(calls)}`;
          const result = expectSplitInvariant(hermes, text, {}, [
            [seed % text.length, (seed * 7) % text.length],
          ]);
          expect(result.toolCalls.map((c) => c.function.name)).toEqual(calls.map((c) => c.function.name));
          // Arguments come back as the template wrote them: Python's json.dumps of the mapping.
          expect(result.toolCalls.map((c) => c.function.arguments)).toEqual(
            calls.map((c) =>
              encodeArguments(decodeArguments(c.function.arguments, { lossless: true }).arguments, {
                style: "python",
              }),
            ),
          );
        },
      ),
      { numRuns: 150 },
    );
  });

  it("arbitrary text never throws, and splits agree", () => {
    const pieces = fc.constantFrom(
      "<tool_call>",
      "</tool_call>",
      "<think>",
      "</think>",
      '{"name": "f", "arguments": ',
      "{",
      "}",
      '"',
      "\n",
      "x",
      "<",
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 20 }), cutsFor(200), (parts, cuts) => {
        expectSplitInvariant(hermes, parts.join(""), {}, [cuts]);
      }),
      { numRuns: 300 },
    );
  });
});

describe("hermes: linear work", () => {
  const budget = (n: number) => 4 * n + 64;
  it("a long call streamed one character at a time", () => {
    const text = `<tool_call>\n{"name": "write", "arguments": {"text": "${"x<tool_call> ".repeat(4000)}"}}\n</tool_call>`;
    expect(streamedWork(hermes, text, 1)).toBeLessThanOrEqual(budget(text.length));
    expect(streamedWork(hermes, text, 7)).toBeLessThanOrEqual(budget(text.length));
  });

  it("hostile text: opening tags that never close, and many angle brackets", () => {
    for (const text of [
      "<tool_call>{".repeat(5000),
      "<".repeat(50_000),
      "<tool_ca".repeat(5000),
      "{".repeat(20_000),
    ]) {
      expect(streamedWork(hermes, text, 1)).toBeLessThanOrEqual(budget(text.length) * 3);
      expect(streamedWork(hermes, text, 1000)).toBeLessThanOrEqual(budget(text.length) * 3);
    }
  });
});
