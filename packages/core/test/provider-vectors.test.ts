import { loadVectors } from "@toolcall/conformance";
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

  it("give every profile a sanitize vector, each in its profile's file (its id says which)", () => {
    for (const profile of listProviderProfiles())
      expect(cases.some((c) => c.operation === "sanitizeProvider" && c.options.provider === profile.id)).toBe(
        true,
      );
    for (const c of cases)
      expect(c.id).toMatch(
        new RegExp(`^profiles-${String(c.options.provider).replace(/[^a-z0-9]+/g, "-")}-`),
      );
  });
});
