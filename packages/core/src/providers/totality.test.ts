import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { build, HOSTILE_MAKERS, hostileHistory } from "../../test/hostile-values.js";
import { fuzzRuns } from "../../test/linear-work.js";
import { isArraySafe } from "../read-history.js";
import { sanitizeHistory } from "../sanitize-history.js";
import { validateHistory } from "../validate-history.js";
import { PROVIDER_IDS } from "./provider-profiles.js";
import { providerVerdict } from "./provider-verdict.js";

// The provider paths meet the totality property of the rest of core: for any value, every profile returns its
// documented result (sanitize: messages and changes; validate: issues; verdict: findings) and never throws.

const RUNS = fuzzRuns(200);

function expectSanitized(result: unknown, history: unknown): void {
  const { messages, changes } = result as { messages: unknown; changes: unknown };
  if (isArraySafe(history)) expect(Array.isArray(messages)).toBe(true);
  expect(Array.isArray(changes)).toBe(true);
}

/** A message whose own reads are fine and whose named part is a hostile value (a getter, a proxy, a huge list). */
function placed(
  where: "message" | "content" | "tool_calls" | "call" | "function" | "arguments",
  hostile: unknown,
) {
  const call = (part: Record<string, unknown>) => ({ id: "c1", type: "function", ...part });
  switch (where) {
    case "message":
      return [{ role: "user", content: "hi" }, hostile];
    case "content":
      return [
        {
          role: "assistant",
          content: hostile,
          tool_calls: [call({ function: { name: "f", arguments: "{}" } })],
        },
      ];
    case "tool_calls":
      return [{ role: "assistant", content: null, tool_calls: hostile }];
    case "call":
      return [
        { role: "assistant", content: null, tool_calls: [hostile] },
        { role: "tool", tool_call_id: "c1", content: "ok" },
      ];
    case "function":
      return [{ role: "assistant", content: null, tool_calls: [call({ function: hostile })] }];
    case "arguments":
      return [
        {
          role: "assistant",
          content: null,
          tool_calls: [call({ function: { name: "f", arguments: hostile } })],
        },
      ];
    default: {
      const never: never = where;
      return never;
    }
  }
}

const PLACES = ["message", "content", "tool_calls", "call", "function", "arguments"] as const;

describe("every provider path is total over hostile values", () => {
  it("each hostile shape in each place of a history, for every provider profile (sanitize, validate, verdict)", () => {
    for (const provider of PROVIDER_IDS)
      for (const [name, make] of Object.entries(HOSTILE_MAKERS))
        for (const where of PLACES) {
          const label = `${provider} × ${name} in ${where}`;
          expect(() => {
            const history = placed(where, make());
            expectSanitized(sanitizeHistory(history, { provider }), history);
          }, label).not.toThrow();
          expect(() => validateHistory(placed(where, make()), { provider }), label).not.toThrow();
          expect(
            () => providerVerdict(placed(where, make()), { providers: [provider] }),
            label,
          ).not.toThrow();
        }
  });

  it("hostile histories drawn at random, for every provider profile", () => {
    fc.assert(
      fc.property(hostileHistory, fc.constantFrom(...PROVIDER_IDS), (recipe, provider) => {
        const history = build(recipe);
        expectSanitized(sanitizeHistory(history as never, { provider }), history);
        const issues = validateHistory(build(recipe) as never, { provider });
        expect(Array.isArray(issues)).toBe(true);
      }),
      RUNS,
    );
  });
});
