import { describe, expect, it } from "vitest";
import { parseQwenToolCalls } from "./parse-qwen-tool-calls.js";

const tools = [
  {
    type: "function",
    function: {
      name: "search",
      parameters: {
        type: "object",
        properties: {
          q: { type: "string" },
          top_k: { type: "integer" },
          score: { type: "number" },
          exact: { type: "boolean" },
          filters: { type: "object" },
          tags: { type: "array", items: { type: "string" } },
          limit: { anyOf: [{ type: "integer" }, { type: "null" }] },
        },
      },
    },
  },
];

let counter = 0;
const createId = () => `call_${counter++}`;
const call = (body: string) => `<tool_call>\n<function=search>\n${body}</function>\n</tool_call>`;
const param = (name: string, value: string) => `<parameter=${name}>\n${value}\n</parameter>\n`;
const args = (text: string) =>
  JSON.parse(parseQwenToolCalls(text, { tools, createId }).toolCalls[0]?.function.arguments ?? "null");

describe("parseQwenToolCalls", () => {
  it("types each parameter by the tool's schema", () => {
    const text = call(
      param("q", "42") +
        param("top_k", "5") +
        param("score", "5.0") +
        param("exact", "True") +
        param("filters", '{"lang": ["en"]}') +
        param("tags", "['a', 'b']") +
        param("limit", "None"),
    );
    const result = parseQwenToolCalls(text, { tools, createId });
    expect(result.issues).toEqual([]);
    expect(result.content).toBeNull();
    expect(result.toolCalls[0]?.function).toEqual({
      name: "search",
      arguments:
        '{"q": "42", "top_k": 5, "score": 5.0, "exact": true, "filters": {"lang": ["en"]}, "tags": ["a", "b"], "limit": null}',
    });
  });

  it("keeps every digit of a big integer", () => {
    expect(
      parseQwenToolCalls(call(param("top_k", "123456789012345678901234567890")), { tools }).toolCalls[0]
        ?.function.arguments,
    ).toBe('{"top_k": 123456789012345678901234567890}');
  });

  it("keeps text that does not fit the type, with an issue", () => {
    const result = parseQwenToolCalls(call(param("top_k", "five") + param("exact", "maybe")), { tools });
    expect(JSON.parse(result.toolCalls[0]?.function.arguments ?? "")).toEqual({
      top_k: "five",
      exact: "maybe",
    });
    expect(result.issues.map((i) => i.code)).toEqual([
      "qwen_parameter_type_mismatch",
      "qwen_parameter_type_mismatch",
    ]);
  });

  it("keeps a string parameter's 'null' as text", () => {
    expect(args(call(param("q", "null")))).toEqual({ q: "null" });
  });

  it("keeps unknown parameters and tools as text, reported", () => {
    const result = parseQwenToolCalls(call(param("extra", "7")), { tools });
    expect(JSON.parse(result.toolCalls[0]?.function.arguments ?? "")).toEqual({ extra: "7" });
    expect(result.issues[0]?.code).toBe("qwen_unknown_parameter");
    const unknown = parseQwenToolCalls(
      "<tool_call>\n<function=other>\n<parameter=n>\n7\n</parameter>\n</function>\n</tool_call>",
      { tools },
    );
    expect(unknown.toolCalls[0]?.function).toEqual({ name: "other", arguments: '{"n": "7"}' });
    expect(unknown.issues[0]?.code).toBe("qwen_unknown_tool");
  });

  it("reads a literal </parameter> inside a value as text", () => {
    const value = "close it with </parameter> then go on\n</parameter> even here";
    expect(args(call(param("q", value)))).toEqual({ q: value });
  });

  it("strips exactly one newline on each side", () => {
    expect(args(call(param("q", "\n  indented\n")))).toEqual({ q: "\n  indented\n" });
    expect(args(call("<parameter=q>bare</parameter>"))).toEqual({ q: "bare" });
  });

  it("accepts a call without </tool_call>", () => {
    const result = parseQwenToolCalls(`${call(param("q", "x")).replace("\n</tool_call>", "")}\nAfter.`, {
      tools,
    });
    expect(result.toolCalls).toHaveLength(1);
    expect(result.issues.map((i) => i.code)).toEqual(["qwen_tool_call_unclosed"]);
    expect(result.content).toBe("\nAfter.");
  });

  it("accepts a value without </parameter>, ended by the next tag", () => {
    const result = parseQwenToolCalls(
      "<tool_call>\n<function=search>\n<parameter=q>\nx\n<parameter=top_k>\n3\n</parameter>\n</function>\n</tool_call>",
      { tools },
    );
    expect(JSON.parse(result.toolCalls[0]?.function.arguments ?? "")).toEqual({ q: "x", top_k: 3 });
    expect(result.issues.map((i) => i.code)).toEqual(["qwen_parameter_unclosed"]);
  });

  it("never returns a truncated call: it stays in content", () => {
    const text = "Let me look.\n<tool_call>\n<function=search>\n<parameter=q>\nhal";
    const result = parseQwenToolCalls(text, { tools });
    expect(result.toolCalls).toEqual([]);
    expect(result.content).toBe(text);
    expect(result.issues[0]).toMatchObject({
      code: "qwen_call_truncated",
      raw: "<tool_call>\n<function=search>\n<parameter=q>\nhal",
    });
  });

  it("reads several calls and the content around them", () => {
    const text = `I will search twice.\n\n${call(param("q", "a"))}\n${call(param("q", "b"))}`;
    const result = parseQwenToolCalls(text, { tools, createId });
    expect(result.toolCalls.map((c) => c.function.arguments)).toEqual(['{"q": "a"}', '{"q": "b"}']);
    expect(result.content).toBe("I will search twice.\n\n\n");
  });

  it("reads the JSON form of Qwen2.5 and Qwen3", () => {
    const result = parseQwenToolCalls(
      '<tool_call>\n{"name": "search", "arguments": {"q": "x", "n": 1.0}}\n</tool_call>',
      { tools },
    );
    expect(result.toolCalls[0]?.function).toEqual({ name: "search", arguments: '{"q": "x", "n": 1.0}' });
  });

  it("gives JSON-form arguments written as a string R1's wire text, and leaves a call with no name in content", () => {
    const call = (args: string) =>
      parseQwenToolCalls(
        `<tool_call>\n{"name": "search", "arguments": ${JSON.stringify(args)}}\n</tool_call>`,
        {
          tools,
        },
      ).toolCalls[0]?.function.arguments;
    expect(call('{"q": "x"}')).toBe('{"q": "x"}');
    expect(call("")).toBe("{}");
    expect(call("null")).toBe("{}");
    expect(call('"{\\"q\\":\\"x\\"}"')).toBe('{"q":"x"}');
    expect(call("{oops")).toBe('{"_raw_arguments":"{oops"}');
    for (const name of ['""', '"  "']) {
      const text = `<tool_call>\n{"name": ${name}, "arguments": {"a": 1}}\n</tool_call>`;
      const result = parseQwenToolCalls(text, { tools });
      expect(result.toolCalls).toEqual([]);
      expect(result.content).toBe(text);
      expect(result.issues[0]?.code).toBe("qwen_call_invalid");
    }
  });

  it("leaves an unreadable call in content", () => {
    const result = parseQwenToolCalls("<tool_call>\nnonsense\n</tool_call>rest", { tools });
    expect(result.toolCalls).toEqual([]);
    expect(result.content).toBe("<tool_call>\nnonsense\n</tool_call>rest");
    expect(result.issues[0]?.code).toBe("qwen_call_invalid");
  });

  it("reads a bare <function=…> block", () => {
    expect(
      parseQwenToolCalls("<function=search>\n<parameter=q>\nx\n</parameter>\n</function>", { tools })
        .toolCalls,
    ).toHaveLength(1);
  });

  it("keeps __proto__ as data", () => {
    const parsed = args(
      "<tool_call>\n<function=x>\n<parameter=__proto__>\n1\n</parameter>\n</function>\n</tool_call>",
    );
    expect(Object.keys(parsed)).toEqual(["__proto__"]);
  });
});
