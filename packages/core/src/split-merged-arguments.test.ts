import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fuzzRuns } from "../test/linear-work.js";
import { normalizeAnswerArguments } from "./normalize-answer-arguments.js";
import { coreRepairs } from "./repairs/index.js";
import { sanitizeHistory } from "./sanitize-history.js";
import { splitMergedArguments } from "./split-merged-arguments.js";

describe("splitMergedArguments", () => {
  it("gives each distinct object back, byte for byte, in order", () => {
    const text = '{"entity": "X", "relationship": "works_at"} {"entity": "X", "relationship": "ceo_of"}\n';
    expect(splitMergedArguments(text)).toEqual([
      '{"entity": "X", "relationship": "works_at"}',
      '{"entity": "X", "relationship": "ceo_of"}',
    ]);
  });

  it("refuses what is not several distinct complete objects, and a length stop", () => {
    for (const text of [
      '{"a":1}',
      '{"a":1}{"a":1}',
      '{"a":1}{"a": 1}',
      '{"a":1}{"a":1}{"b":2}',
      '{"a":1}{}',
      '{"a":1}{"b":',
      '{"a":1}x{"b":2}',
      '[1]{"b":2}',
      "{'a':1}{\"b\":2}",
    ])
      expect(splitMergedArguments(text), text).toBeUndefined();
    expect(splitMergedArguments('{"a":1}{"b":2}', { finishReason: "length" })).toBeUndefined();
    expect(splitMergedArguments(42)).toBeUndefined();
  });

  it("a stream's first {} in front is not a call", () => {
    expect(splitMergedArguments('{}{"a":1}{"b":2}')).toEqual(['{"a":1}', '{"b":2}']);
    expect(splitMergedArguments('{}{"a":1}')).toBeUndefined();
  });

  it("splits any list of distinct objects written back to back, and the parts parse to them", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(
          fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1 }),
          {
            minLength: 2,
            maxLength: 5,
            selector: (value) => JSON.stringify(value),
          },
        ),
        fc.constantFrom("", " ", "\n"),
        (objects, gap) => {
          const parts = splitMergedArguments(objects.map((o) => JSON.stringify(o)).join(gap));
          expect(parts?.map((part) => JSON.parse(part))).toEqual(objects);
        },
      ),
      fuzzRuns(200),
    );
  });
});

describe("merged calls in a fresh answer and in a history", () => {
  it("a fresh answer says which calls the text holds; the call itself stays unusable", () => {
    const answer = normalizeAnswerArguments('{"query":"first"}{"query":"second"}', { repairs: coreRepairs });
    expect(answer.usable).toBe(false);
    expect(answer.split).toEqual(['{"query":"first"}', '{"query":"second"}']);
    expect(normalizeAnswerArguments('{"a":1}{"a":1}', { repairs: coreRepairs })).toMatchObject({
      usable: true,
      text: '{"a":1}',
    });
    expect(normalizeAnswerArguments('{"a":1}{"b":2}', { finishReason: "length" }).split).toBeUndefined();
  });

  it("sanitize keeps ids unique across the history and results paired, and is idempotent", () => {
    const history = [
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c_2", type: "function", function: { name: "f", arguments: "{}" } }],
      },
      { role: "tool", tool_call_id: "c_2", content: "earlier" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c", type: "function", function: { name: "f", arguments: '{"a":1}{"a":2}{"a":3}' } },
        ],
      },
      { role: "tool", tool_call_id: "c", content: "answered" },
    ];
    const { messages, changes } = sanitizeHistory(history);
    const turn = messages[2] as { tool_calls: { id: string; function: { arguments: string } }[] };
    expect(turn.tool_calls.map((call) => [call.id, call.function.arguments])).toEqual([
      ["c", '{"a":1}'],
      ["c_3", '{"a":2}'],
      ["c_4", '{"a":3}'],
    ]);
    expect(messages.slice(3).map((m) => (m as { tool_call_id: string }).tool_call_id)).toEqual([
      "c",
      "c_3",
      "c_4",
    ]);
    expect(changes.map((change) => change.rule)).toEqual([
      "call_split",
      "result_synthesized",
      "result_synthesized",
    ]);
    const again = sanitizeHistory(messages);
    expect(again.changes).toEqual([]);
    expect(again.messages).toBe(messages);
  });
});
