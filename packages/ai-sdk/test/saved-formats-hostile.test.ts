import { expectFormatHostile } from "@toolcall/conformance/vitest";
import { coreRepairs, createRecordEngine } from "@toolcall/core";
import fc from "fast-check";
import { describe, it } from "vitest";
import { aiSdkFormats } from "../src/formats.js";

// Whatever a saved chat holds, the formats answer: a reading or a refusal, never a throw; what a repair writes
// still reads in the format.
const engine = createRecordEngine({ repairs: coreRepairs });
const anyValue = fc.oneof(fc.anything(), fc.jsonValue());
const partType = fc.constantFrom(
  "text",
  "reasoning",
  "step-start",
  "tool-weather",
  "dynamic-tool",
  "tool-call",
  "tool-result",
  "tool-invocation",
  "tool-__proto__",
);
const part = fc.record(
  {
    type: partType,
    text: fc.oneof(fc.string(), anyValue),
    toolCallId: fc.oneof(fc.constantFrom("c1", "c2"), anyValue),
    toolName: fc.oneof(fc.constantFrom("weather", "__proto__"), anyValue),
    state: fc.oneof(
      fc.constantFrom(
        "input-streaming",
        "input-available",
        "output-available",
        "output-error",
        "call",
        "result",
      ),
      anyValue,
    ),
    input: anyValue,
    rawInput: anyValue,
    output: fc.oneof(
      fc.record({ type: fc.constantFrom("text", "json", "error-text"), value: anyValue }),
      anyValue,
    ),
    toolInvocation: fc.oneof(
      fc.record({
        state: fc.constantFrom("call", "result"),
        toolCallId: fc.constantFrom("c1", "c2"),
        toolName: fc.string(),
        args: anyValue,
        result: anyValue,
      }),
      anyValue,
    ),
  },
  { requiredKeys: ["type"] },
);
const message = fc.record(
  {
    id: fc.string(),
    role: fc.constantFrom("system", "user", "assistant", "tool", "data", "__proto__"),
    parts: fc.array(part),
    content: fc.oneof(fc.string(), fc.array(part)),
    toolInvocations: fc.array(anyValue),
  },
  { requiredKeys: ["role"] },
);
const records = fc.oneof(
  anyValue,
  fc.array(message, { minLength: 1 }),
  fc.record({ messages: fc.array(message, { minLength: 1 }) }),
);

describe("hostile saved AI SDK chats", () => {
  it("never make a format throw; a repair's record still reads in the format", () => {
    fc.assert(
      fc.property(records, (value) => {
        expectFormatHostile(aiSdkFormats, value, engine);
      }),
      { numRuns: 400 },
    );
  });

  it("a throwing getter and a __proto__ key are answered too", () => {
    const trap = {
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: "c", toolName: "f", input: {} }],
    };
    Object.defineProperty(trap.content[0], "input", {
      enumerable: true,
      get() {
        throw new Error("trap");
      },
    });
    const values = [
      [trap],
      JSON.parse(
        '[{"role": "assistant", "content": [{"type": "tool-call", "toolCallId": "c", "toolName": "f", "input": {"__proto__": {"x": 1}}}]}]',
      ),
      JSON.parse(
        '[{"id": "a", "role": "assistant", "parts": [{"type": "tool-f", "toolCallId": "c", "state": "output-available", "input": {"__proto__": 1}, "output": 1}]}]',
      ),
    ];
    for (const value of values) expectFormatHostile(aiSdkFormats, value, engine);
  });
});
