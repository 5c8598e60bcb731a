import { describe, expect, it } from "vitest";
import { vectorsSchema } from "./check-vectors.js";
import { type ConformanceImplementation, checkImplementation } from "./implementation.js";
import { caseLevels, expectedLevels } from "./levels.js";
import { type ConformanceCase, loadVectors } from "./load-vectors.js";
import { runConformance, runTest } from "./run-test.js";

const cases = loadVectors();
const byId = (id: string) => cases.find((c) => c.id === id) as ConformanceCase;

/** A mapping-level decode in the way a Python stack writes one: it returns the mapping, no status. */
function mappingDecode(input: unknown): Record<string, unknown> {
  if (input === null || input === undefined) return {};
  if (typeof input === "object" && !Array.isArray(input) && Object.getPrototypeOf(input) === Object.prototype)
    return input as Record<string, unknown>;
  if (typeof input !== "string") return { _raw_arguments: input };
  if (input.trim() === "") return {};
  try {
    let value: unknown = JSON.parse(input);
    if (typeof value === "string") {
      try {
        const inner: unknown = JSON.parse(value);
        if (typeof inner === "object" && inner !== null && !Array.isArray(inner)) value = inner;
      } catch {}
    }
    if (value === null) return {};
    return typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : { _raw_arguments: input };
  } catch {
    return { _raw_arguments: input };
  }
}

describe("levels", () => {
  it("come from the schema's x-level annotations", () => {
    const levels = expectedLevels(vectorsSchema());
    expect(levels.decode?.status?.level).toBe("full");
    expect(levels.decode?.arguments?.level).toBe("mapping");
    expect(levels.validateHistory?.codes?.level).toBe("full");
    expect(levels.sanitize?.messages?.level).toBe("mapping");
    expect(levels.sanitize?.changes?.level).toBe("full");
    expect(levels.accumulate?.calls).toEqual({
      level: "mapping",
      items: { index: "mapping", id: "mapping", name: "mapping", arguments: "mapping", status: "full" },
    });
  });

  it("of a case follow from the keys it checks", () => {
    expect(caseLevels({ operation: "decode", expected: { status: "empty", arguments: {} } })).toEqual([
      "mapping",
      "full",
    ]);
    expect(caseLevels({ operation: "decode", expected: { status: "empty" } })).toEqual(["full"]);
    expect(caseLevels({ operation: "validate", expected: { codes: [] } })).toEqual(["full"]);
    expect(byId("r1-statuses-null-is-absent").levels).toEqual(["mapping", "full"]);
  });

  it("let a mapping-level decode (the mapping, no status) pass at the mapping level and fail at the full level", async () => {
    const implementation: ConformanceImplementation = { level: "mapping", decode: mappingDecode };
    const testCase = byId("r1-statuses-text-null-is-a-null-literal");
    expect(await runTest(implementation, testCase)).toEqual({ status: "pass", messages: [] });
    const full = await runTest(implementation, testCase, { level: "full" });
    expect(full.status).toBe("fail");
    expect(full.messages[0]).toMatch(/^status: expected "null_literal", got undefined/);
    const r1 = cases.filter((c) => c.rule === "R1" && !c.file.includes("lossless"));
    const summary = await runConformance({ implementation, cases: r1 });
    expect(summary.level).toBe("mapping");
    expect(summary.failures.map((f) => f.id)).toEqual([]);
    expect(summary.notApplicable).toBe(r1.filter((c) => !c.levels.includes("mapping")).length);
  });

  it("still fail a wrong mapping at the mapping level, and never count a status-only case there", async () => {
    const implementation: ConformanceImplementation = {
      level: "mapping",
      // vLLM's bug in the wild: falsy natives become {}.
      decode: (input) => (input === 0 || input === false ? {} : mappingDecode(input)),
    };
    expect((await runTest(implementation, byId("r1-statuses-native-array"))).status).toBe("pass");
    const zero = await runTest(implementation, byId("r1-pinned-cases-native-zero"));
    expect(zero).toEqual({ status: "fail", messages: ['arguments: expected {"_raw_arguments":0}, got {}'] });
    const statusOnly = cases.find((c) => c.operation === "decode" && !c.levels.includes("mapping"));
    expect(statusOnly).toBeDefined();
    expect(await runTest(implementation, statusOnly as ConformanceCase)).toMatchObject({
      status: "skip",
      notApplicable: true,
    });
  });

  it("refuse a declaration with an unknown level or operation, or an operation without its function", () => {
    expect(checkImplementation({ level: "mapping", decode: mappingDecode, operations: ["decode"] })).toEqual(
      [],
    );
    expect(
      checkImplementation({
        level: "strict" as never,
        operations: ["decode", "decodeArgs" as never],
      }),
    ).toEqual([
      'level "strict" is not "mapping" or "full"',
      "operation decode is declared but has no function",
      expect.stringMatching(/^operation "decodeArgs" is not one of decode, encode/),
    ]);
  });

  it("run only the declared operations", async () => {
    const implementation: ConformanceImplementation = {
      operations: ["encode"],
      encode: () => "{}",
      decode: () => ({ arguments: {}, status: "object" }),
    };
    expect(await runTest(implementation, byId("r1-statuses-null-is-absent"))).toEqual({
      status: "skip",
      messages: ["operation decode not declared"],
    });
  });
});
