import { describe, expect, it } from "vitest";
import { sanitizeHistory } from "../sanitize-history.js";
import { validateHistory } from "../validate-history.js";
import { PROVIDER_IDS } from "./provider-profiles.js";
import { providerVerdict } from "./provider-verdict.js";

/**
 * Wraps each message, and each object and list in it, in a Proxy that counts every read of the history, measured
 * without a clock. It meters what is read from the caller's messages (the checks read each into a view once; the
 * fixes work on core's copies); the loops over views and copies are single passes or bounded per message.
 */
function metered(history: readonly object[]): { history: object[]; reads: () => number } {
  let reads = 0;
  const wrap = (value: unknown): unknown =>
    typeof value === "object" && value !== null ? new Proxy(value as object, handler) : value;
  const handler: ProxyHandler<object> = {
    get(target, key, receiver) {
      reads++;
      return wrap(Reflect.get(target, key, receiver));
    },
    getPrototypeOf(target) {
      reads++;
      return Reflect.getPrototypeOf(target);
    },
    getOwnPropertyDescriptor(target, key) {
      reads++;
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    has(target, key) {
      reads++;
      return Reflect.has(target, key);
    },
  };
  return { history: history.map((message) => wrap(message) as object), reads: () => reads };
}

/** Shapes that make naive pairing and position checks quadratic: one turn with n calls answered in reverse, n orphans, runs of system messages. */
function adversarial(n: number): object[] {
  const calls = Array.from({ length: n }, (_, i) => ({
    id: `functions.f:${i}`,
    type: "function",
    function: { name: "f", arguments: i % 2 === 0 ? "{bad" : "{}" },
  }));
  return [
    { role: "user", content: "go" },
    { role: "assistant", content: "\n\n", tool_calls: calls },
    ...calls.map((_, i) => ({ role: "tool", tool_call_id: `functions.f:${n - 1 - i}`, content: "ok" })),
    ...Array.from({ length: n }, (_, i) => ({ role: "tool", tool_call_id: `orphan_${i}`, content: "x" })),
    ...Array.from({ length: n }, () => ({ role: "system", content: "rule" })),
    {
      role: "assistant",
      content: null,
      tool_calls: [{ id: "c", type: "function", function: { name: "g", arguments: "{}" } }],
    },
    { role: "user", content: "" },
  ];
}

describe("provider checks on hostile input", () => {
  it("never throw on revoked proxies, throwing getters, sparse lists, __proto__ ids and lone surrogates", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const throwing = Object.defineProperty({ role: "assistant" }, "tool_calls", {
      enumerable: true,
      get() {
        throw new Error("boom");
      },
    });
    const sparse: unknown[] = [];
    sparse[3] = { id: "c", type: "function", function: { name: "f", arguments: "{}" } };
    const history = [
      proxy,
      throwing,
      { role: "assistant", content: [proxy], tool_calls: sparse },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "__proto__", type: "function", function: { name: "\ud800", arguments: '{"__proto__":1}' } },
        ],
      },
      { role: "tool", tool_call_id: "__proto__", content: "\udc00" },
      null,
      7,
    ];
    for (const provider of PROVIDER_IDS) expect(() => validateHistory(history, { provider })).not.toThrow();
    expect(() => providerVerdict(history)).not.toThrow();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("remaps a __proto__ id as data, in the call and its result", () => {
    const history = [
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "__proto__", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "__proto__", content: "ok" },
    ];
    const { messages } = sanitizeHistory(history, { provider: "mistral" });
    const call = (messages[1] as { tool_calls: Array<{ id: string }> }).tool_calls[0];
    expect(call?.id).toBe("0000proto");
    expect((messages[2] as { tool_call_id: string }).tool_call_id).toBe("0000proto");
    expect(Object.getPrototypeOf(call)).toBe(Object.prototype);
  });

  it("validate every profile, and the verdict, reading the history in work linear in its size", () => {
    const small = metered(adversarial(200));
    providerVerdict(small.history);
    const large = metered(adversarial(800));
    providerVerdict(large.history);
    expect(large.reads() / small.reads()).toBeLessThan(4.6);
  });

  it("sanitize for each provider, reading the history in work linear in its size", () => {
    for (const provider of ["mistral", "anthropic", "gemini", "openai-chat"] as const) {
      const small = metered(adversarial(200));
      sanitizeHistory(small.history, { provider });
      const large = metered(adversarial(800));
      sanitizeHistory(large.history, { provider });
      expect(large.reads() / small.reads(), provider).toBeLessThan(4.6);
    }
  });

  it("reads lists of length 2**32 - 1 by what they hold (history, tool_calls, content), every profile", () => {
    /** A sparse list of length 2**32 - 1 in a Proxy that counts its reads: walking its length would be 4 billion. */
    const huge = (entries: Record<number, unknown>) => {
      const list: unknown[] = [];
      list.length = 2 ** 32 - 1;
      for (const [index, value] of Object.entries(entries)) list[Number(index)] = value;
      let reads = 0;
      const proxy = new Proxy(list, {
        get(target, key, receiver) {
          reads++;
          return Reflect.get(target, key, receiver);
        },
      });
      return { proxy, reads: () => reads };
    };
    const call = { id: "c", type: "function", function: { name: "f", arguments: "{}" } };
    const history = huge({ 0: { role: "user", content: "hi" } });
    const calls = huge({ 2: call });
    const content = huge({ 1: { type: "text", text: "x" } });
    const cases = [
      history.proxy,
      [{ role: "assistant", content: null, tool_calls: calls.proxy }],
      [{ role: "user", content: content.proxy }],
    ];
    for (const messages of cases) {
      for (const provider of PROVIDER_IDS) {
        expect(Array.isArray(validateHistory(messages, { provider }))).toBe(true);
        expect(Array.isArray(sanitizeHistory(messages, { provider }).changes)).toBe(true);
      }
      expect(providerVerdict(messages).acceptedBy.length + providerVerdict(messages).rejectedBy.length).toBe(
        PROVIDER_IDS.length,
      );
    }
    for (const list of [history, calls, content])
      expect(list.reads(), "reads of a huge list").toBeLessThan(100_000);
    // The holes of the long list of calls read as a missing call (R3), and sanitize keeps the one call there is.
    expect(validateHistory(cases[1] as unknown[]).map((i) => i.code)).toContain("id_missing");
    const fixed = sanitizeHistory(cases[1] as unknown[], { provider: "mistral" });
    expect((fixed.messages[0] as { tool_calls: unknown[] }).tool_calls).toHaveLength(1);
  });

  it("sanitize with a provider takes a list whose reads throw", () => {
    const throwing = new Proxy([], {
      get() {
        throw new Error("no");
      },
      ownKeys() {
        throw new Error("no");
      },
    });
    for (const provider of PROVIDER_IDS) {
      expect(() => sanitizeHistory(throwing, { provider })).not.toThrow();
      expect(() => validateHistory(throwing, { provider })).not.toThrow();
    }
  });
});
