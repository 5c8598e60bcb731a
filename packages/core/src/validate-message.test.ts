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
