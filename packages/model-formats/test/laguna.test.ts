import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { detectToolCallSyntax, glm45 } from "../src/index.js";
import { expectReferenceRoundTrip } from "./reference-round-trip.js";
import { type Case, expectRoundTrips } from "./round-trip-property.js";

/*
 * Poolside Laguna XS.2: its real template is read where it is (../shared/templates/families, not copied into the
 * repository). It writes GLM-4.5's call, which `glm45` reads: no family of its own.
 */
const template = readFileSync(
  join(resolve(import.meta.dirname, "../../../../shared/templates/families"), "poolside-Laguna-XS.2.jinja"),
  "utf8",
);
const CASE: Case = {
  template: "poolside-Laguna-XS.2",
  syntax: glm45,
  content: true,
  reasoning: "none",
  calls: 3,
};

describe("Poolside Laguna XS.2 on its real template: GLM-4.5's writing", () => {
  it("is detected as glm45 by rendering", () => {
    expect(detectToolCallSyntax(template)).toMatchObject({
      id: "glm45",
      method: "render",
      candidates: ["glm45"],
    });
  });

  it("round-trips what @toolcall/jinja renders", () => {
    expectRoundTrips(CASE, template);
  });

  it("round-trips what the reference renderer (transformers' Jinja2) renders, byte for byte", () => {
    expect(expectReferenceRoundTrip(CASE, template)).toBeGreaterThanOrEqual(6);
  });
});
