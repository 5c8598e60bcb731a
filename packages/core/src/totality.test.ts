import fc from "fast-check";
import { jsonrepair } from "jsonrepair";
import { describe, expect, it } from "vitest";
import {
  anyValue,
  build,
  cyclicObject,
  deeplyNested,
  hostileHistory,
  hostileToolCall,
  hugeSparseArray,
  revokedProxy,
  throwingGetter,
} from "../test/hostile-values.js";
import { fuzzRuns } from "../test/linear-work.js";
import { decodeArguments, toArgumentsObject } from "./decode-arguments.js";
import { isPlainObject } from "./define-property.js";
import {
  ArgumentsEncodeError,
  encodeArguments,
  encodeArgumentsOrThrow,
  isRawSentinel,
  safeEncodeArguments,
} from "./encode-arguments.js";
import { normalizeArguments } from "./normalize-arguments.js";
import { numbersRoundTrip } from "./numbers-round-trip.js";
import { parseJson } from "./parse-json.js";
import { prepareForTemplate } from "./prepare-for-template.js";
import { isArraySafe } from "./read-history.js";
import { coreRepairs } from "./repairs/index.js";
import { createJsonrepairRepair } from "./repairs/jsonrepair.js";
import { orderRepairs, parseRepairNames } from "./repairs/repair-order.js";
import { sanitizeHistory } from "./sanitize-history.js";
import { serializeJson } from "./serialize-json.js";
import { appendArguments, finishReasonAtStreamEnd, ToolCallAccumulator } from "./tool-call-accumulator.js";
import { DECODE_STATUSES } from "./types.js";
import { validateHistory } from "./validate-history.js";
import { argumentIssues, validateToolCall } from "./validate-tool-call.js";

// Totality for any JavaScript value: every public function returns its documented result (or its documented error
// result) for throwing getters, revoked proxies, huge sparse arrays, cycles, deep nesting and exotic objects, and
// returns it promptly (vitest's timeout fails a run that hangs). Nothing throws but the …OrThrow functions.

const RUNS = fuzzRuns(300);

function isStatus(value: unknown): boolean {
  return DECODE_STATUSES.includes(value as (typeof DECODE_STATUSES)[number]);
}

function expectIssues(issues: unknown): void {
  expect(Array.isArray(issues)).toBe(true);
  for (const found of issues as Array<{ code: unknown; path: unknown }>) {
    expect(typeof found.code).toBe("string");
    expect(Array.isArray(found.path)).toBe(true);
  }
}

describe("every public function of core is total over hostile values", () => {
  it("decode, encode, normalize, parse and serialize", () => {
    fc.assert(
      fc.property(anyValue, (recipe) => {
        const value = build(recipe);
        const decoded = decodeArguments(value, { repairs: coreRepairs });
        expect(isStatus(decoded.status)).toBe(true);
        expect(isPlainObject(decoded.arguments)).toBe(true);
        expect(isPlainObject(toArgumentsObject(value))).toBe(true);
        const encoded = encodeArguments(value);
        expect(typeof encoded).toBe("string");
        if (typeof value !== "string") expect(() => JSON.parse(encoded)).not.toThrow();
        const safe = safeEncodeArguments(value, { style: "python", sortKeys: true, ensureAscii: true });
        expect(typeof safe.success).toBe("boolean");
        try {
          encodeArgumentsOrThrow(value);
        } catch (error) {
          expect(ArgumentsEncodeError.isInstance(error)).toBe(true);
        }
        const normalized = normalizeArguments(value, { repairs: coreRepairs });
        expect(isStatus(normalized.decoded.status)).toBe(true);
        expect(typeof serializeJson(value).success).toBe("boolean");
        expect(typeof parseJson(value as string).success).toBe("boolean");
        expect(typeof numbersRoundTrip(value as string)).toBe("boolean");
        expect(typeof isRawSentinel(value)).toBe("boolean");
        expect(typeof finishReasonAtStreamEnd(value as string)).toBe("string");
        expect(typeof parseRepairNames(value as string).ok).toBe("boolean");
        expectIssues(argumentIssues(decoded));
      }),
      RUNS,
    );
  });

  it("validateToolCall", () => {
    fc.assert(
      fc.property(hostileToolCall, anyValue, (callRecipe, toolsRecipe) => {
        const call = build(callRecipe);
        const tools = build(toolsRecipe);
        expectIssues(validateToolCall(call));
        expectIssues(validateToolCall(call, { tools: tools as never, repairs: coreRepairs }));
      }),
      RUNS,
    );
  });

  it("validateHistory, sanitizeHistory and prepareForTemplate", () => {
    fc.assert(
      fc.property(hostileHistory, (recipe) => {
        const history = build(recipe);
        expectIssues(validateHistory(history as unknown[]));
        for (const policy of ["preserve", "drop", "empty"] as const) {
          const result = sanitizeHistory(history as unknown[], { policy, repairs: coreRepairs });
          expect(Array.isArray(result.changes)).toBe(true);
          if (isArraySafe(history)) {
            expect(Array.isArray(result.messages)).toBe(true);
            // Idempotent, on what it returns.
            expect(sanitizeHistory(result.messages, { policy, repairs: coreRepairs }).changes).toEqual([]);
          }
        }
        const prepared = prepareForTemplate(history as unknown[], { attachParsed: true, lossless: true });
        expect(Array.isArray(prepared)).toBe(true);
      }),
      RUNS,
    );
  });

  it("ToolCallAccumulator", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(anyValue, fc.array(anyValue, { maxLength: 3 })), { maxLength: 6 }),
        (deltas) => {
          const accumulator = new ToolCallAccumulator();
          for (const delta of deltas) expect(Array.isArray(accumulator.push(delta as never))).toBe(true);
          expect(Array.isArray(accumulator.takeCompleted())).toBe(true);
          for (const call of accumulator.finish({ repairs: coreRepairs }))
            expect(isStatus(call.decoded.status)).toBe(true);
          expect(Array.isArray(accumulator.takeRest())).toBe(true);
          expect(typeof appendArguments(deltas[0] as string, deltas[1] as string)).toBe("string");
        },
      ),
      RUNS,
    );
  });

  it("every repair rule, called by hand with anything", () => {
    const rules = [...coreRepairs, createJsonrepairRepair(jsonrepair)];
    fc.assert(
      fc.property(anyValue, anyValue, (textRecipe, contextRecipe) => {
        const text = build(textRecipe);
        const context = build(contextRecipe);
        for (const rule of rules) {
          const out = rule.repair(text as string, context as never);
          expect(out === undefined || typeof out === "string").toBe(true);
        }
      }),
      RUNS,
    );
  });

  it("orderRepairs takes any list of rules", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(anyValue, fc.constantFrom(...coreRepairs)), { maxLength: 5 }),
        (rules) => {
          expect(Array.isArray(orderRepairs(rules as never))).toBe(true);
        },
      ),
      RUNS,
    );
  });
});

describe("the cases of the issue", () => {
  it("encodes arguments holding an array of length 2**32 - 1 to a documented error, at once", () => {
    const a = hugeSparseArray();
    expect(safeEncodeArguments({ a })).toEqual({
      success: false,
      error: expect.stringMatching(/would exceed/),
    });
    expect(JSON.parse(encodeArguments({ a }))).toEqual({
      _raw_arguments: expect.stringMatching(/^\[arguments could not be encoded: .*would exceed/),
    });
    expect(() => encodeArgumentsOrThrow({ a })).toThrow(ArgumentsEncodeError);
    const history = [
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: { a } } }],
      },
      { role: "tool", tool_call_id: "c1", content: "ok" },
    ];
    const { messages } = sanitizeHistory(history);
    const args = (messages[0] as unknown as { tool_calls: Array<{ function: { arguments: string } }> })
      .tool_calls[0]?.function.arguments;
    expect(JSON.parse(args as string)).toHaveProperty("_raw_arguments");
  });

  it("reads a history of length 2**32 - 1 by its entries, not its length", () => {
    const messages = hugeSparseArray([
      [
        7,
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "" } }],
        },
      ],
      [9, { role: "tool", tool_call_id: "c1", content: "ok" }],
    ]);
    expect(validateHistory(messages).map((i) => i.code)).toEqual(["arguments_empty"]);
    const sanitized = sanitizeHistory(messages);
    expect(sanitized.changes.map((c) => [c.rule, c.messageIndex])).toEqual([["arguments_canonicalized", 7]]);
    expect(sanitized.messages).toHaveLength(2);
    const prepared = prepareForTemplate(messages);
    expect(prepared).toHaveLength(2);
    const empty = hugeSparseArray();
    const unchanged = sanitizeHistory(empty);
    // Compared by identity: handing an array of length 2**32 - 1 to a matcher would walk it.
    expect(unchanged.messages === empty).toBe(true);
    expect(unchanged.changes).toEqual([]);
    const calls = hugeSparseArray([
      [3, { id: "c1", type: "function", function: { name: "f", arguments: "{}" } }],
    ]);
    const withCalls = [
      { role: "assistant", content: null, tool_calls: calls },
      { role: "tool", tool_call_id: "c1", content: "ok" },
    ];
    // Its holes read as one call that is missing (JSON would send each as null, which no provider takes).
    expect(validateHistory(withCalls).map((i) => i.code)).toEqual(["id_missing", "name_missing"]);
    const fixed = sanitizeHistory(withCalls);
    expect(fixed.changes.map((c) => c.rule)).toEqual(["call_dropped_no_name"]);
    expect(fixed.messages[0]).toMatchObject({ tool_calls: [{ id: "c1" }] });
    expect(prepareForTemplate(withCalls)[0]).toMatchObject({ tool_calls: [{ function: { arguments: {} } }] });
  });

  it("takes push(null) and push([null]) as no delta", () => {
    const accumulator = new ToolCallAccumulator();
    expect(accumulator.push(null as never)).toEqual([]);
    expect(accumulator.push([null] as never)).toEqual([]);
    expect(accumulator.push([{ index: 0, id: "c", function: { name: "f", arguments: "{}" } }])).toHaveLength(
      1,
    );
    expect(accumulator.finish()).toMatchObject([{ name: "f", decoded: { status: "object" } }]);
  });

  it("reads a message whose content getter throws, or a revoked proxy, as what can be read", () => {
    const message = throwingGetter("content", {
      role: "assistant",
      tool_calls: [{ id: "c1", type: "function", function: { name: "f", arguments: "" } }],
    });
    const history = [message, { role: "tool", tool_call_id: "c1", content: "ok" }, revokedProxy()];
    const sanitized = sanitizeHistory(history);
    expect(sanitized.changes.map((c) => c.rule)).toEqual(["arguments_canonicalized"]);
    expect(sanitized.messages[2]).toBe(history[2]);
    // The revoked proxy is no message (a provider reads it as nothing it takes).
    expect(validateHistory(history).map((i) => [i.code, i.path[0]])).toEqual([
      ["arguments_empty", 0],
      ["message_invalid", 2],
    ]);
    expect(prepareForTemplate(history)[0]).toMatchObject({ tool_calls: [{ function: { arguments: {} } }] });
    const accumulator = new ToolCallAccumulator();
    accumulator.push(throwingGetter("function", { index: 0, id: "c" }) as never);
    accumulator.push(revokedProxy() as never);
    expect(accumulator.finish().map((c) => c.id)).toEqual(["c"]);
  });

  it("handles cycles and deep values in arguments", () => {
    for (const value of [cyclicObject(), deeplyNested(100_000), deeplyNested(100_000, "array")]) {
      expect(safeEncodeArguments(value).success).toBe(false);
      expect(isStatus(normalizeArguments(value).decoded.status)).toBe(true);
    }
  });
});
