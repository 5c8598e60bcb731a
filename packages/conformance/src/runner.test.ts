import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkVectors } from "./check-vectors.js";
import type { ConformanceImplementation } from "./implementation.js";
import { type ConformanceCase, loadVectors } from "./load-vectors.js";
import { runConformance, runTest } from "./run-test.js";

const cases = loadVectors();

describe("runTest", () => {
  const decodeCase = cases.find(
    (c) => c.operation === "decode" && c.expected.status === "empty",
  ) as ConformanceCase;

  it("fails a wrong implementation, and one that throws, without throwing itself", async () => {
    const wrong: ConformanceImplementation = {
      decode: () => ({ arguments: {}, status: "object", repairs: [] }),
    };
    expect((await runTest(wrong, decodeCase)).status).toBe("fail");
    const throwing: ConformanceImplementation = {
      decode: () => {
        throw new Error("boom");
      },
    };
    expect(await runTest(throwing, decodeCase)).toEqual({ status: "fail", messages: ["threw: boom"] });
  });

  it("skips, never passes, what an implementation does not provide", async () => {
    const summary = await runConformance({ implementation: {}, cases });
    expect(summary.passed).toBe(0);
    expect(summary.skipped).toBe(cases.length);
    const repairCase = cases.find(
      (c) => Array.isArray(c.options.repairs) && (c.options.repairs as unknown[]).length > 0,
    ) as ConformanceCase;
    expect((await runTest({ decode: () => ({ arguments: {}, status: "object" }) }, repairCase)).status).toBe(
      "skip",
    );
  });

  it("fails an implementation that mutates its input", async () => {
    const sanitizeCase = cases.find((c) => c.operation === "sanitize") as ConformanceCase;
    const mutating: ConformanceImplementation = {
      sanitize: (messages) => {
        (messages as unknown[]).push({ role: "user", content: "x" });
        return { messages, changes: [] };
      },
    };
    expect(
      (await runTest(mutating, { ...sanitizeCase, input: structuredClone(sanitizeCase.input) })).messages,
    ).toContain("input: the input was mutated");
  });
});

describe("the shipped vectors", () => {
  it("pass their own checks", async () => {
    expect(checkVectors()).toEqual([]);
  });

  it("cover every rule the suite owns", async () => {
    const rules = new Set(cases.map((c) => c.rule));
    for (const rule of ["R1", "R2", "R3", "R4", "R5", "R6", "R7", "R9"]) expect(rules).toContain(rule);
  });

  it("cover every decode status and every issue code", async () => {
    const statuses = new Set(cases.filter((c) => c.operation === "decode").map((c) => c.expected.status));
    for (const status of [
      "object",
      "absent",
      "empty",
      "null_literal",
      "double_encoded",
      "non_object",
      "invalid",
      "truncated",
      "native_non_object",
      "repaired",
    ]) {
      expect(statuses, status).toContain(status);
    }
    const codes = new Set(cases.flatMap((c) => (Array.isArray(c.expected.codes) ? c.expected.codes : [])));
    for (const code of [
      "name_missing",
      "name_invalid",
      "arguments_empty",
      "arguments_absent",
      "arguments_invalid_json",
      "arguments_not_object",
      "arguments_truncated",
      "arguments_raw_sentinel",
      "id_missing",
      "id_duplicate",
      "unknown_tool",
      "arguments_schema",
      "tool_result_orphan",
      "tool_result_missing",
    ]) {
      expect(codes, code).toContain(code);
    }
  });

  it("cover every core repair and every sanitize policy", async () => {
    const repairs = new Set(
      cases.flatMap((c) => (Array.isArray(c.expected.repairs) ? c.expected.repairs : [])),
    );
    for (const id of [
      "markdown-fence",
      "template-suffix",
      "trailing-commas",
      "control-characters",
      "repeated-object",
      "python-literal",
      "family-markup",
      "literal-escapes",
      "unquoted-values",
      "stray-text",
    ]) {
      expect(repairs, id).toContain(id);
    }
    const policies = new Set(
      cases.filter((c) => c.operation === "sanitize").map((c) => c.options.policy ?? "preserve"),
    );
    expect([...policies].sort()).toEqual(["drop", "empty", "preserve"]);
  });

  it("hold every payload captured in the wild", async () => {
    const wild = JSON.parse(
      readFileSync(join(import.meta.dirname, "../../../../shared/wild/payloads.json"), "utf8"),
    ) as Array<{ raw: string; source: string }>;
    const inputs = new Set(cases.filter((c) => c.file.startsWith("wild/")).map((c) => c.input));
    for (const payload of wild) expect(inputs, payload.source).toContain(payload.raw);
  });
});
