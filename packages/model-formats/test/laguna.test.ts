import { describe, expect, it } from "vitest";
import { detectToolCallSyntax, glm45 } from "../src/index.js";
import { familyTemplate, itRoundTripsOnTemplate } from "./reference-round-trip.js";
import type { Case } from "./round-trip-property.js";

/*
 * Poolside Laguna XS.2: its real template is read where it is (../shared/templates/families, not copied into the
 * repository). It writes GLM-4.5's call, which `glm45` reads: no family of its own.
 */
const template = familyTemplate("poolside-Laguna-XS.2");
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

  itRoundTripsOnTemplate(CASE);
});
