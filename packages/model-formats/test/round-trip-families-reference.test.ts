import { probeChatTemplate, safeRenderChatTemplate } from "@toolcall/jinja";
import { describe, expect, it } from "vitest";
import { minimaxM2, roundTrip } from "../src/index.js";
import { MINIMAX_LOOK_ALIKE } from "./look-alike-templates.js";
import { referenceRenders, referenceSamples, VARIANTS, type Variant } from "./round-trip-families-cases.js";
import {
  type Case,
  messagesFor,
  modelOutput,
  RENDER_NOW,
  renderRequests,
  TOOLS,
} from "./round-trip-property.js";

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
      const template = source(context);
      const testCase: Case = { template: label, ...family.case };
      const mapping = probeChatTemplate(template).argumentsForm === "mapping";
      const samples = referenceSamples(testCase);
      // What transformers would be handed: arguments in the form the template reads (the probe's choice).
      const handed = (message: Record<string, unknown>) => ({
        ...message,
        tool_calls: (message.tool_calls as { function: { name: string; arguments: string } }[]).map(
          (call) => ({
            ...call,
            function: {
              ...call.function,
              arguments: mapping ? JSON.parse(call.function.arguments) : call.function.arguments,
            },
          }),
        ),
      });
      const requests = samples.flatMap((message) => renderRequests(testCase, handed(message), template));
      const reference = referenceRenders(requests);
      // Whole prompts first (system prompt with the tools, the conversation, the turn): byte for byte.
      let prompts = 0;
      for (const request of requests) {
        const expected = reference(request);
        const actual = safeRenderChatTemplate({ ...request, now: RENDER_NOW });
        expect(actual.ok, JSON.stringify(request.messages.at(-1))).toBe(expected.ok);
        if (actual.ok && expected.ok) {
          expect(actual.text).toBe(expected.text);
          prompts++;
        }
      }
      expect(prompts, "most prompts render").toBeGreaterThan(requests.length / 2);
      if (!family.roundTrips) return;
      let compared = 0;
      for (const message of samples) {
        const expected = modelOutput(testCase, handed(message), template, reference);
        if (expected === undefined) continue;
        compared++;
        // @toolcall/jinja at the same clock (the default renderer of `modelOutput`).
        expect(modelOutput(testCase, message, template), expected).toBe(expected);
        const result = roundTrip({
          template,
          output: expected,
          messages: messagesFor(testCase),
          tools: testCase.tools ?? TOOLS,
          syntax: testCase.syntax,
          variables: testCase.variables,
          now: RENDER_NOW,
        });
        expect({ ok: result.ok, at: result.firstDifference, error: result.error }, expected).toMatchObject({
          ok: true,
        });
      }
      expect(compared, "most samples render").toBeGreaterThanOrEqual(6);
    });
  }
});
