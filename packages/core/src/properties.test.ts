import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeArguments, toArgumentsObject } from "./decode-arguments.js";
import { isPlainObject } from "./define-property.js";
import { encodeArguments } from "./encode-arguments.js";
import { prepareForTemplate } from "./prepare-for-template.js";
import { coreRepairs } from "./repairs/index.js";
import { sanitizeHistory } from "./sanitize-history.js";
import { ToolCallAccumulator } from "./tool-call-accumulator.js";
import { validateHistory } from "./validate-history.js";
import { validateToolCall } from "./validate-tool-call.js";

function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (typeof value === "object" && value !== null && !seen.has(value)) {
    seen.add(value);
    for (const key of Reflect.ownKeys(value))
      deepFreeze((value as Record<string | symbol, unknown>)[key], seen);
    Object.freeze(value);
  }
  return value;
}

/** Argument payloads as models and servers send them: JSON texts, near-JSON, natives, garbage. */
const argumentsArbitrary = fc.oneof(
  fc.json(),
  fc.jsonValue().map((v) => JSON.stringify(JSON.stringify(v))),
  fc.string(),
  fc.string({ unit: "binary" }),
  fc.jsonValue(),
  fc.constantFrom(
    "",
    " ",
    "null",
    "{}",
    "[]",
    "42",
    "{not json}",
    '{"a": ',
    '```json\n{"a":1}\n```',
    "{'a': True}",
    '{"a":1}{"a":1}',
  ),
  fc.anything(),
);

const finishReasons = fc.constantFrom(undefined, null, "stop", "length", "tool_calls");

describe("decodeArguments properties", () => {
  it("never throws and always returns a plain mapping with a status", () => {
    fc.assert(
      fc.property(
        argumentsArbitrary,
        finishReasons,
        fc.boolean(),
        fc.boolean(),
        (value, finishReason, lossless, repair) => {
          const result = decodeArguments(value, {
            finishReason,
            lossless,
            repairs: repair ? coreRepairs : [],
          });
          expect(isPlainObject(result.arguments)).toBe(true);
          expect(typeof result.status).toBe("string");
          expect(Array.isArray(result.repairs)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("never mutates its input (deep-frozen inputs, compared before and after)", () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, repair) => {
        const before = structuredClone(value);
        const frozen = deepFreeze(value);
        decodeArguments(frozen, { repairs: repair ? coreRepairs : [] });
        toArgumentsObject(frozen);
        expect(frozen).toEqual(before);
      }),
    );
  });

  it("keeps everything the model emitted: a mapping, or the raw payload under _raw_arguments", () => {
    fc.assert(
      fc.property(argumentsArbitrary, (value) => {
        const result = decodeArguments(value);
        if (
          result.status === "non_object" ||
          result.status === "invalid" ||
          result.status === "native_non_object"
        ) {
          expect(result.arguments._raw_arguments).toBe(value);
          expect(result.raw).toBe(value);
        }
        if (result.status !== "object" && result.status !== "absent") expect(result.raw).toBe(value);
      }),
    );
  });

  it("round-trips every JSON object text through encode(decode(x))", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const text = JSON.stringify(object);
        const decoded = decodeArguments(text);
        expect(decoded.status).toBe("object");
        expect(JSON.parse(encodeArguments(decoded.arguments))).toEqual(JSON.parse(text));
        // Losslessly, compact text comes back byte for byte.
        expect(encodeArguments(decodeArguments(text, { lossless: true }).arguments)).toBe(text);
      }),
    );
  });

  it("leaves valid object text alone even with every repair enabled", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (object) => {
        const text = JSON.stringify(object);
        const result = decodeArguments(text, { repairs: coreRepairs });
        expect(result.status).toBe("object");
        expect(result.repairs).toEqual([]);
      }),
    );
  });

  it("accepts a repair only when it gives an object, and never on a length stop", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const repaired = decodeArguments(text, { repairs: coreRepairs });
        if (repaired.status === "repaired") expect(isPlainObject(repaired.arguments)).toBe(true);
        const truncated = decodeArguments(text, { repairs: coreRepairs, finishReason: "length" });
        expect(truncated.status).not.toBe("repaired");
      }),
    );
  });

  it("reports JSON.parse's own message for text that fails, whether or not the parse was skipped", () => {
    const prefixes = fc.constantFrom(
      "",
      " ",
      "\n\t",
      "```",
      "<|",
      "\uFEFF",
      "x",
      "{",
      "[",
      '"',
      "-",
      "7",
      "t",
    );
    fc.assert(
      fc.property(prefixes, fc.string({ unit: "binary" }), finishReasons, (prefix, rest, finishReason) => {
        const text = prefix + rest;
        const decoded = decodeArguments(text, { repairs: coreRepairs, finishReason });
        if (decoded.status !== "invalid" && decoded.status !== "truncated") return;
        let message = "";
        try {
          JSON.parse(text);
        } catch (error) {
          message = (error as Error).message;
        }
        expect(decoded.error).toBe(message);
      }),
    );
  });
});

const idArbitrary = fc.oneof(
  fc.constantFrom("call_a", "call_b", "call_c"),
  fc.constant(undefined),
  fc.constant(""),
);
const callArbitrary = fc.record({
  id: idArbitrary,
  type: fc.constantFrom("function", undefined),
  function: fc.record({
    name: fc.oneof(fc.constantFrom("get_weather", "search"), fc.constant(""), fc.constant(undefined)),
    arguments: argumentsArbitrary,
  }),
});
const messageArbitrary = fc.oneof(
  fc.record({ role: fc.constant("user"), content: fc.string() }),
  fc.record({
    role: fc.constant("assistant"),
    content: fc.oneof(fc.constant(null), fc.string()),
    tool_calls: fc.array(callArbitrary, { maxLength: 3 }),
  }),
  fc.record({
    role: fc.constant("assistant"),
    content: fc.oneof(fc.constant(null), fc.constant(""), fc.string()),
  }),
  fc.record({ role: fc.constant("tool"), tool_call_id: idArbitrary, content: fc.string() }),
);
const historyArbitrary = fc.array(messageArbitrary, { maxLength: 12 });
const policies = fc.constantFrom("preserve" as const, "drop" as const, "empty" as const);
const missing = fc.constantFrom("synthesize" as const, "drop-call" as const);

describe("sanitizeHistory properties", () => {
  it("is idempotent, and a second pass returns the same array", () => {
    fc.assert(
      fc.property(
        historyArbitrary,
        policies,
        missing,
        fc.boolean(),
        (history, policy, missingResult, repair) => {
          const options = { policy, missingResult, repairs: repair ? coreRepairs : [] };
          const once = sanitizeHistory(history, options);
          const twice = sanitizeHistory(once.messages, options);
          expect(twice.changes).toEqual([]);
          expect(twice.messages).toBe(once.messages);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("gives a history that validation finds no error in (what a strict provider accepts)", () => {
    fc.assert(
      fc.property(historyArbitrary, policies, missing, (history, policy, missingResult) => {
        const { messages } = sanitizeHistory(history, { policy, missingResult });
        const errors = validateHistory(messages).filter(
          (i) => i.severity === "error" && i.code !== "id_duplicate",
        );
        expect(errors).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it("never mutates its input and returns the same array when it reports no change", () => {
    fc.assert(
      fc.property(historyArbitrary, policies, (history, policy) => {
        const before = structuredClone(history);
        const result = sanitizeHistory(deepFreeze(history), { policy });
        expect(history).toEqual(before);
        if (result.changes.length === 0) expect(result.messages).toBe(history);
        else expect(result.messages).not.toBe(history);
      }),
    );
  });

  it("records every dropped call and result with its value (nothing lost silently)", () => {
    fc.assert(
      fc.property(historyArbitrary, policies, missing, (history, policy, missingResult) => {
        const { messages, changes } = sanitizeHistory(history, { policy, missingResult });
        const removed = changes.filter((c) => /dropped|removed/.test(c.rule)).length;
        const synthesized = changes.filter((c) => c.rule === "result_synthesized").length;
        const removedMessages = changes.filter(
          (c) => c.rule.startsWith("result_dropped") || c.rule === "message_removed_empty",
        ).length;
        expect(messages.length).toBe(history.length - removedMessages + synthesized);
        for (const change of changes.filter((c) => /dropped|removed/.test(c.rule)))
          expect(change).toHaveProperty("before");
        expect(removed).toBeGreaterThanOrEqual(removedMessages);
      }),
    );
  });
});

describe("other total functions", () => {
  it("validateToolCall never throws and returns issues with known severities", () => {
    fc.assert(
      fc.property(fc.oneof(callArbitrary, fc.anything()), finishReasons, (call, finishReason) => {
        for (const found of validateToolCall(call, {
          finishReason,
          tools: [{ name: "get_weather", parameters: { type: "object" } }],
        })) {
          expect(["error", "warning", "info"]).toContain(found.severity);
        }
      }),
    );
  });

  it("encodeArguments never throws and gives JSON object text for anything but a string", () => {
    fc.assert(
      fc.property(fc.anything(), fc.constantFrom("compact" as const, "python" as const), (value, style) => {
        const text = encodeArguments(value, { style });
        if (typeof value === "string") expect(text).toBe(value);
        else expect(isPlainObject(JSON.parse(text))).toBe(true);
      }),
    );
  });

  it("prepareForTemplate never mutates and keeps the caller's argument strings", () => {
    fc.assert(
      fc.property(
        historyArbitrary,
        fc.constantFrom("mapping" as const, "string" as const),
        (history, argumentsForm) => {
          const before = structuredClone(history);
          const prepared = prepareForTemplate(deepFreeze(history), { argumentsForm, attachParsed: true });
          expect(history).toEqual(before);
          expect(prepared).toHaveLength(history.length);
        },
      ),
    );
  });

  it("the accumulator gives the same text however the arguments are split", () => {
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.array(fc.nat(), { maxLength: 8 }),
        (object, cuts) => {
          const text = JSON.stringify(object);
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const pieces: string[] = [];
          let last = 0;
          for (const p of points) {
            pieces.push(text.slice(last, p));
            last = p;
          }
          pieces.push(text.slice(last));
          const accumulator = new ToolCallAccumulator();
          accumulator.push({ index: 0, id: "c1", function: { name: "f" } });
          for (const piece of pieces) accumulator.push({ index: 0, function: { arguments: piece } });
          const [call] = accumulator.finish({ finishReason: "tool_calls" });
          expect(call?.arguments).toBe(text);
          expect(call?.decoded.arguments).toEqual(JSON.parse(text));
        },
      ),
    );
  });
});
