import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { normalizeAnswerArguments } from "./normalize-answer-arguments.js";
import { coreRepairs } from "./repairs/index.js";

describe("normalizeAnswerArguments", () => {
  it("keeps valid object text byte for byte", () => {
    const text = '{"city":  "Paris", "n": 1.0}';
    expect(normalizeAnswerArguments(text)).toMatchObject({ text, changed: false, usable: true });
  });

  it("writes canonical text for what decodes to an object", () => {
    expect(normalizeAnswerArguments("")).toMatchObject({ text: "{}", changed: true, usable: true });
    expect(normalizeAnswerArguments("null")).toMatchObject({ text: "{}", usable: true });
    expect(normalizeAnswerArguments('```json\n{"a": 1.0}\n```', { repairs: coreRepairs })).toMatchObject({
      text: '{"a":1.0}',
      usable: true,
      decoded: { status: "repaired", repairs: ["markdown-fence"] },
    });
  });

  it("keeps the model's own text for a call cut by a length stop", () => {
    const text = '{"city": "Par';
    const answer = normalizeAnswerArguments(text, { finishReason: "length", repairs: coreRepairs });
    expect(answer).toMatchObject({ text, changed: false, usable: false, decoded: { status: "truncated" } });
  });

  it("says a call cut before any argument text is truncated, not {}", () => {
    for (const text of ["", "  ", undefined, null]) {
      expect(normalizeAnswerArguments(text, { finishReason: "length" })).toMatchObject({
        text,
        changed: false,
        usable: false,
        decoded: { status: "truncated" },
      });
    }
    expect(normalizeAnswerArguments("", { finishReason: "tool_calls" })).toMatchObject({
      text: "{}",
      usable: true,
    });
  });

  it("keeps the model's own text for anything that is not an object", () => {
    for (const text of ["{oops", "[1, 2]", "42", '"hi"']) {
      expect(normalizeAnswerArguments(text, { repairs: coreRepairs })).toMatchObject({
        text,
        changed: false,
        usable: false,
      });
    }
    const native = [1, 2];
    expect(normalizeAnswerArguments(native)).toMatchObject({ text: native, usable: false });
  });

  it("says a raw sentinel left by an earlier stage cannot run, and leaves it as it is", () => {
    const text = '{"_raw_arguments": "{\\"city\\": \\"Par"}';
    expect(normalizeAnswerArguments(text)).toMatchObject({ text, changed: false, usable: false });
  });

  it("never turns unusable text into text that parses to an object", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.json().map((json) => json.slice(0, Math.max(1, json.length - 1))),
        ),
        fc.constantFrom("stop", "length", "tool_calls", null),
        (text, finishReason) => {
          const answer = normalizeAnswerArguments(text, { repairs: coreRepairs, finishReason });
          if (!answer.usable) {
            expect(answer.text).toBe(text);
            expect(answer.changed).toBe(false);
          } else {
            const parsed = JSON.parse(answer.text as string);
            expect(typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)).toBe(true);
          }
          if (finishReason === "length" && answer.decoded.status === "repaired")
            throw new Error("repaired a cut");
        },
      ),
    );
  });
});
