import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectLinearWork } from "../test/linear-work.js";
import { coreRepairs } from "./repairs/index.js";
import { finishReasonAtStreamEnd, ToolCallAccumulator } from "./tool-call-accumulator.js";

const names = (calls: Array<{ name: string }>) => calls.map((c) => c.name);

describe("ToolCallAccumulator.takeCompleted", () => {
  it("hands out a call once the next begins and its text is whole JSON", () => {
    const accumulator = new ToolCallAccumulator();
    accumulator.push({ index: 0, id: "a", function: { name: "f", arguments: '{"x":' } });
    expect(accumulator.takeCompleted()).toEqual([]);
    accumulator.push({ index: 0, function: { arguments: "1}" } });
    expect(accumulator.takeCompleted()).toEqual([]);
    accumulator.push({ index: 1, id: "b", function: { name: "g", arguments: "{}" } });
    expect(names(accumulator.takeCompleted())).toEqual(["f"]);
    expect(accumulator.takeCompleted()).toEqual([]);
    expect(names(accumulator.takeRest())).toEqual(["g"]);
    expect(accumulator.takeRest()).toEqual([]);
  });

  it("holds calls that may still grow (interleaved or broken) for the finish", () => {
    const accumulator = new ToolCallAccumulator();
    accumulator.push([
      { index: 0, id: "a", function: { name: "f" } },
      { index: 1, id: "b", function: { name: "g" } },
    ]);
    expect(accumulator.takeCompleted()).toEqual([]);
    accumulator.push([
      { index: 0, function: { arguments: '{"x":1}' } },
      { index: 1, function: { arguments: "{" } },
    ]);
    accumulator.push({ index: 2, id: "c", function: { name: "h", arguments: "{}" } });
    // f is whole: handed out; g may still grow, so g and everything after it wait.
    expect(names(accumulator.takeCompleted())).toEqual(["f"]);
    expect(names(accumulator.takeRest())).toEqual(["g", "h"]);
  });
});

describe("finishReasonAtStreamEnd", () => {
  it("keeps a stream's own finish reason and reads none as a cut stream (length)", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (reason) => {
        expect(finishReasonAtStreamEnd(reason)).toBe(reason);
      }),
    );
    for (const none of [undefined, null, ""]) expect(finishReasonAtStreamEnd(none)).toBe("length");
  });

  it("makes an accumulator finished without a reason decode broken text as truncated, complete text as objects", () => {
    const accumulator = new ToolCallAccumulator();
    accumulator.push({ index: 0, id: "a", function: { name: "f", arguments: '{"path": "/tmp/a' } });
    accumulator.push({ index: 1, id: "b", function: { name: "f", arguments: '{"path": "/tmp/b"}' } });
    const calls = accumulator.finish({
      finishReason: finishReasonAtStreamEnd(undefined),
      repairs: coreRepairs,
    });
    expect(calls.map((call) => call.decoded.status)).toEqual(["truncated", "object"]);
  });
});

describe("ToolCallAccumulator work", () => {
  it("parses in takeCompleted work linear in the text, when a long broken call is followed by many calls", () => {
    expectLinearWork({
      label: "a broken call, then many",
      make: (n) => `{"a": "${"x".repeat(n / 2)}`,
      run: (broken, meter) => {
        const accumulator = new ToolCallAccumulator({ meter });
        accumulator.push({ index: 0, id: "c0", function: { name: "f", arguments: broken } });
        const count = Math.floor(broken.length / 8);
        for (let i = 1; i <= count; i++) {
          accumulator.push({ index: i, id: `c${i}`, function: { name: "f", arguments: "{}" } });
          accumulator.takeCompleted();
          // The broken call grows now and then, as an interleaving server would make it.
          if (i % 64 === 0) accumulator.push({ index: 0, id: "c0", function: { arguments: "x" } });
        }
        expect(accumulator.takeRest()).toHaveLength(count + 1);
      },
      unitsPerChar: 8,
      sizes: [4096, 65_536],
    });
  });
});
