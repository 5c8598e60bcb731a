import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadVectors } from "./load-vectors.js";

// docs/report-card.json is written from runs of the field's real code (kept outside this repository); these checks
// keep it honest against the suite it claims to score.
const card = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../../docs/report-card.json"), "utf8"),
) as {
  implementations: Array<{
    name: string;
    project: string;
    commit: string;
    scores: Record<"mapping" | "full", { passed: number; failed: number; failures: string[] }>;
  }>;
};

describe("the report card", () => {
  const ids = new Set(loadVectors().map((c) => c.id));

  it("scores at least six of the field's implementations at both levels, each at a commit", () => {
    const peers = card.implementations.filter((i) => !i.project.startsWith("toolcall"));
    expect(new Set(peers.map((p) => p.project.split(" ")[0])).size).toBeGreaterThanOrEqual(6);
    for (const implementation of card.implementations) {
      expect(implementation.commit, implementation.name).toMatch(/^[0-9a-f]{7,40}$/);
      for (const level of ["mapping", "full"] as const) {
        const scores = implementation.scores[level];
        expect(scores.failures.length, `${implementation.name} ${level}`).toBe(scores.failed);
      }
    }
  });

  it("names only vectors that exist, and ours fail none", () => {
    for (const implementation of card.implementations)
      for (const level of ["mapping", "full"] as const)
        for (const id of implementation.scores[level].failures)
          expect(ids, implementation.name).toContain(id);
    for (const ours of card.implementations.filter((i) => i.project.startsWith("toolcall")))
      expect(ours.scores.full.failed + ours.scores.mapping.failed, ours.name).toBe(0);
  });
});
