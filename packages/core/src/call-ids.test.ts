import { describe, expect, it } from "vitest";
import { CallIds } from "./call-ids.js";
import { sanitizeHistory } from "./sanitize-history.js";
import { sanitizeTurnCalls } from "./sanitize-turn-calls.js";

const call = (id: string) => ({ id, type: "function", function: { name: "f", arguments: "{}" } });

/** Sanitizes `turns` turns of `perTurn` calls that all reuse `call_0`, as sanitizeHistory does; the probes made. */
function probesForReuse(turns: number, perTurn: number): number {
  const ids = new CallIds();
  const context = { policy: "preserve" as const, normalizeOptions: { repairs: [], policy: "keep" as const } };
  for (let turn = 0; turn < turns; turn++) {
    const calls = Array.from({ length: perTurn }, () => call("call_0"));
    sanitizeTurnCalls(calls, turn * 2, { ...context, usedIds: ids, changes: [] });
  }
  return ids.probes;
}

describe("reused call ids are renamed in work linear in the number of calls", () => {
  it("8 000 turns reusing call_0: a few probes per call (it was 32 million in all)", () => {
    for (const turns of [1_000, 8_000, 64_000]) {
      const probes = probesForReuse(turns, 1);
      // One probe to find the id used, one for its fresh name.
      expect(probes, `${turns} turns`).toBeLessThanOrEqual(2 * turns);
    }
  });

  it("one turn whose 20 000 calls all use one id", () => {
    expect(probesForReuse(1, 20_000)).toBeLessThanOrEqual(2 * 20_000);
  });

  it("ids already taken by the history are each skipped once", () => {
    const ids = new CallIds();
    for (let n = 2; n < 1_002; n++) ids.add(`a_${n}`);
    ids.add("a");
    const before = ids.probes;
    for (let i = 0; i < 1_000; i++) ids.fresh("a");
    // 1 000 taken names skipped once, then 1 000 fresh ones found at once.
    expect(ids.probes - before).toBe(2_000);
  });

  it("gives the names the smallest-free rule gives, and sanitize pairs every result with its renamed call", () => {
    const messages: unknown[] = [];
    for (let turn = 0; turn < 3; turn++) {
      messages.push({ role: "assistant", content: null, tool_calls: [call("call_0"), call("call_0")] });
      messages.push({ role: "tool", tool_call_id: "call_0", content: `t${turn} a` });
      messages.push({ role: "tool", tool_call_id: "call_0", content: `t${turn} b` });
    }
    const { messages: out } = sanitizeHistory(messages);
    const ids = out.flatMap((m) => {
      const message = m as { tool_calls?: { id: string }[]; tool_call_id?: string; content: unknown };
      return message.tool_calls?.map((c) => c.id) ?? [`${message.tool_call_id}=${message.content}`];
    });
    expect(ids).toEqual([
      "call_0",
      "call_0_2",
      "call_0=t0 a",
      "call_0_2=t0 b",
      "call_0_3",
      "call_0_4",
      "call_0_3=t1 a",
      "call_0_4=t1 b",
      "call_0_5",
      "call_0_6",
      "call_0_5=t2 a",
      "call_0_6=t2 b",
    ]);
  });

  it("a clean turn claims each call's id with one probe, and the ids stay used", () => {
    const ids = new CallIds();
    const context = {
      policy: "preserve" as const,
      normalizeOptions: { repairs: [], policy: "keep" as const },
    };
    const calls = Array.from({ length: 500 }, (_, index) => call(`call_${index}`));
    const turn = sanitizeTurnCalls(calls, 0, { ...context, usedIds: ids, changes: [] });
    expect(turn.callsChanged).toBe(false);
    expect(ids.probes).toBe(500);
    // Every id is used from then on: the same ids in a later turn are renamed.
    const again = sanitizeTurnCalls(calls.slice(0, 3), 2, { ...context, usedIds: ids, changes: [] });
    expect(again.renamed?.get("call_0")).toEqual(["call_0_2"]);
  });

  it("claim records an id and tells whether it was free", () => {
    const ids = new CallIds();
    expect(ids.claim("a")).toBe(true);
    expect(ids.claim("a")).toBe(false);
    expect(ids.has("a")).toBe(true);
    expect(ids.fresh("a")).toBe("a_2");
  });
});
