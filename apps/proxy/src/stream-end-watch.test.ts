import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { StreamEndWatch } from "./stream-end-watch.js";

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;

function watched(api: "chat.completions" | "responses", text: string, cuts: number[]): boolean {
  const bytes = Buffer.from(text, "utf8");
  const watch = new StreamEndWatch(api);
  let from = 0;
  for (const cut of [...cuts.map((c) => c % (bytes.length + 1)).sort((a, b) => a - b), bytes.length]) {
    watch.push(bytes.subarray(from, Math.max(from, cut)));
    from = Math.max(from, cut);
  }
  return watch.finished;
}

describe("StreamEndWatch", () => {
  it("property: a finish reason or [DONE] is found however the bytes are split; markers inside content never count", () => {
    const content = fc.constantFrom(
      "plain",
      "data: [DONE]",
      '"finish_reason":"stop"',
      "\ndata: [DONE]\n",
      '"response.completed"',
    );
    fc.assert(
      fc.property(
        fc.array(content, { maxLength: 6 }),
        fc.constantFrom("none", "finish", "done", "finish-spaced"),
        fc.array(fc.nat(), { maxLength: 8 }),
        (contents, ending, cuts) => {
          let text = contents.map((c) => chunk({ content: c })).join("");
          if (ending === "finish") text += chunk({}, "stop");
          if (ending === "finish-spaced")
            text += 'data: {"choices": [{"index": 0, "delta": {}, "finish_reason": "length"}]}\n\n';
          if (ending === "done") text += "data: [DONE]\n\n";
          expect(watched("chat.completions", text, cuts)).toBe(ending !== "none");
        },
      ),
    );
  });

  it("property: on any bytes made of the markers' parts, the verdict is the whole text's, however it is split", () => {
    // The whole text read at once: a `data: [DONE]` line (one optional space), or the last "finish_reason" has a
    // string value. The parts are those of the markers, so near misses and repeats are common.
    const reference = (text: string): boolean => {
      if (/(^|[\n\r])data: ?\[DONE\]/.test(text)) return true;
      const at = text.lastIndexOf('"finish_reason"');
      return at !== -1 && /^[ \t]{0,2}:[ \t]{0,2}"/.test(text.slice(at + 15));
    };
    const part = fc.constantFrom(
      '"finish_reason"',
      "finish_reason",
      '"finish',
      '_reason"',
      ":",
      ' "',
      "null",
      '"stop"',
      "data: ",
      "data:",
      "[DONE]",
      "[DON",
      "E]",
      "D",
      "_",
      "\n",
      "\r",
      "x",
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 30 }), fc.array(fc.nat(), { maxLength: 8 }), (parts, cuts) => {
        const text = parts.join("");
        expect(watched("chat.completions", text, cuts)).toBe(reference(text));
      }),
      { numRuns: 3000 },
    );
  });

  it("reads the Responses API's terminal events, and a null finish reason is not one", () => {
    expect(
      watched("responses", 'event: response.completed\ndata: {"type":"response.completed"}\n\n', [7, 30]),
    ).toBe(true);
    expect(
      watched(
        "responses",
        'data: {"type":"response.output_text.delta","delta":"\\"response.completed\\""}\n\n',
        [],
      ),
    ).toBe(false);
    expect(watched("chat.completions", chunk({ content: "x" }, null), [3])).toBe(false);
  });

  it("a choice that finished while another goes on is not the end; the last finish is, however the bytes are split", () => {
    const choice = (index: number, delta: object, finish: string | null) =>
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
    const cut = choice(0, {}, "stop") + choice(1, { content: "still" }, null);
    const whole = `${cut}${choice(1, {}, "length")}`;
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 8 }), (cuts) => {
        expect(watched("chat.completions", cut, cuts)).toBe(false);
        expect(watched("chat.completions", whole, cuts)).toBe(true);
        expect(watched("chat.completions", `${cut}data: [DONE]\n\n`, cuts)).toBe(true);
      }),
    );
  });
});
