import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateHistory, validateHistoryUntilIssue } from "../validate-history.js";

/** Arguments as models send them: valid, empty, cut off, a Markdown fence, `null`. */
const argumentsText = fc.constantFrom(
  '{"city":"Paris"}',
  "{}",
  "",
  '{"value": ',
  '```json\n{"a":1}\n```',
  "null",
);
const id = fc.constantFrom("a", "b", "c");

/** A history built from the messages a session holds: user turns, calls, results that may answer no call. */
const history = fc.array(
  fc.oneof(
    fc.record({ role: fc.constant("user"), content: fc.constantFrom("hi", "", "go on") }),
    fc.record({
      role: fc.constant("assistant"),
      content: fc.constantFrom(null, "done", ""),
      tool_calls: fc.array(
        fc.record({
          id,
          type: fc.constant("function"),
          function: fc.record({ name: fc.constantFrom("get_weather", ""), arguments: argumentsText }),
        }),
        { maxLength: 3 },
      ),
    }),
    fc.record({ role: fc.constant("tool"), tool_call_id: id, content: fc.constantFrom("sunny", "") }),
  ),
  { maxLength: 12 },
);

describe("validateHistoryUntilIssue", () => {
  it("is the first issues validateHistory finds, and empty exactly when it finds none", () => {
    fc.assert(
      fc.property(
        history,
        fc.constantFrom<"pending" | "missing">("pending", "missing"),
        (messages, pending) => {
          const options = { pendingCalls: pending };
          const full = validateHistory(messages, options);
          const first = validateHistoryUntilIssue(messages, options);
          expect(first.length === 0).toBe(full.length === 0);
          expect(first).toEqual(full.slice(0, first.length));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("reads a long history only as far as its first issue", () => {
    const messages = [
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "a", type: "function", function: { name: "get_weather", arguments: '{"city": ' } },
        ],
      },
      { role: "tool", tool_call_id: "a", content: "sunny" },
      ...Array.from({ length: 10_000 }, (_, i) => ({
        role: i % 2 === 0 ? "user" : "assistant",
        content: "ok",
      })),
    ];
    let reads = 0;
    const counted = new Proxy(messages, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver);
      },
    });
    expect(validateHistoryUntilIssue(counted, {}).map((issue) => issue.code)).toEqual([
      "arguments_invalid_json",
    ]);
    expect(reads).toBeLessThanOrEqual(3);
    reads = 0;
    expect(validateHistory(counted, {}).length).toBe(1);
    expect(reads).toBeGreaterThanOrEqual(messages.length);
  });
});
