import { createWorkMeter } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type GemmaStreamEvent, GemmaToolCallStream } from "./gemma-tool-call-stream.js";
import { parseGemmaToolCalls } from "./parse-gemma-tool-calls.js";

function counter(): () => string {
  let n = 0;
  return () => `call_${++n}`;
}

/** Feeds the pieces in order; returns every event and, for each event, how many pieces had been fed. */
function feed(pieces: string[]): { events: GemmaStreamEvent[]; at: number[] } {
  const stream = new GemmaToolCallStream({ createId: counter() });
  const events: GemmaStreamEvent[] = [];
  const at: number[] = [];
  pieces.forEach((piece, i) => {
    for (const event of stream.push(piece)) {
      events.push(event);
      at.push(i + 1);
    }
  });
  for (const event of stream.end()) {
    events.push(event);
    at.push(pieces.length + 1);
  }
  return { events, at };
}

function summarize(events: GemmaStreamEvent[]) {
  const content = events.map((e) => (e.type === "content" ? e.text : "")).join("");
  const calls = events.flatMap((e) =>
    e.type === "tool_call" ? [[e.toolCall.function.name, e.toolCall.function.arguments]] : [],
  );
  const issues = events.flatMap((e) => (e.type === "issue" ? [e.issue.code] : []));
  return { content, calls, issues };
}

function whole(text: string) {
  const result = parseGemmaToolCalls(text, { createId: counter() });
  return {
    content: result.content ?? "",
    calls: result.toolCalls.map((c) => [c.function.name, c.function.arguments]),
    issues: result.issues.map((i) => i.code),
  };
}

const SAMPLES = [
  'Let me look.<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|>',
  '<|channel>thought\nuse <|tool_call>call:x{}<tool_call|><channel|>ok <|tool_call>call:a{s:<|"|>x<tool_call|>y<|"|>}<tool_call|><|tool_call>call:b{}<tool_call|> end',
  'A < B and <| is not a token. <|tool_call>call:f{a:<|"|>x<|"|>b:1}<tool_call|>',
  "cut <|tool_call>call:f{a:1",
  '<|tool_call>call:f{code:<|"|>sql(<|"|><|"|><|"|> x <|"|><|"|><|"|>)<|"|>,n:1}<tool_call|>',
];

describe("GemmaToolCallStream", () => {
  it("gives the same content, calls and issues as the whole text, for a split at every position", () => {
    for (const text of SAMPLES) {
      const expected = whole(text);
      for (let i = 0; i <= text.length; i++) {
        expect(summarize(feed([text.slice(0, i), text.slice(i)]).events), `${text} split at ${i}`).toEqual(
          expected,
        );
      }
    }
  });

  it("gives the same answer however the text is cut into deltas", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SAMPLES), fc.array(fc.nat(), { maxLength: 12 }), (text, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const pieces: string[] = [];
        let last = 0;
        for (const p of points) {
          pieces.push(text.slice(last, p));
          last = p;
        }
        pieces.push(text.slice(last));
        expect(summarize(feed(pieces).events)).toEqual(whole(text));
      }),
    );
  });

  it("passes plain content on at once, holding back only what may start a special token", () => {
    const stream = new GemmaToolCallStream();
    expect(stream.push("Hello")).toEqual([{ type: "content", text: "Hello" }]);
    expect(stream.push(" wor<")).toEqual([{ type: "content", text: " wor" }]);
    expect(stream.push("|tool")).toEqual([]);
    expect(stream.push("box")).toEqual([{ type: "content", text: "<|toolbox" }]);
    expect(stream.push("<|channel>thinking <|tool_")).toEqual([
      { type: "content", text: "<|channel>thinking <|tool_" },
    ]);
    expect(stream.push("call> still thought <chan")).toEqual([
      { type: "content", text: "call> still thought " },
    ]);
    expect(stream.push("nel|>")).toEqual([{ type: "content", text: "<channel|>" }]);
    expect(stream.end()).toEqual([]);
  });

  it("emits a call as soon as its closing token arrives", () => {
    const text = 'x<|tool_call>call:f{a:<|"|>1<|"|>}<tool_call|>y';
    const { events, at } = feed([...text]);
    const index = events.findIndex((e) => e.type === "tool_call");
    expect(at[index]).toBe(text.indexOf("<tool_call|>") + "<tool_call|>".length);
  });

  it("passes the rest on as content, unread, once its work budget runs out", () => {
    const text = 'a<|tool_call>call:f{s:<|"|>x<|"|>}<tool_call|>b<|tool_call>call:g{}<tool_call|>c';
    const generous = summarize(feed([text]).events);
    expect(generous.calls).toHaveLength(2);
    const meter = createWorkMeter({ limit: 60 });
    const stream = new GemmaToolCallStream({ meter, createId: counter() });
    const events = [...stream.push(text.slice(0, 50)), ...stream.push(text.slice(50))];
    // Once spent, later text is passed on as it comes.
    expect(stream.push("more")).toEqual([{ type: "content", text: "more" }]);
    events.push(...stream.end());
    const result = summarize(events);
    expect(result.issues).toEqual(["gemma_budget_exhausted"]);
    // Nothing is lost: every character is in content or in a call.
    const raws = events.flatMap((e) => (e.type === "tool_call" ? [e.raw] : []));
    expect(raws.length).toBeLessThan(2);
    expect(result.content.length + raws.join("").length).toBe(text.length);
    const whole = parseGemmaToolCalls(text, { meter: createWorkMeter({ limit: 0 }) });
    expect(whole).toMatchObject({
      toolCalls: [],
      content: text,
      issues: [{ code: "gemma_budget_exhausted" }],
    });
  });

  it("takes anything as a delta or an id maker without throwing", () => {
    const throwing = new GemmaToolCallStream({
      createId: () => {
        throw new Error("no ids today");
      },
    });
    const events = [
      ...throwing.push(null as unknown as string),
      ...throwing.push({} as unknown as string),
      ...throwing.push("<|tool_call>call:f{a:1}<tool_call|>"),
      ...throwing.end(),
    ];
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: "tool_call", toolCall: { function: { name: "f" } } });
    expect((events[0] as { toolCall: { id: string } }).toolCall.id).toMatch(/^call_/);
  });
});
