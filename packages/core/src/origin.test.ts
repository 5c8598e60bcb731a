import { describe, expect, it } from "vitest";
import { originOf, withOrigin } from "./origin.js";
import { sanitizeHistory } from "./sanitize-history.js";

describe("origins", () => {
  it("survive the copies sanitizeHistory makes of messages and calls, and mark nothing it makes", () => {
    const call = withOrigin(
      { id: "", type: "function", function: { name: "f", arguments: "```json\n{}\n```" } },
      "call at block 2",
    );
    const messages = [
      withOrigin({ role: "user", content: "go" }, "turn 0"),
      withOrigin({ role: "assistant", content: null, tool_calls: [call] }, "turn 1"),
    ];
    const { messages: out, changes } = sanitizeHistory(messages);
    expect(changes.map((c) => c.rule)).toEqual([
      "call_id_assigned",
      "arguments_raw_preserved",
      "result_synthesized",
    ]);
    expect(out.map(originOf)).toEqual(["turn 0", "turn 1", undefined]);
    const calls = (out[1] as { tool_calls: unknown[] }).tool_calls;
    expect(originOf(calls[0])).toBe("call at block 2");
    expect(Object.keys(out[1] as object)).toEqual(["role", "content", "tool_calls"]);
    expect(JSON.stringify(out[0])).toBe('{"role":"user","content":"go"}');
  });

  it("is undefined for anything not marked, hostile values included", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    for (const value of [null, undefined, 1, "x", {}, [], proxy]) expect(originOf(value)).toBeUndefined();
  });
});
