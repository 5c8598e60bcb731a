import { readFileSync } from "node:fs";
import { expectFormatLossless } from "@toolcall/conformance/vitest";
import { createRecordEngine } from "@toolcall/core";
import { createFormatRegistry, serializeJson } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bfclAnswerFormat, bfclQuestionFormat, datasetFormats } from "../src/index.js";

// Real BFCL files (Apache-2.0, __fixtures__/README.md): the live parallel questions and their possible answers, and
// the first entries of the multi-turn base set.
const lines = (name: string) =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const engine = createRecordEngine();
const registry = createFormatRegistry(datasetFormats);

describe("BFCL question files", () => {
  it.each(["BFCL_v4_live_parallel.json", "BFCL_v4_multi_turn_base.head.json"])("%s", (name) => {
    for (const entry of lines(name)) {
      expect(registry.detect(entry, "record")?.format.id).toBe("bfcl-question");
      const [conversation] = bfclQuestionFormat.read(entry).conversations;
      const turns = entry.question as unknown[][];
      expect(conversation?.messages).toHaveLength(turns.flat().length);
      expect(conversation?.tools?.length ?? 0).toBe((entry.function as unknown[] | undefined)?.length ?? 0);
      expect(engine.check(bfclQuestionFormat, entry).issues).toEqual([]);
      expectFormatLossless(bfclQuestionFormat, entry, { repair: engine.repair });
    }
  });

  it("a message removed from the view is written out of its turn; the other turns stay the same lists", () => {
    const entry = {
      id: "x_0",
      question: [[{ role: "user", content: "" }], [{ role: "user", content: "hi" }]],
    };
    const reading = bfclQuestionFormat.read(entry);
    const [conversation] = reading.conversations;
    expect(conversation?.placeOf?.([1, "content"])).toBe("question[1][0].content");
    const written = reading.write([conversation?.messages.slice(1) ?? []]);
    expect(written).toEqual({
      ok: true,
      value: { id: "x_0", question: [[], [{ role: "user", content: "hi" }]] },
    });
    expect(written.ok && (written.value as typeof entry).question[1]).toBe(entry.question[1]);
  });
});

describe("BFCL possible answers", () => {
  it("single-turn: each expected call read with the first value it accepts, omittable parameters left out", () => {
    const answers = lines("BFCL_v4_live_parallel.possible_answer.json");
    const first = answers[0] as Record<string, unknown>;
    expect(registry.detect(first, "record")?.format.id).toBe("bfcl-answer");
    const calls = bfclAnswerFormat.read(first).conversations[0]?.messages[0]?.tool_calls as
      | Array<{ function: { name: string; arguments: string } }>
      | undefined;
    expect(calls?.map((call) => [call.function.name, call.function.arguments])).toEqual([
      ["get_current_weather", '{"location":"Beijing, China"}'],
      ["get_current_weather", '{"location":"Shanghai, China"}'],
    ]);
    const found: string[] = [];
    for (const entry of answers) {
      // Expected calls await no result (nothing is said about results); BFCL's dotted names break OpenAI's pattern.
      for (const issue of engine.check(bfclAnswerFormat, entry).issues) {
        expect(issue.severity).toBe("warning");
        found.push(`${entry.id} ${issue.code} ${issue.place}`);
      }
      expectFormatLossless(bfclAnswerFormat, entry, { repair: engine.repair });
    }
    expect(found).toEqual([
      "live_parallel_15-11-0 name_invalid ground_truth[0]",
      "live_parallel_15-11-0 name_invalid ground_truth[1]",
    ]);
  });

  it("multi-turn: Python call texts read by the pythonic syntax, one answer per turn; positional calls named", () => {
    const answers = lines("BFCL_v4_multi_turn_base.possible_answer.head.json");
    const first = answers[0] as { ground_truth: string[][] };
    const reading = bfclAnswerFormat.read(first);
    expect(reading.conversations.map((c) => c.label)).toEqual([
      "ground_truth[0]",
      "ground_truth[1]",
      "ground_truth[3]",
    ]);
    const calls = reading.conversations[0]?.messages[0]?.tool_calls as
      | Array<{ function: unknown }>
      | undefined;
    expect(calls?.[0]?.function).toEqual({
      name: "cd",
      arguments: '{"folder": "document"}',
    });
    expect(reading.issues).toEqual([
      expect.objectContaining({ code: "call_unread", severity: "info", place: "ground_truth[2][0]" }),
    ]);
    for (const entry of answers) expectFormatLossless(bfclAnswerFormat, entry, { repair: engine.repair });
  });

  it("a repair is written back in the entry's own shapes: a nameless call leaves its list", () => {
    const entry = { id: "a_0", ground_truth: [{ "": { a: [1] } }, { f: { a: [1, 2], b: ["", 3] } }] };
    const repaired = engine.repair(bfclAnswerFormat, entry);
    expect(repaired.changes.map((change) => change.rule)).toEqual(["call_dropped_no_name"]);
    expect(repaired.value).toEqual({ id: "a_0", ground_truth: [{ f: { a: [1, 2], b: ["", 3] } }] });
    // The item no rule touched is the same object; what is written reads again with nothing left to say.
    expect((repaired.value as typeof entry).ground_truth[0]).toBe(entry.ground_truth[1]);
    expect(repaired.remaining).toEqual([]);
  });

  it("changed arguments: the new value is accepted first (single-turn), or the call is written again (multi-turn)", () => {
    const single = { id: "s_0", ground_truth: [{ f: { a: [1, 2, 5], b: ["", 3], c: ["x"] } }] };
    const reading = bfclAnswerFormat.read(single);
    const [message] = reading.conversations[0]?.messages ?? [];
    const call = ((message?.tool_calls ?? []) as Array<{ id: string; function: object }>)[0];
    const rewritten = {
      ...message,
      tool_calls: [{ ...call, function: { name: "f", arguments: '{"a":7,"d":true}' } }],
    };
    const written = reading.write([[rewritten]]);
    // Numbers are read losslessly (their text kept): compare as a file holds them.
    const expected = { id: "s_0", ground_truth: [{ f: { a: [7, 2, 5], b: ["", 3], d: [true] } }] };
    expect(written.ok && serializeJson(written.value)).toEqual(serializeJson(expected));

    const multi = { id: "m_0", ground_truth: [["cd(folder='a')", "sort('a')", "ls()"], ["pwd()"]] };
    const turns = bfclAnswerFormat.read(multi);
    const [first] = turns.conversations[0]?.messages ?? [];
    const [cd, ls] = (first?.tool_calls ?? []) as Array<{ id: string }>;
    const changed = {
      ...first,
      tool_calls: [{ ...cd, function: { name: "cd", arguments: '{"folder": "b", "deep": true}' } }],
    };
    const again = turns.write([[changed], undefined]);
    // `ls()` dropped, `cd` written again, the positional `sort('a')` the view does not read kept in its place.
    expect(again).toEqual({
      ok: true,
      value: { id: "m_0", ground_truth: [["cd(folder='b', deep=True)", "sort('a')"], ["pwd()"]] },
    });
    expect(ls).toBeDefined();
    expect(again.ok && (again.value as typeof multi).ground_truth[1]).toBe(multi.ground_truth[1]);
  });

  it("a message or call an answer file cannot hold is refused with the reason", () => {
    const entry = { id: "r_0", ground_truth: [{ f: { a: [1] } }] };
    const reading = bfclAnswerFormat.read(entry);
    const messages = reading.conversations[0]?.messages ?? [];
    expect(
      reading.write([[...messages, { role: "tool", tool_call_id: "answer@0", content: "x" }]]),
    ).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/expected calls only/),
    });
  });
});

describe("generated BFCL entries", () => {
  it("read then write is the entry itself; nothing read is lost", () => {
    const message = fc.record({ role: fc.constantFrom("user", "system", "assistant"), content: fc.string() });
    const question = fc.record({
      id: fc.string(),
      question: fc.array(fc.array(message, { maxLength: 3 }), { minLength: 1, maxLength: 4 }),
      function: fc.array(fc.record({ name: fc.string(), parameters: fc.constant({ type: "dict" }) }), {
        maxLength: 3,
      }),
    });
    const answer = fc.record({
      id: fc.string(),
      ground_truth: fc.oneof(
        fc.array(
          fc.dictionary(fc.string(), fc.dictionary(fc.string(), fc.array(fc.jsonValue())), {
            minKeys: 1,
            maxKeys: 1,
          }),
        ),
        fc.array(fc.array(fc.constantFrom("cd(folder='a')", "sort('a')", "ls()", "x(y=", "a.b(c=1)"))),
      ),
    });
    fc.assert(
      fc.property(question, answer, (q, a) => {
        if (bfclQuestionFormat.matches(q))
          expectFormatLossless(bfclQuestionFormat, q, { repair: engine.repair });
        if (bfclAnswerFormat.matches(a)) expectFormatLossless(bfclAnswerFormat, a, { repair: engine.repair });
      }),
      { numRuns: 300 },
    );
  });
});
