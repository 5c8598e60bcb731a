import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

interface AssertionResult {
  fullName: string;
  title: string;
  status: string;
  failureMessages: string[];
}

// A vitest of its own runs the binding against a decode with one bug, as a downstream project would.
function runBrokenSuite(): AssertionResult[] {
  const out = join(mkdtempSync(join(tmpdir(), "conformance-binding-")), "report.json");
  const config = join(import.meta.dirname, "../test/fixtures/vitest-binding/vitest.config.ts");
  try {
    execFileSync(
      process.execPath,
      [
        join(import.meta.dirname, "../node_modules/vitest/vitest.mjs"),
        "run",
        "--config",
        config,
        "--reporter=json",
        `--outputFile=${out}`,
      ],
      { stdio: "pipe", cwd: join(import.meta.dirname, "..") },
    );
  } catch {
    // It fails: that is the point. The report says how.
  }
  const report = JSON.parse(readFileSync(out, "utf8")) as {
    testResults: Array<{ assertionResults: AssertionResult[] }>;
  };
  return report.testResults.flatMap((file) => file.assertionResults);
}

describe("the vitest binding", () => {
  const results = runBrokenSuite();
  const byId = (id: string) => results.find((r) => r.title.endsWith(`(${id})`));

  it("names each test by its description and vector id", () => {
    expect(byId("r1-statuses-null-is-absent")?.title).toBe("null is absent (r1-statuses-null-is-absent)");
    expect(byId("r1-statuses-null-is-absent")?.status).toBe("passed");
  });

  it("fails with the vector id and the field that differs, not a list diff", () => {
    const failed = byId("r1-statuses-text-null-is-a-null-literal");
    expect(failed?.status).toBe("failed");
    const first = failed?.failureMessages[0]?.split("\n")[0];
    expect(first).toBe(
      'AssertionError: r1-statuses-text-null-is-a-null-literal: status: expected "null_literal", got "absent"',
    );
  });

  it("skips by id prefix and fails on a skip entry that names no vector", () => {
    const lossless = results.filter((r) => r.title.includes("(r1-lossless-"));
    expect(lossless.length).toBeGreaterThan(0);
    expect(lossless.every((r) => r.status === "skipped")).toBe(true);
    const entries = results.find((r) => r.title === "skips only vectors that exist");
    expect(entries?.status).toBe("failed");
    expect(entries?.failureMessages[0]).toContain("r9-no-such-vector");
  });
});
