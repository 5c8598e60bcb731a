import { describe, expect, it } from "vitest";
import { minimaxM2 } from "../src/index.js";
import { MINIMAX_LOOK_ALIKE } from "./look-alike-templates.js";
import { expectReferenceRoundTrip } from "./reference-round-trip.js";
import { VARIANTS, type Variant } from "./round-trip-families-cases.js";
import type { Case } from "./round-trip-property.js";

// The reference renderer (Python + Jinja2, as transformers renders: ../shared/parity/hf_render.py) against
// @toolcall/jinja on the families' templates: each look-alike everywhere, each real template where it is at hand;
// MiniMax-M2's look-alike too. Granite 3.3 renders no calls: its prompts are compared, there is no turn to round-trip.

const MINIMAX: Variant = {
  label: "look-alike of MiniMax-M2",
  source: () => MINIMAX_LOOK_ALIKE,
  family: {
    template: "MiniMax-M2",
    published: "MiniMaxAI/MiniMax-M2 (not redistributable)",
    lookAlike: MINIMAX_LOOK_ALIKE,
    case: { syntax: minimaxM2, content: true, reasoning: "non-empty", calls: 3 },
    roundTrips: true,
    detected: { id: minimaxM2.id, method: "render" },
  },
};

describe("the reference renderer (transformers' Jinja2) writes the same prompts and turns, which round-trip", () => {
  for (const { family, label, source } of [...VARIANTS, MINIMAX]) {
    const what = family.roundTrips
      ? "same prompts and turns as @toolcall/jinja, and each turn parses and renders back"
      : "same prompts as @toolcall/jinja";
    it(`${label}: ${what}`, (context) => {
      const testCase: Case = { template: label, ...family.case };
      const compared = expectReferenceRoundTrip(testCase, source(context), {
        promptsOnly: !family.roundTrips,
      });
      if (family.roundTrips) expect(compared, "most samples render").toBeGreaterThanOrEqual(6);
    });
  }
});
