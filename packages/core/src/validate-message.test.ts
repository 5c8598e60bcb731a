import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ISSUE_SEVERITY } from "./issues.js";
import { sanitizeHistory } from "./sanitize-history.js";
import { validateHistory } from "./validate-history.js";
import { MESSAGE_ROLES, validateMessage } from "./validate-message.js";

const roles = fc.oneof(fc.constantFrom(...MESSAGE_ROLES), fc.string(), fc.constant(undefined));
const content = fc.oneof(
  fc.string(),
  fc.constant(null),
  fc.array(
    fc.oneof(
      fc.record({ type: fc.constant("text"), text: fc.string() }),
      fc.record({ type: fc.string(), value: fc.anything() }),
      fc.anything(),
    ),
  ),
  fc.anything(),
);
const message = fc.oneof(
  fc.record(
    { role: roles, content, name: fc.oneof(fc.string(), fc.anything()), tool_call_id: fc.string() },
    { requiredKeys: [] },
  ),
  fc.anything(),
);

describe("validateMessage", () => {
  it("is total: any value gives issues with known codes and their severities, never a throw", () => {
    fc.assert(
      fc.property(message, fc.nat(), (value, index) => {
        for (const found of validateMessage(value, index)) {
          expect(ISSUE_SEVERITY[found.code]).toBe(found.severity);
          expect(found.path[0]).toBe(index);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it("finds nothing in the messages of every role written as OpenAI documents them", () => {
    const messages = [
      { role: "developer", content: [{ type: "text", text: "be brief" }] },
      { role: "system", content: "You are terse.", name: "policy" },
      {
        role: "user",
        content: [
          { type: "text", text: "this?" },
          { type: "image_url", image_url: { url: "https://example.com/a.png" } },
        ],
      },
      { role: "assistant", content: [{ type: "refusal", refusal: "no" }] },
      { role: "assistant", content: null, audio: { id: "audio_1" } },
      { role: "tool", tool_call_id: "call_1", content: [{ type: "text", text: "ok" }] },
    ];
    expect(messages.flatMap((m, i) => validateMessage(m, i))).toEqual([]);
  });

  it("reports a role it does not know once, without judging the content of that role", () => {
    expect(validateMessage({ role: "bogus", content: 42 }, 0).map((i) => i.code)).toEqual(["role_unknown"]);
  });
});

describe("pending calls", () => {
  const call = (id: string) => ({ id, type: "function", function: { name: "f", arguments: "{}" } });
  const history = fc.array(
    fc.oneof(
      fc.constant({ role: "user", content: "go" }),
      fc
        .constantFrom("a", "b", "c")
        .map((id) => ({ role: "assistant", content: null, tool_calls: [call(id)] })),
      fc.constantFrom("a", "b", "c").map((id) => ({ role: "tool", tool_call_id: id, content: "done" })),
    ),
    { maxLength: 8 },
  );

  it("sanitizing with pendingCalls keep leaves no error that validation with pendingCalls pending reports", () => {
    fc.assert(
      fc.property(history, (messages) => {
        const { messages: out } = sanitizeHistory(messages, { pendingCalls: "keep" });
        const errors = validateHistory(out, { pendingCalls: "pending" }).filter(
          (i) => i.severity === "error" && i.code !== "id_duplicate",
        );
        expect(errors).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it("a pending call is the same call either way: pending with the option, missing without", () => {
    fc.assert(
      fc.property(history, (messages) => {
        const pending = validateHistory(messages, { pendingCalls: "pending" });
        const strict = validateHistory(messages);
        const paths = (issues: typeof strict, code: string) =>
          issues.filter((i) => i.code === code).map((i) => JSON.stringify(i.path));
        expect(
          [...paths(pending, "tool_result_pending"), ...paths(pending, "tool_result_missing")].sort(),
        ).toEqual(paths(strict, "tool_result_missing").sort());
      }),
      { numRuns: 1000 },
    );
  });
});

describe("validateMessage on hostile values", () => {
  it("reads a content list of length 2**32 - 1 by what it holds, its holes once", () => {
    const parts: unknown[] = [];
    parts.length = 2 ** 32 - 1;
    parts[2] = { type: "text", text: "x" };
    parts[5] = { type: "image_url" };
    let reads = 0;
    const counted = new Proxy(parts, {
      get(target, key, receiver) {
        reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    const issues = validateMessage({ role: "assistant", content: counted }, 0);
    expect(issues.map((i) => [i.code, i.path])).toEqual([
      ["content_part_unknown", [0, "content", 5, "type"]],
      ["content_invalid", [0, "content", 0]],
    ]);
    expect(reads).toBeLessThan(100);
  });

  it("writes roles and names that are no JSON (BigInt, cycles, huge text) without throwing", () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(validateMessage({ role: 1n, content: "x" }, 0)[0]?.code).toBe("role_unknown");
    expect(validateMessage({ role: cycle, content: "x" }, 0)[0]?.code).toBe("role_unknown");
    const long = validateMessage({ role: "user", content: "x", name: "n".repeat(1_000_000) }, 0);
    expect(long[0]?.code).toBe("message_name_invalid");
    expect(long[0]?.message.length).toBeLessThan(400);
    expect(validateMessage({ role: "user", content: "x", name: 2n }, 0)[0]?.code).toBe(
      "message_name_invalid",
    );
  });

  it("reads a message whose getters throw, or whose content is a revoked proxy, as what can be read", () => {
    const { proxy, revoke } = Proxy.revocable([], {});
    revoke();
    const throwing = Object.defineProperty({ role: "user" }, "content", {
      enumerable: true,
      get() {
        throw new Error("no");
      },
    });
    expect(validateMessage(throwing, 1).map((i) => i.code)).toEqual(["content_missing"]);
    expect(validateMessage({ role: "user", content: proxy }, 0).map((i) => i.code)).toEqual([
      "content_invalid",
    ]);
    expect(validateMessage(proxy, 3)).toMatchObject([{ code: "message_invalid", path: [3] }]);
  });
});
