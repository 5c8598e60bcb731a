import { probeChatTemplate, safeRenderChatTemplate } from "@toolcall/jinja";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectToolCallSyntax } from "../src/index.js";
import { FAMILIES, LIST_FILES_TURN, realTemplate, referenceSamples } from "./round-trip-families-cases.js";
import {
  assistantMessage,
  type Case,
  RENDER_NOW,
  type RenderRequest,
  renderRequests,
} from "./round-trip-property.js";

// Each look-alike stands in for a real template in CI: where the real one is at hand, both must write the same bytes
// for every conversation the tests render (the prompt with the tools, the generation prompt, the assistant's turn
// with calls, with content null and "", a turn of text), over the round trip's own generator, so a look-alike that
// drifts from the real template fails here. Both are also detected alike (the same syntax, call text, parallel calls)
// and probed alike (what @toolcall/jinja learns of a template: the arguments' form, content null, tool results, …).

const render = (request: RenderRequest) => safeRenderChatTemplate({ ...request, now: RENDER_NOW });

describe("each look-alike renders what the real template renders, byte for byte", () => {
  for (const family of FAMILIES) {
    it(`look-alike of ${family.template}`, (context) => {
      const real = realTemplate(family, context);
      expect(detectToolCallSyntax(family.lookAlike)).toEqual(detectToolCallSyntax(real));
      expect(probeChatTemplate(family.lookAlike)).toEqual(probeChatTemplate(real));
      const testCase: Case = { template: family.template, ...family.case };
      const messages = [
        LIST_FILES_TURN,
        ...referenceSamples(testCase),
        ...fc.sample(assistantMessage(testCase), { numRuns: 40, seed: 7 }).map(({ message }) => message),
        // With content and reasoning whether or not the template keeps them: the look-alike drops what the real one does.
        ...fc
          .sample(assistantMessage({ ...testCase, content: true, reasoning: "any" }), {
            numRuns: 20,
            seed: 8,
          })
          .map(({ message }) => message),
      ];
      let rendered = 0;
      for (const message of messages) {
        const fromReal = renderRequests(testCase, message, real);
        const fromLookAlike = renderRequests(testCase, message, family.lookAlike);
        expect(fromLookAlike.length).toBe(fromReal.length);
        fromReal.forEach((request, i) => {
          const expected = render(request);
          const actual = render(fromLookAlike[i] as RenderRequest);
          const at = JSON.stringify(request.messages.at(-1));
          expect(actual.ok, at).toBe(expected.ok);
          if (actual.ok && expected.ok) {
            expect(actual.text, at).toBe(expected.text);
            rendered++;
          }
        });
      }
      expect(rendered, "most conversations render").toBeGreaterThan(messages.length * 3);
    });
  }
});
