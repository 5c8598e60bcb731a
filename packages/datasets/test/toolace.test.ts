import { WILD_ARGUMENTS } from "@toolcall/conformance";
import { expectFormatLossless } from "@toolcall/conformance/vitest";
import { createRecordEngine } from "@toolcall/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sharegptFormat } from "../src/index.js";
import { readPythonicTurn } from "../src/pythonic-turn.js";

// A look-alike of a ToolACE record (Team-ACE/ToolACE's data: `system` listing the functions, `conversations` of
// `user`, `assistant` and `tool` turns, the assistant's calls as a Python call list whose names hold spaces, one
// `tool` turn answering them as a JSON list), written here after the shapes its public converters read.
const toolace = () => ({
  system:
    'You are an expert in composing functions.\n[{"name": "Market Trends API", "parameters": {"type": "dict", "properties": {"trend_type": {"type": "string"}}}}]',
  conversations: [
    { from: "user", value: "Can you get me the latest market trends for indexes and the time?" },
    { from: "assistant", value: "[Market Trends API(trend_type=\"INDEXES\"), time.now(zone='UTC')]" },
    {
      from: "tool",
      value:
        '[{"name": "Market Trends API", "results": {"change": "+0.5%"}}, {"name": "time.now", "results": "12:00"}]',
    },
    { from: "assistant", value: "The S&P 500 is up 0.5% at 12:00 UTC." },
  ],
});
const engine = createRecordEngine();

describe("ToolACE records (ShareGPT with calls as Python code)", () => {
  it("read the calls and pair the tool turn with them by position: no orphan, nothing dropped", () => {
    const record = toolace();
    const [conversation] = sharegptFormat.read(record).conversations;
    const calls = conversation?.messages[2]?.tool_calls as Array<{
      function: { name: string; arguments: string };
    }>;
    expect(calls.map((call) => [call.function.name, call.function.arguments])).toEqual([
      ["Market Trends API", '{"trend_type": "INDEXES"}'],
      ["time.now", '{"zone": "UTC"}'],
    ]);
    expect(conversation?.messages.filter((m) => m.role === "tool")).toHaveLength(2);
    // Names with spaces or dots break OpenAI's pattern: warnings; before, the results were orphans and repair dropped them.
    const codes = engine.check(sharegptFormat, record).issues.map((issue) => [issue.code, issue.severity]);
    expect(codes).toEqual([
      ["name_invalid", "warning"],
      ["name_invalid", "warning"],
    ]);
    const repaired = expectFormatLossless(sharegptFormat, record, { repair: engine.repair });
    expect(repaired.changes).toEqual([]);
  });

  it("a final answer in brackets, or a list with no tool turn after it, stays text", () => {
    const record = toolace();
    record.conversations[3] = { from: "assistant", value: "[this is not a call]" };
    const messages = sharegptFormat.read(record).conversations[0]?.messages ?? [];
    expect(messages[5]).toMatchObject({ role: "assistant", content: "[this is not a call]" });
    const last = {
      conversations: [
        { from: "user", value: "hi" },
        { from: "assistant", value: "[f(x=1)]" },
      ],
    };
    expect(sharegptFormat.read(last).conversations[0]?.messages[1]).toMatchObject({ content: "[f(x=1)]" });
  });

  it("reads only whole call lists, whatever the text, in one pass", () => {
    for (const text of [
      "[]",
      "[f(x=1)] tail",
      "[f(x=1)",
      "[(x=1)]",
      '[f(x="a)]',
      "[a=b(x=1)]",
      ...WILD_ARGUMENTS,
    ])
      expect(readPythonicTurn(text)).toBeUndefined();
    expect(readPythonicTurn("[f(x=')', y=\"]\"), g()]")?.map((call) => call.name)).toEqual(["f", "g"]);
    fc.assert(
      fc.property(fc.string(), (text) => {
        const read = readPythonicTurn(text);
        if (read !== undefined) expect(read.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
    // A long hostile text is read once: no quadratic rescan (the call count caps what the syntax sees).
    expect(readPythonicTurn(`[f(x=${"(".repeat(100_000)}`)).toBeUndefined();
  });
});
