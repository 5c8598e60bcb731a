import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { splitAt } from "../test/split-at.js";
import { normalizeAnswerArguments } from "./normalize-answer-arguments.js";
import { coreRepairs } from "./repairs/index.js";
import { StreamedArguments } from "./streamed-arguments.js";

/** Streams `fragments` through a gate, decides the whole text as an answer, and returns what a receiver holds. */
function stream(fragments: readonly string[], finishReason: "stop" | "length" = "stop") {
  const gate = new StreamedArguments();
  const passed = fragments.map((fragment) => gate.push(fragment));
  const raw = fragments.join("");
  const answer = normalizeAnswerArguments(raw === "" ? undefined : raw, {
    repairs: coreRepairs,
    finishReason,
  });
  const end = gate.end({ text: (answer.text as string | undefined) ?? raw, usable: answer.usable, raw });
  const received = fragments.filter((_, i) => passed[i]).join("") + end.rest;
  return { passed, answer, end, received };
}

describe("StreamedArguments", () => {
  it("hands a clean call on fragment by fragment and adds nothing at the end", () => {
    const { passed, end, received } = stream(['{"city":', ' "Paris",', ' "days": 3}']);
    expect(passed).toEqual([true, true, true]);
    expect(end).toEqual({ rest: "", text: '{"city": "Paris", "days": 3}', fit: "exact" });
    expect(received).toBe('{"city": "Paris", "days": 3}');
  });

  it("holds a Python dict from its first quote and sends the repaired rest", () => {
    const { passed, end, received } = stream(["{", "'city': 'Rome',", " 'unit': 'c'}"]);
    expect(passed).toEqual([true, false, false]);
    expect(end.fit).toBe("exact");
    expect(received).toBe('{"city":"Rome","unit":"c"}');
  });

  it("keeps the spacing already sent when the repaired text is compact", () => {
    const { received, end } = stream(['{"a": ', "True}"]);
    expect(end.fit).toBe("equivalent");
    expect(received).toBe('{"a": true}');
  });

  it("holds a whole fenced call", () => {
    const { passed, received } = stream(["```json\n", '{"a": 1}', "\n```"]);
    expect(passed).toEqual([false, false, false]);
    expect(received).toBe('{"a":1}');
  });

  it("drops a template suffix after a whole object", () => {
    const { passed, received, end } = stream(['{"a": 1}', "</tool_call>"]);
    expect(passed).toEqual([true, false]);
    expect(end).toMatchObject({ rest: "", fit: "equivalent" });
    expect(received).toBe('{"a": 1}');
  });

  it("holds a special-token opener, even split across fragments", () => {
    expect(stream(['{"d": "', '<|"|2023<|"|>"}']).passed).toEqual([true, false]);
    expect(stream(['{"d": "<', '|"|x"}']).passed).toEqual([false, false]);
    // Valid text with a marker in a value is held, then handed on as it came.
    const { received } = stream(['{"d": "', 'a <|"|> b"}']);
    expect(received).toBe('{"d": "a <|"|> b"}');
  });

  it("leaves text cut by a length stop exactly as the model sent it", () => {
    const { passed, received, answer } = stream(['{"city":', ' "Par'], "length");
    expect(passed).toEqual([true, true]);
    expect(answer.usable).toBe(false);
    expect(received).toBe('{"city": "Par');
  });

  it("takes a fragment that is no string as no text (a delta's arguments can be null)", () => {
    const gate = new StreamedArguments();
    for (const fragment of [null, undefined, 5, {}, ["{"]]) expect(gate.push(fragment as never)).toBe(true);
    expect(gate.push('{"a":1}')).toBe(true);
    expect(gate.sent).toBe('{"a":1}');
  });

  it("sends {} for a call with no text", () => {
    expect(stream([]).received).toBe("{}");
    expect(stream(["", ""]).received).toBe("{}");
  });

  it("falls back to the model's text when what was sent cannot begin the repair", () => {
    const { end, received } = stream(['{"a": 1,', " }"]);
    expect(end.fit).toBe("conflict");
    expect(received).toBe('{"a": 1, }');
  });

  it("gives the receiver the decided value, or the model's own text, for any text in any split", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.json(),
          fc.string(),
          fc.dictionary(fc.string(), fc.jsonValue()).map((value) => JSON.stringify(value, null, 1)),
          fc
            .dictionary(fc.string(), fc.string())
            .map((value) => `\`\`\`json\n${JSON.stringify(value)}\n\`\`\``),
        ),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 5 }),
        fc.constantFrom("stop" as const, "length" as const),
        (text, cuts, finishReason) => {
          const { answer, end, received } = stream(splitAt(text, cuts), finishReason);
          expect(received).toBe(end.text);
          if (!answer.usable || end.fit === "conflict") expect(received).toBe(text);
          else if (end.fit === "exact") expect(received).toBe(answer.text);
          else expect(JSON.parse(received)).toEqual(JSON.parse(answer.text as string));
        },
      ),
    );
  });
});
