import { coreRepairs, createRecordEngine } from "@toolcall/core";
import { openaiChatFormat } from "@toolcall/openai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// Repair skips sanitize for a conversation validation finds clean: that must change nothing, whatever the history.
const args = fc.oneof(
  fc.constantFrom(
    '{"a": 1}',
    "{}",
    "",
    "null",
    "```json\n{}\n```",
    "{'a': True}",
    "[1]",
    "{oops",
    '"{\\"a\\":1}"',
  ),
  fc.constant({ a: 1 }),
  fc.constant(undefined),
  fc.constant([1]),
);
const call = fc.record(
  {
    id: fc.constantFrom("a", "b", "", undefined),
    type: fc.constantFrom("function", "custom", undefined),
    function: fc.record({ name: fc.constantFrom("f", ""), arguments: args }, { requiredKeys: ["name"] }),
  },
  { requiredKeys: ["function"] },
);
const message = fc.oneof(
  fc.record({ role: fc.constant("user"), content: fc.constantFrom("hi", "", null) }),
  fc.record({
    role: fc.constant("assistant"),
    content: fc.constantFrom(null, "", "ok", [], [{ type: "text", text: "x" }]),
    tool_calls: fc.oneof(fc.constant(undefined), fc.array(call, { maxLength: 2 })),
  }),
  fc.record({
    role: fc.constant("tool"),
    tool_call_id: fc.constantFrom("a", "b", "z", undefined),
    content: fc.constant("r"),
  }),
  fc.constant("not a message"),
);

describe("record engine through the command line's formats", () => {
  it("skipping sanitize on clean conversations gives exactly what sanitizing every one gives (each exception it knows is needed: removing one fails this)", () => {
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 6 }),
        fc.constantFrom("keep", "synthesize", "drop-call"),
        (messages, pending) => {
          const a = createRecordEngine({ repairs: coreRepairs, pending: pending as "keep" }).repair(
            openaiChatFormat,
            messages,
          );
          const b = createRecordEngine({
            repairs: coreRepairs,
            pending: pending as "keep",
            skipClean: false,
          }).repair(openaiChatFormat, messages);
          expect(a).toEqual(b);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
