import { readFileSync } from "node:fs";
import { join } from "node:path";
import { defaultVectorsRoot, listVectorFiles, loadVectors } from "@toolcall/conformance";
import { describe, expect, it } from "vitest";
import { listProviderProfiles } from "../src/index.js";

const cases = loadVectors({ operations: ["validateProvider", "sanitizeProvider"] });

describe("provider profile vectors", () => {
  it("cover every constraint of every profile with a history that raises it", () => {
    for (const profile of listProviderProfiles()) {
      const raised = new Set(
        cases
          .filter((c) => c.operation === "validateProvider" && c.options.provider === profile.id)
          .flatMap((c) => (c.expected.codes as string[] | undefined) ?? []),
      );
      for (const constraint of profile.constraints)
        expect(raised.has(constraint.code), `${profile.id}: ${constraint.code}`).toBe(true);
    }
  });

  it("give every profile a sanitize vector, and every vector an id", () => {
    for (const profile of listProviderProfiles())
      expect(cases.some((c) => c.operation === "sanitizeProvider" && c.options.provider === profile.id)).toBe(
        true,
      );
    const root = defaultVectorsRoot();
    for (const file of listVectorFiles(root).filter((f) => f.startsWith("profiles"))) {
      const topic = file
        .replace(/^profiles[\\/]/, "")
        .replace(/\.json$/, "")
        .replace(/\./g, "");
      const groups = JSON.parse(readFileSync(join(root, file), "utf8")) as Array<{
        tests: Array<{ id?: string }>;
      }>;
      for (const test of groups.flatMap((g) => g.tests))
        expect(test.id).toMatch(new RegExp(`^profiles-${topic}-`));
    }
  });
});
