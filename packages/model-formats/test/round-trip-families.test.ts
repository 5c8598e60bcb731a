import { safeRenderChatTemplate } from "@toolcall/jinja";
import { describe, expect, it } from "vitest";
import { detectToolCallSyntax, minimaxM2 } from "../src/index.js";
import { MINIMAX_LOOK_ALIKE } from "./look-alike-templates.js";
import { LIST_FILES_TURN, VARIANTS } from "./round-trip-families-cases.js";
import { type Case, expectRoundTrips, MESSAGES, TOOLS } from "./round-trip-property.js";

// The families of the corpus's second batch: every test runs on the family's look-alike (everywhere, CI among them)
// and on the real template where it is at hand (../shared/templates/families or $TOOLCALL_TEMPLATES; skipped, saying
// where it is published, otherwise). round-trip-families-guard.test.ts holds the two to the same bytes.

const MINIMAX: Case = {
  template: "look-alike of MiniMax-M2",
  syntax: minimaxM2,
  content: true,
  reasoning: "non-empty",
  calls: 3,
};

describe("round trip over templates of more families: parse the model's output, render it back, byte for byte", () => {
  for (const { family, label, source } of VARIANTS.filter((v) => v.family.roundTrips)) {
    const { syntax, exceptions } = family.case;
    it(`${label} (${syntax.id})${exceptions ? `: ${exceptions}` : ""}`, (context) => {
      expectRoundTrips({ template: label, ...family.case }, source(context));
    });
  }
  it(`${MINIMAX.template} (${minimaxM2.id})`, () => {
    expectRoundTrips(MINIMAX, MINIMAX_LOOK_ALIKE);
  });
});

describe("those templates are detected by their rendering (or signature)", () => {
  for (const { family, label, source } of VARIANTS) {
    const { id, method } = family.detected;
    it(`${label} → ${id} (${method})`, (context) => {
      expect(detectToolCallSyntax(source(context))).toMatchObject({ id, method });
    });
  }
});

describe("Granite 3.3's template drops an assistant message's calls: no round trip is possible (its exception)", () => {
  for (const { family, label, source } of VARIANTS.filter((v) => !v.family.roundTrips)) {
    it(label, (context) => {
      const template = source(context);
      const rendered = safeRenderChatTemplate({
        template,
        messages: [...MESSAGES, LIST_FILES_TURN],
        tools: TOOLS,
      });
      // The turn renders empty: `<|start_of_role|>assistant<|end_of_role|><|end_of_text|>` (the call is gone).
      expect(rendered.ok && rendered.text.endsWith("assistant<|end_of_role|><|end_of_text|>\n")).toBe(true);
      expect(detectToolCallSyntax(template)).toMatchObject({ id: family.detected.id, parallelCalls: false });
    });
  }
});
