import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sanitizeHistory } from "../sanitize-history.js";
import { validateHistory } from "../validate-history.js";
import { listProviderProfiles, PROVIDER_IDS } from "./provider-profiles.js";
import { providerVerdict } from "./provider-verdict.js";

function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (typeof value === "object" && value !== null && !seen.has(value)) {
    seen.add(value);
    for (const key of Reflect.ownKeys(value))
      deepFreeze((value as Record<string | symbol, unknown>)[key], seen);
    Object.freeze(value);
  }
  return value;
}

/** Ids as stacks mint them: OpenAI's, Anthropic's, Kimi's, Mistral's, too long, empty, shared between calls. */
const idArbitrary = fc.oneof(
  fc.constantFrom(
    "call_PTLP8xhu3uwZk4l3nlnrrJha",
    "toolu_01AAAAAAAAAAAAAAAAAAAAAA",
    "functions.Bash:0",
    "functions.read_file:1",
    "Ab3dE9xYz",
    "tc_1787000540141_3",
    "a".repeat(64),
    "id/with@chars",
    "",
    "c1",
    "c1",
  ),
  fc.string({ maxLength: 70 }),
  fc.constant(undefined),
);

const argumentsArbitrary = fc.oneof(
  fc.json(),
  fc.string(),
  fc.constantFrom("", " ", "null", "{}", "[]", "42", "{not json}", '{"a": ', "{'a': True}"),
  fc.jsonValue(),
  fc.constant(undefined),
);

const extraArbitrary = fc.oneof(
  fc.constant(undefined),
  fc.record({ google: fc.record({ thought_signature: fc.constantFrom("sig==", "") }) }),
  fc.record({ openai: fc.record({ item_id: fc.constantFrom("fc_07b2", "") }) }),
);

const callArbitrary = fc.record(
  {
    id: idArbitrary,
    type: fc.constantFrom("function", "function", undefined),
    function: fc.record({
      name: fc.constantFrom("get_weather", "web.search", "Bash", "", "a".repeat(70)),
      arguments: argumentsArbitrary,
    }),
    extra_content: extraArbitrary,
  },
  { requiredKeys: ["id", "type", "function"] },
);

const textArbitrary = fc.oneof(fc.string(), fc.constantFrom("", " ", "\n\n", "hello"));
const contentArbitrary = fc.oneof(
  textArbitrary,
  fc.constant(null),
  fc.array(fc.record({ type: fc.constant("text"), text: textArbitrary }), { maxLength: 3 }),
);

const reasoningDetails = fc.constantFrom(undefined, [
  { type: "reasoning.encrypted", id: "rs_07b2", data: "enc", format: "openai-responses-v1" },
]);

const messageArbitrary = fc.oneof(
  fc.record({ role: fc.constantFrom("system", "developer"), content: fc.string() }),
  fc.record({ role: fc.constant("user"), content: contentArbitrary }),
  fc.record(
    {
      role: fc.constant("assistant"),
      content: contentArbitrary,
      tool_calls: fc.array(callArbitrary, { maxLength: 3 }),
      reasoning_content: fc.oneof(fc.constant(undefined), fc.constant(null), textArbitrary),
      reasoning: fc.oneof(fc.constant(undefined), fc.string()),
      reasoning_details: reasoningDetails,
    },
    { requiredKeys: ["role", "content", "tool_calls"] },
  ),
  fc.record(
    {
      role: fc.constant("assistant"),
      content: contentArbitrary,
      reasoning_content: fc.oneof(fc.constant(undefined), textArbitrary),
      reasoning_details: reasoningDetails,
    },
    { requiredKeys: ["role", "content"] },
  ),
  fc.record({ role: fc.constant("tool"), tool_call_id: idArbitrary, content: textArbitrary }),
);

const historyArbitrary = fc.array(messageArbitrary, { maxLength: 14 });
const profileArbitrary = fc.constantFrom(...PROVIDER_IDS);
const policies = fc.constantFrom("preserve" as const, "drop" as const, "empty" as const);
const missing = fc.constantFrom("synthesize" as const, "drop-call" as const);

/** Calls in assistant messages' call lists (what a model emitted). */
function countCalls(history: readonly unknown[]): number {
  let count = 0;
  for (const message of history) {
    const m = message as { role?: unknown; tool_calls?: unknown };
    if (m.role === "assistant" && Array.isArray(m.tool_calls)) count += m.tool_calls.length;
  }
  return count;
}

const CALL_DROPS = new Set(["call_dropped", "call_dropped_no_name", "call_dropped_missing_result"]);

describe("sanitizeHistory({ provider }) properties", () => {
  it("gives a history the provider raises no issue about, for every profile", () => {
    fc.assert(
      fc.property(
        historyArbitrary,
        profileArbitrary,
        policies,
        missing,
        (history, provider, policy, missingResult) => {
          const { messages } = sanitizeHistory(history, { provider, policy, missingResult });
          expect(validateHistory(messages, { provider })).toEqual([]);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it("is idempotent: a second pass changes nothing and returns the same array", () => {
    fc.assert(
      fc.property(historyArbitrary, profileArbitrary, policies, (history, provider, policy) => {
        const once = sanitizeHistory(history, { provider, policy });
        const twice = sanitizeHistory(once.messages, { provider, policy });
        expect(twice.changes).toEqual([]);
        expect(twice.messages).toBe(once.messages);
      }),
      { numRuns: 2000 },
    );
  });

  it("never mutates its input, and returns it as it is when nothing changes", () => {
    fc.assert(
      fc.property(historyArbitrary, profileArbitrary, (history, provider) => {
        const before = structuredClone(history);
        const result = sanitizeHistory(deepFreeze(history), { provider });
        expect(history).toEqual(before);
        if (result.changes.length === 0) expect(result.messages).toBe(history);
        validateHistory(history, { provider });
        providerVerdict(history, { providers: [provider] });
        expect(history).toEqual(before);
      }),
      { numRuns: 1000 },
    );
  });

  it("keeps every call the model emitted, or records its removal with its full content", () => {
    fc.assert(
      fc.property(
        historyArbitrary,
        profileArbitrary,
        policies,
        missing,
        (history, provider, policy, missingResult) => {
          const { messages, changes } = sanitizeHistory(history, { provider, policy, missingResult });
          const drops = changes.filter((c) => CALL_DROPS.has(c.rule));
          for (const drop of drops) expect(drop).toHaveProperty("before");
          expect(countCalls(messages) + drops.length).toBe(countCalls(history));
          for (const change of changes.filter((c) => /removed|moved/.test(c.rule)))
            expect(change.before).not.toBeUndefined();
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("names an input message in every change", () => {
    fc.assert(
      fc.property(historyArbitrary, profileArbitrary, (history, provider) => {
        const { changes } = sanitizeHistory(history, { provider });
        for (const change of changes) {
          expect(change.messageIndex).toBeGreaterThanOrEqual(0);
          expect(change.messageIndex).toBeLessThan(history.length);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it("validation and the verdict never throw, whatever the history holds", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(messageArbitrary, fc.anything()), { maxLength: 8 }), (history) => {
        const verdict = providerVerdict(history);
        expect(verdict.rejectedBy.length + verdict.acceptedBy.length).toBe(listProviderProfiles().length);
        for (const finding of verdict.findings) expect(finding.rejectedBy.length).toBeGreaterThan(0);
      }),
      { numRuns: 500 },
    );
  });
});
