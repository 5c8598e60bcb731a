import { describe, expect, it } from "vitest";
import { checkResult } from "./check-result.js";
import type { ConformanceImplementation } from "./implementation.js";
import { type ConformanceCase, loadVectors } from "./load-vectors.js";
import { runTest } from "./run-test.js";

const cases = loadVectors();

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
