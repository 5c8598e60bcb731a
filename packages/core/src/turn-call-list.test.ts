import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeArguments, decodeArgumentsUnlessObjectText, OBJECT_TEXT } from "./decode-arguments.js";
import { coreRepairs } from "./repairs/index.js";
import { sanitizeHistory } from "./sanitize-history.js";
import { type TurnCall, TurnCallList } from "./turn-call-list.js";

const entry = (id: string, name = "f"): TurnCall => ({
  call: { id, type: "function", function: { name, arguments: "{}" } },
  id,
});

describe("TurnCallList: a turn's kept calls by id, in order", () => {
  it("reads like a map of ids, small turns and large ones alike", () => {
    for (const size of [1, 3, 8, 9, 40]) {
      const list = new TurnCallList();
      const ids = Array.from({ length: size }, (_, i) => `call_${i}`);
      for (const id of ids) list.add(entry(id));
      expect(list.size).toBe(size);
      expect(list.entries.map((e) => e.id)).toEqual(ids);
      for (const id of ids) expect(list.get(id)?.id).toBe(id);
      expect(list.has("call_missing")).toBe(false);
      // An id kept again replaces its entry where it stands.
      const again = entry(ids[0] as string, "g");
      list.add(again);
      expect(list.size).toBe(size);
      expect(list.get(ids[0] as string)).toBe(again);
      expect(list.entries[0]).toBe(again);
    }
  });

  it("a turn of many calls answered in reverse order: each result finds its call", () => {
    const calls = Array.from({ length: 30 }, (_, i) => entry(`c${i}`).call);
    const history = [
      { role: "user", content: "go" },
      { role: "assistant", content: null, tool_calls: calls },
      ...[...calls].reverse().map((call) => ({ role: "tool", tool_call_id: call.id, content: "ok" })),
      { role: "assistant", content: "done" },
    ];
    const result = sanitizeHistory(history);
    expect(result.changes).toEqual([]);
    expect(result.messages).toBe(history);
  });
});

describe("decodeArgumentsUnlessObjectText", () => {
  it("is decodeArguments, with OBJECT_TEXT for object text read at once", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json(),
          fc.jsonValue().map((value) => JSON.stringify(value)),
          fc.constantFrom('{"a":1}', ' {"a":1}', "{'a': 1}", '{"a":1}{"a":1}', "null", '"{}"', "", "[1]"),
        ),
        (text) => {
          const expected = decodeArguments(text, { repairs: coreRepairs });
          const got = decodeArgumentsUnlessObjectText(text, { repairs: coreRepairs });
          if (got === OBJECT_TEXT) {
            expect(expected.status).toBe("object");
            expect(text.startsWith("{")).toBe(true);
          } else expect(got).toEqual(expected);
        },
      ),
    );
  });

  it("values that are not text decode as decodeArguments decodes them", () => {
    for (const value of [undefined, null, { a: 1 }, [1], 3])
      expect(decodeArgumentsUnlessObjectText(value, {})).toEqual(decodeArguments(value));
  });
});
