import { describe, expect, it } from "vitest";
import { decodeArguments } from "./decode-arguments.js";
import { sanitizeHistory } from "./sanitize-history.js";

/** Calls of `JSON.parse` while `run` runs, and what it returned. */
function parses<T>(run: () => T): { calls: number; texts: string[]; value: T } {
  const parse = JSON.parse;
  const texts: string[] = [];
  JSON.parse = (...args: Parameters<typeof JSON.parse>) => {
    texts.push(String(args[0]));
    return parse(...args);
  };
  try {
    const value = run();
    return { calls: texts.length, texts, value };
  } finally {
    JSON.parse = parse;
  }
}

/** A clean history of `turns` turns, each an assistant call with a long argument full of brackets and its result. */
function cleanHistory(turns: number): Array<Record<string, unknown>> {
  const messages: Array<Record<string, unknown>> = [{ role: "system", content: "You edit files." }];
  for (let turn = 0; turn < turns; turn++) {
    const code = `function f${turn}(a) { return [a, { b: [a] }]; }\n`.repeat(40 + turn);
    messages.push(
      { role: "user", content: `edit ${turn}` },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: `call_${turn}`,
            type: "function",
            function: { name: "edit", arguments: JSON.stringify({ path: `f${turn}.js`, new_string: code }) },
          },
          {
            id: `call_${turn}_b`,
            type: "function",
            function: { name: "read", arguments: JSON.stringify({ rows: [[1, 2], { a: [3] }] }) },
          },
        ],
      },
      { role: "tool", tool_call_id: `call_${turn}`, content: "ok" },
      { role: "tool", tool_call_id: `call_${turn}_b`, content: "ok" },
      { role: "assistant", content: "Done." },
    );
  }
  return messages;
}

describe("work on clean input", () => {
  it("decodes valid object text with one parse, whatever its size or the brackets in its strings", () => {
    for (const text of [
      '{"city":"Paris"}',
      JSON.stringify({ code: "{[(".repeat(3000) }),
      JSON.stringify({ rows: Array.from({ length: 2000 }, (_, i) => ({ i })) }),
    ]) {
      const { calls, value } = parses(() => decodeArguments(text));
      expect(value.status).toBe("object");
      expect(calls).toBe(1);
    }
  });

  it("text that fails the strict parse is not parsed twice before its repairs", () => {
    const { texts } = parses(() => decodeArguments("{'a': 1}"));
    expect(texts.filter((text) => text === "{'a': 1}")).toHaveLength(1);
  });

  it("sanitizes a clean history in one walk: each message read once, each argument parsed once", () => {
    const history = cleanHistory(30);
    const reads = new Map<number, number>();
    const watched = new Proxy(history, {
      get(target, key, receiver) {
        if (typeof key === "string" && /^\d+$/.test(key))
          reads.set(Number(key), (reads.get(Number(key)) ?? 0) + 1);
        return Reflect.get(target, key, receiver);
      },
    });
    const { calls, value } = parses(() => sanitizeHistory(watched));
    expect(value.changes).toEqual([]);
    expect(value.messages).toBe(watched);
    expect(calls).toBe(60);
    expect(reads.size).toBe(history.length);
    expect(Math.max(...reads.values())).toBe(1);
  });
});
