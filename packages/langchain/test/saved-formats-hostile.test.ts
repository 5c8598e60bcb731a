import { expectFormatHostile } from "@toolcall/conformance/vitest";
import { coreRepairs, createRecordEngine } from "@toolcall/core";
import fc from "fast-check";
import { describe, it } from "vitest";
import { langchainFormats } from "../src/formats.js";

// Whatever a saved file holds, the formats answer: a reading or a refusal, never a throw; what a repair writes is
// still in the format.
const engine = createRecordEngine({ repairs: coreRepairs });
const anyValue = fc.oneof(fc.anything(), fc.jsonValue());
const call = fc.record(
  { id: anyValue, name: fc.oneof(fc.string(), anyValue), args: anyValue, type: anyValue, error: anyValue },
  { requiredKeys: [] },
);
const fields = fc.record(
  {
    content: fc.oneof(fc.string(), fc.array(anyValue), anyValue),
    tool_calls: fc.oneof(fc.array(call), anyValue),
    invalid_tool_calls: fc.oneof(fc.array(call), anyValue),
    tool_call_id: fc.oneof(fc.string(), anyValue),
    additional_kwargs: fc.oneof(fc.record({ tool_calls: fc.array(anyValue) }), anyValue),
    role: anyValue,
  },
  { requiredKeys: [] },
);
const type = fc.constantFrom(
  "ai",
  "human",
  "tool",
  "system",
  "chat",
  "__proto__",
  "constructor",
  "AIMessageChunk",
);
const stored = fc.record({ type, data: fields });
const serialized = fc.record({
  lc: fc.constant(1),
  type: fc.constant("constructor"),
  id: fc.array(
    fc.constantFrom("langchain_core", "messages", "AIMessage", "ToolMessage", "toString", "__proto__"),
  ),
  kwargs: fields,
});
const records = fc.oneof(
  anyValue,
  fc.array(stored, { minLength: 1 }),
  fc.array(serialized, { minLength: 1 }),
  fc.record({ messages: fc.array(fc.oneof(stored, serialized), { minLength: 1 }) }),
);

describe("hostile saved LangChain messages", () => {
  it("never make a format throw; a repair's record is still in the format", () => {
    fc.assert(
      fc.property(records, (value) => {
        expectFormatHostile(langchainFormats, value, engine);
      }),
      { numRuns: 400 },
    );
  });

  it("a throwing getter, a __proto__ key and deep nesting are answered too", () => {
    const trap = { type: "ai", data: { content: "", tool_calls: [] as unknown[] } };
    Object.defineProperty(trap.data, "invalid_tool_calls", {
      enumerable: true,
      get() {
        throw new Error("trap");
      },
    });
    let deep: unknown = {};
    for (let i = 0; i < 5000; i++) deep = { a: deep };
    const values = [
      [trap],
      JSON.parse('[{"type": "ai", "data": {"__proto__": {"tool_calls": [1]}, "content": "x"}}]'),
      [{ type: "ai", data: { content: "", tool_calls: [{ id: "c", name: "f", args: deep }] } }],
    ];
    for (const value of values) expectFormatHostile(langchainFormats, value, engine);
  });
});
