import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { streamSplits } from "./check-parse.js";
import { checkResult } from "./check-result.js";
import { checkVectors } from "./check-vectors.js";
import type { ConformanceImplementation } from "./implementation.js";
import { jsonEqual } from "./json-equal.js";
import { type ConformanceCase, loadVectors } from "./load-vectors.js";
import { runConformance, runTest } from "./run-test.js";
import { decodeTags } from "./tags.js";

const cases = loadVectors();

describe("decodeTags", () => {
  it("decodes each tag and leaves plain values alone", async () => {
    expect(decodeTags({ $undefined: true })).toBeUndefined();
    expect(decodeTags({ $bigint: "123456789012345678901" })).toBe(123456789012345678901n);
    expect(Number.isNaN(decodeTags({ $number: "NaN" }))).toBe(true);
    expect(Object.is(decodeTags({ $number: "-0" }), -0)).toBe(true);
    expect(decodeTags({ $literal: { $undefined: true } })).toEqual({ $undefined: true });
    expect(decodeTags([{ a: { $number: "Infinity" } }])).toEqual([{ a: Number.POSITIVE_INFINITY }]);
    expect(decodeTags({ a: 1, $b: 2 })).toEqual({ a: 1, $b: 2 });
    expect(decodeTags({ $repeat: { text: "ab", times: 3 } })).toBe("ababab");
    expect(decodeTags({ $concat: ["{", { $repeat: { text: "[", times: 2 } }, "x"] })).toBe("{[[x");
    expect(() => decodeTags({ $repeat: { text: "x", times: 17 * 1024 * 1024 } })).toThrow(/16 MiB/);
    expect(() => decodeTags({ $concat: ["a", 1] })).toThrow(/list of texts/);
  });

  it("keeps __proto__ keys as data", async () => {
    const decoded = decodeTags(JSON.parse('{"__proto__": {"x": 1}}')) as Record<string, unknown>;
    expect(Object.hasOwn(decoded, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
  });

  it("rejects an unknown tag", async () => {
    expect(() => decodeTags({ $oops: 1 })).toThrow(/unknown tag/);
  });
});

describe("jsonEqual", () => {
  it("compares as JSON does", async () => {
    expect(jsonEqual({ a: 1, b: [1, 2] }, { b: [1, 2], a: 1 })).toBe(true);
    expect(jsonEqual(true, 1)).toBe(false);
    expect(jsonEqual(0, -0)).toBe(true);
    expect(jsonEqual(1n, 1)).toBe(true);
    expect(jsonEqual([1, 2], { 0: 1, 1: 2 })).toBe(false);
    expect(jsonEqual({ a: undefined }, {})).toBe(false);
    expect(jsonEqual({ toJSON: () => 5 }, 5)).toBe(true);
  });
});

describe("checkResult catches every kind of mismatch", () => {
  it("decode", async () => {
    const expected = { status: "object", arguments: { a: 1 }, repairs: [], identity: true };
    const input = { a: 1 };
    expect(
      checkResult({
        operation: "decode",
        expected,
        actual: { status: "object", arguments: input, repairs: [] },
        input,
      }),
    ).toEqual([]);
    expect(
      checkResult({
        operation: "decode",
        expected,
        actual: { status: "object", arguments: { a: 1 }, repairs: [] },
        input,
      }),
    ).toHaveLength(1);
    expect(
      checkResult({ operation: "decode", expected, actual: { status: "empty", arguments: input }, input }),
    ).toHaveLength(1);
    expect(
      checkResult({
        operation: "decode",
        expected,
        actual: { status: "object", arguments: input, repairs: ["x"] },
        input,
      }),
    ).toHaveLength(1);
    expect(
      checkResult({ operation: "decode", expected: { rawAbsent: true }, actual: { raw: "x" } }),
    ).toHaveLength(1);
  });

  it("validate and sanitize", async () => {
    const issues = [{ code: "arguments_empty", severity: "error", path: ["function", "arguments"] }];
    expect(
      checkResult({ operation: "validate", expected: { codes: ["arguments_empty"] }, actual: issues }),
    ).toEqual([]);
    expect(checkResult({ operation: "validate", expected: { codes: [] }, actual: issues })).toHaveLength(1);
    expect(
      checkResult({
        operation: "validate",
        expected: { issues: [{ code: "arguments_empty", severity: "warning" }] },
        actual: issues,
      }),
    ).toHaveLength(1);
    const input: unknown[] = [];
    expect(
      checkResult({
        operation: "sanitize",
        expected: { unchanged: true, changes: [] },
        actual: { messages: input, changes: [] },
        input,
      }),
    ).toEqual([]);
    expect(
      checkResult({
        operation: "sanitize",
        expected: { unchanged: true },
        actual: { messages: [], changes: [] },
        input,
      }),
    ).toHaveLength(1);
    expect(
      checkResult({
        operation: "sanitize",
        expected: { changes: ["result_synthesized"] },
        actual: { messages: [], changes: [] },
        input,
      }),
    ).toHaveLength(1);
  });
});

describe("checkResult for provider profiles", () => {
  const issue = {
    code: "tool_call_id_invalid",
    severity: "error",
    path: [1, "tool_calls", 0, "id"],
    message: "Tool call id was c1 but must be a-z, A-Z, 0-9, with a length of 9.",
    status: 400,
  };
  it("validateProvider compares the literal text, its prefix and the status", async () => {
    const check = (wanted: Record<string, unknown>) =>
      checkResult({ operation: "validateProvider", expected: { issues: [wanted] }, actual: [issue] });
    expect(check(issue)).toEqual([]);
    expect(check({ ...issue, message: "Tool call id was c1." })).toHaveLength(1);
    expect(check({ ...issue, status: 500 })).toHaveLength(1);
    const { message: _, ...withoutMessage } = issue;
    expect(check({ ...withoutMessage, messagePrefix: "Tool call id was " })).toEqual([]);
    expect(check({ ...withoutMessage, messagePrefix: "Tool id" })).toHaveLength(1);
  });

  it("providerVerdict compares who rejects, in order, and each finding", async () => {
    const actual = {
      rejectedBy: ["anthropic", "mistral"],
      acceptedBy: ["openai-chat"],
      findings: [
        {
          code: "tool_call_id_invalid",
          path: [1, "tool_calls", 0, "id"],
          rejectedBy: ["anthropic", "mistral"],
        },
      ],
    };
    const check = (expected: Record<string, unknown>) =>
      checkResult({ operation: "providerVerdict", expected, actual });
    expect(check(actual)).toEqual([]);
    expect(check({ rejectedBy: ["mistral", "anthropic"] })).toHaveLength(1);
    expect(check({ findings: [] })).toHaveLength(1);
    expect(check({ findings: [{ ...actual.findings[0], rejectedBy: ["anthropic"] }] })).toHaveLength(1);
  });

  it("at the mapping level: whether the provider accepts, and who rejects as a set; never the words", async () => {
    const accepted = (expected: boolean, actual: unknown[]) =>
      checkResult({
        operation: "validateProvider",
        expected: { accepted: expected, codes: ["tool_call_id_invalid"], issues: [issue] },
        actual,
        level: "mapping",
      });
    expect(accepted(false, ["rejected: the id"])).toEqual([]);
    expect(accepted(false, [])).toEqual(["accepted: expected false, got true: []"]);
    expect(accepted(true, [issue])).toHaveLength(1);
    const verdict = (level: "mapping" | "full") =>
      checkResult({
        operation: "providerVerdict",
        expected: { rejectedBy: ["anthropic", "mistral"], acceptedBy: [], findings: [] },
        actual: { rejectedBy: ["mistral", "anthropic"], acceptedBy: [] },
        level,
      });
    expect(verdict("mapping")).toEqual([]);
    expect(verdict("full").map((m) => m.split(":")[0])).toEqual(["rejectedBy"]);
  });

  it("a mapping-level sanitizeProvider returns the list; the reference's own ids and wording are not compared", async () => {
    for (const id of [
      "profiles-mistral-sanitize-colliding-ids",
      "profiles-mistral-sanitize-user-after-tool",
    ]) {
      const testCase = cases.find((c) => c.id === id) as ConformanceCase;
      const input = testCase.input as Array<Record<string, unknown>>;
      const inputTexts = new Set(input.map((m) => m.content));
      const inputIds = new Set(
        input.flatMap((m) => (Array.isArray(m.tool_calls) ? m.tool_calls : [])).map((c) => c.id),
      );
      const ids = new Map<unknown, unknown>();
      // Other ids of the provider's form (nine letters and digits) where the reference made one up, other words in a
      // message it wrote; ids from the input are kept.
      const own = (callId: unknown) => {
        if (!ids.has(callId))
          ids.set(callId, inputIds.has(callId) ? callId : `x${String(ids.size + 1).padStart(8, "0")}`);
        return ids.get(callId);
      };
      const theirs = (testCase.expected.messages as Array<Record<string, unknown>>).map((m) => ({
        ...m,
        ...(typeof m.content === "string" && !inputTexts.has(m.content) ? { content: "(no reply)" } : {}),
        ...(Array.isArray(m.tool_calls)
          ? { tool_calls: m.tool_calls.map((c: Record<string, unknown>) => ({ ...c, id: own(c.id) })) }
          : {}),
        ...(m.tool_call_id === undefined ? {} : { tool_call_id: own(m.tool_call_id) }),
      }));
      expect(JSON.stringify(theirs), id).not.toBe(JSON.stringify(testCase.expected.messages));
      const mapping: ConformanceImplementation = { level: "mapping", sanitizeProvider: () => theirs };
      expect(await runTest(mapping, testCase), id).toEqual({ status: "pass", messages: [] });
      expect((await runTest(mapping, testCase, { level: "full" })).status, id).toBe("fail");
      const lost: ConformanceImplementation = { level: "mapping", sanitizeProvider: () => theirs.slice(1) };
      expect((await runTest(lost, testCase)).messages[0], id).toMatch(/^messages: expected/);
    }
  });

  it("sanitizeProvider must leave nothing its provider rejects, and be idempotent", async () => {
    const sanitizeCase = cases.find((c) => c.operation === "sanitizeProvider") as ConformanceCase;
    const stubborn: ConformanceImplementation = {
      sanitizeProvider: () => ({ messages: sanitizeCase.expected.messages, changes: [] }),
      validateProvider: () => [issue],
    };
    const outcome = await runTest(stubborn, {
      ...sanitizeCase,
      expected: { messages: sanitizeCase.expected.messages },
    });
    expect(outcome.messages.join("\n")).toMatch(/still raises/);
  });
});

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

describe("checkVectors", () => {
  it("reports what the schema and the suite's own rules forbid", async () => {
    const root = mkdtempSync(join(tmpdir(), "vectors-"));
    mkdirSync(join(root, "r1"));
    let n = 0;
    const group = (description: string, rule: string, testDescription: string) => ({
      description,
      rule,
      operation: "decode",
      tests: [
        {
          id: `r1-${description.split(" ")[0]}-${++n}`,
          description: testDescription,
          input: "",
          expected: { status: "empty" },
        },
        {
          id: `r1-${description.split(" ")[0]}-${++n}`,
          description: testDescription,
          input: "",
          expected: { status: "empty" },
        },
      ],
    });
    writeFileSync(join(root, "r1", "should.json"), JSON.stringify([group("it should decode", "R1", "once")]));
    writeFileSync(join(root, "r1", "misplaced.json"), JSON.stringify([group("empty text", "R2", "twice")]));
    writeFileSync(join(root, "r1", "broken.json"), "[{");
    const problems = checkVectors(root);
    const about = (file: string) => problems.filter((p) => p.file === join("r1", file)).map((p) => p.message);
    expect(about("should.json")).toEqual([expect.stringMatching(/description must match pattern/)]);
    expect(about("misplaced.json")).toEqual([
      expect.stringMatching(/is R2 in directory r1/),
      expect.stringMatching(/id r1-empty-3 does not start with r1-misplaced-/),
      expect.stringMatching(/test description repeated .*: twice/),
      expect.stringMatching(/id r1-empty-4 does not start with r1-misplaced-/),
    ]);
    expect(about("broken.json")).toEqual([expect.stringMatching(/not JSON/)]);
  });
});

describe("R10 stream splits", () => {
  const texts = ["", "a", "ab😀c", '<tool_call>\n{"name": "f"}\n</tool_call>', "é中😀".repeat(40)];

  it("keep every character, in order", () => {
    for (const text of texts) for (const split of streamSplits(text)) expect(split.join("")).toBe(text);
  });

  it("are the Python runner's, cut for cut", () => {
    const python = execFileSync(
      "python3",
      [
        "-c",
        "import json, sys; sys.path.insert(0, 'python/src'); import toolcall_conformance as r; print(json.dumps([r.stream_splits(t) for t in json.loads(sys.stdin.read())]))",
      ],
      { input: JSON.stringify(texts), cwd: join(import.meta.dirname, ".."), encoding: "utf8" },
    );
    expect(JSON.parse(python)).toEqual(texts.map((text) => streamSplits(text)));
  });

  it("a stream that loses text fails the case", async () => {
    const testCase = cases.find((c) => c.operation === "parseToolCalls" && c.expected.content !== null);
    expect(testCase).toBeDefined();
    const implementation: ConformanceImplementation = {
      parseToolCalls: () => ({
        toolCalls: [],
        content: testCase?.expected.content as string,
        reasoning: null,
        issues: [],
      }),
      streamToolCalls: (chunks) => ({
        toolCalls: [],
        content: chunks.slice(1).join(""),
        reasoning: null,
        issues: [],
      }),
    };
    const outcome = await runTest(implementation, testCase as ConformanceCase);
    expect(outcome.status).toBe("fail");
    expect(outcome.messages.some((m) => m.startsWith("streamed in"))).toBe(true);
  });
});

describe("R10 levels", () => {
  it("arguments compare by JSON value at the mapping level and byte for byte at the full level", async () => {
    const testCase = cases.find(
      (c) => c.operation === "parseToolCalls" && ((c.expected.toolCalls as unknown[]) ?? []).length > 0,
    ) as ConformanceCase;
    const respaced: ConformanceImplementation = {
      parseToolCalls: () => ({
        toolCalls: (
          testCase.expected.toolCalls as Array<{ name: string; arguments: string; id?: string }>
        ).map((c) => ({
          id: c.id,
          function: { name: c.name, arguments: JSON.stringify(JSON.parse(c.arguments)) },
        })),
        content: testCase.expected.content as string | null,
        reasoning: (testCase.expected.reasoning ?? null) as string | null,
        issues: [],
      }),
    };
    const compactDiffers = (testCase.expected.toolCalls as Array<{ arguments: string }>).some(
      (c) => c.arguments !== JSON.stringify(JSON.parse(c.arguments)),
    );
    expect(compactDiffers).toBe(true);
    expect((await runTest(respaced, testCase, { level: "mapping" })).status).toBe("pass");
    const full = await runTest(respaced, testCase, { level: "full" });
    expect(full.status).toBe("fail");
    expect(full.messages.some((m) => m.startsWith("toolCalls:"))).toBe(true);
  });
});
