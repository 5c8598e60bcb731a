import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readFencedJsonCalls } from "../src/index.js";

const TOOLS = [
  { type: "function", function: { name: "get_weather", parameters: { type: "object" } } },
  { type: "function", function: { name: "get_time", parameters: { type: "object" } } },
];
const createId = ({ index }: { index: number }) => `call_${index}`;
const read = (content: string, tools: readonly unknown[] | null = TOOLS) =>
  readFencedJsonCalls({ content, tools, createId });
// Look-alike of a hermes-style model answering with its call in a Markdown fence instead of <tool_call>.
const FENCED = 'Let me check.\n```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```';

describe("readFencedJsonCalls", () => {
  it("reads a fence that holds exactly a call of an advertised tool, recorded", () => {
    const result = read(FENCED);
    expect(result.toolCalls).toEqual([
      { id: "call_0", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
    ]);
    expect(result.content).toBe("Let me check.");
    expect(result.issues.map((issue) => [issue.code, issue.severity])).toEqual([["call_fenced", "info"]]);
  });

  it("reads several fences and keeps the text between them", () => {
    const text = `${FENCED}\nthen\n\`\`\`\n{"name": "get_time", "arguments": {}}\n\`\`\``;
    const result = read(text);
    expect(result.toolCalls.map((call) => call.function.name)).toEqual(["get_weather", "get_time"]);
    expect(result.content).toBe("Let me check.\n\nthen");
  });

  it.each([
    ["no tools advertised", FENCED, null],
    ["a name that is not advertised", FENCED.replace("get_weather", "delete_all"), TOOLS],
    ["an extra key (a code example)", FENCED.replace('"arguments"', '"id": 1, "arguments"'), TOOLS],
    ["arguments that are not an object", FENCED.replace('{"city": "Paris"}', '"Paris"'), TOOLS],
    ["another language", FENCED.replace("```json", "```python"), TOOLS],
    ["a list of calls", FENCED.replace("{", "[{").replace("}}\n", "}}]\n"), TOOLS],
    ["a fence that does not close", FENCED.slice(0, -3), TOOLS],
    ["a schema example", '```json\n{"name": "get_weather", "parameters": {"type": "object"}}\n```', TOOLS],
  ])("leaves %s as content", (_why, text, tools) => {
    expect(read(text, tools)).toEqual({ toolCalls: [], content: text, issues: [] });
  });

  it("keeps a code example fence and reads the call fence after it", () => {
    const example = '```json\n{"name": "get_weather", "args": {}}\n```\n';
    const result = read(example + FENCED);
    expect(result.toolCalls).toHaveLength(1);
    expect(result.content).toBe(`${example}Let me check.`);
  });

  it("is total on any text", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.anything(), (text, tools) => {
        const result = readFencedJsonCalls({ content: text, tools: Array.isArray(tools) ? tools : TOOLS });
        expect(result.toolCalls.length).toBe(result.issues.length);
      }),
    );
  });

  it("loses no text around the fences it reads", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z .\n]{0,20}$/), (before) => {
        const result = read(`${before}${FENCED}`);
        expect(result.toolCalls).toHaveLength(1);
        expect((result.content ?? "").trim()).toBe(`${before}Let me check.`.trim());
      }),
    );
  });

  it("does work linear in the content (counted)", () => {
    const work = (count: number) => {
      const counter = { scanned: 0 };
      const text = `${'```\n{"a": 1}\n```\n'.repeat(count)}${FENCED}`;
      readFencedJsonCalls({ content: text, tools: TOOLS, work: counter });
      return counter.scanned / text.length;
    };
    expect(work(100)).toBeGreaterThan(0);
    expect(work(10_000)).toBeLessThanOrEqual(2);
    expect(work(10_000) / work(100)).toBeLessThan(1.1);
  });

  it("reads past many code-example fences to the call", () => {
    const many = (count: number) => `${'```\n{"a": 1}\n```\n'.repeat(count)}${FENCED}`;
    expect(read(many(20_000)).toolCalls).toHaveLength(1);
  });
});
