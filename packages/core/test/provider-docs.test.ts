import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain JavaScript module (run with node after the build)
import { DOCS_PATH, JSON_PATH, renderProfilesJson, renderProviderTable } from "../scripts/provider-docs.mjs";
import { listProviderProfiles } from "../src/index.js";

describe("generated provider documents", () => {
  it("docs/providers.md is what the profiles give (run packages/core/scripts/provider-docs.mjs)", () => {
    expect(readFileSync(DOCS_PATH, "utf8")).toBe(renderProviderTable(listProviderProfiles()));
  });

  it("@toolcall/conformance's provider-profiles.json is what the profiles give", () => {
    expect(readFileSync(JSON_PATH, "utf8")).toBe(renderProfilesJson(listProviderProfiles()));
  });

  it("the table names every profile and every constraint with its literal text", () => {
    const table = renderProviderTable(listProviderProfiles());
    for (const profile of listProviderProfiles()) {
      expect(table).toContain(`## ${profile.id}`);
      for (const constraint of profile.constraints)
        expect(table).toContain(constraint.summary.replace(/\|/g, "\\|"));
    }
    expect(table).toContain("Tool call id was {id} but must be a-z, A-Z, 0-9, with a length of 9.");
  });
});
