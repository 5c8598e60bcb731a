import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyValue, build } from "../test/hostile-values.js";
import { countWork } from "../test/linear-work.js";
import { coreRepairs } from "./repairs/index.js";
import { type StreamCallDelta, StreamDecider, type StreamEvent } from "./stream-decider.js";

/** What a client holds per call after these events: header order and the text its pieces add up to. */
function received(events: readonly StreamEvent[]): { order: number[]; texts: Map<number, string> } {
  const order: number[] = [];
  const texts = new Map<number, string>();
  for (const event of events) {
    const position = event.call.position;
    if (event.type === "open") {
      order.push(position);
      texts.set(position, event.text);
    } else if (event.type === "text") texts.set(position, (texts.get(position) ?? "") + event.text);
    else texts.set(position, (texts.get(position) ?? "") + event.decision.rest);
  }
  return { order, texts };
}

function run(deltas: readonly StreamCallDelta[], finishReason: string | null = "tool_calls"): StreamEvent[] {
  const decider = new StreamDecider({ repairs: coreRepairs });
  const events: StreamEvent[] = [];
  for (const delta of deltas) for (const event of decider.push(delta)) events.push(event);
  for (const event of decider.finish(finishReason)) events.push(event);
  return events;
}

describe("StreamDecider", () => {
  it("hands clean calls on as they came and decides each once the next begins", () => {
    const decider = new StreamDecider();
    expect(decider.push({ index: 0, id: "a", name: "f", arguments: '{"x":' })).toMatchObject([
      { type: "open", text: '{"x":', own: true },
    ]);
    expect(decider.push({ index: 0, arguments: "1}" })).toMatchObject([
      { type: "text", text: "1}", own: true },
    ]);
    const next = decider.push({ index: 1, id: "b", name: "g", arguments: "{}" });
    expect(next.map((event) => event.type)).toEqual(["decided", "open"]);
    expect(next[0]).toMatchObject({ type: "decided", decision: { rest: "", usable: true, notable: false } });
    const end = decider.finish("tool_calls");
    expect(end).toMatchObject([{ type: "decided", call: { position: 1 }, decision: { text: "{}" } }]);
    expect(decider.open).toBe(false);
  });

  it("holds later calls behind a held one and releases them, in order, once it is decided", () => {
    const events = run([
      { index: 0, id: "a", name: "f", arguments: "{'city': " },
      { index: 0, arguments: "'Paris'}" },
      { index: 1, id: "b", name: "g", arguments: '{"n":' },
      { index: 1, arguments: "2}" },
    ]);
    // b reached the client only at the finish, after a was decided.
    expect(events.map((event) => `${event.type}:${event.call.position}`)).toEqual([
      "open:0",
      "text:0",
      "decided:0",
      "open:1",
      "decided:1",
    ]);
    const { order, texts } = received(events);
    expect(order).toEqual([0, 1]);
    expect(texts.get(0)).toBe('{"city":"Paris"}');
    expect(texts.get(1)).toBe('{"n":2}');
  });

  it("decides a held call whose text is whole JSON when the next call begins, and releases the next", () => {
    const decider = new StreamDecider();
    decider.push({ index: 0, id: "a", name: "f", arguments: '{"t":"a <' });
    decider.push({ index: 0, arguments: '"}' });
    const events = decider.push({ index: 1, id: "b", name: "g", arguments: "{}" });
    expect(
      events.map((event) => `${event.type}:${event.call.position}:${event.type === "open" ? event.own : ""}`),
    ).toEqual(["decided:0:", "open:1:false"]);
    expect(received(events).texts.get(0)).toBe('{"t":"a <"}');
  });

  it("never repairs a call a length stop cut, and reads a stream without a finish as cut", () => {
    for (const reason of ["length", null]) {
      const events = run([{ index: 0, id: "a", name: "f", arguments: "{'path': '/tmp/a" }], reason);
      const decided = events.find((event) => event.type === "decided");
      expect(decided?.type === "decided" && decided.decision.usable).toBe(false);
      expect(decided?.type === "decided" && decided.decision.answer.decoded.status).toBe("truncated");
      expect(received(events).texts.get(0)).toBe("{'path': '/tmp/a");
    }
  });

  it("decides a call its protocol completes when its text is whole JSON, else at the finish", () => {
    const decider = new StreamDecider({ repairs: coreRepairs });
    decider.push({ index: 0, id: "a", name: "f", arguments: '{"a":1}' });
    expect(decider.complete({ index: 0 })).toMatchObject([
      { type: "decided", decision: { text: '{"a":1}' } },
    ]);
    decider.push({ index: 1, id: "b", name: "f", arguments: "{'a': 1}" });
    expect(decider.complete({ index: 1 })).toEqual([]);
    expect(decider.finish("stop")).toMatchObject([{ type: "decided", decision: { rest: '{"a":1}' } }]);
  });

  it("leaves a final frame repeating the whole arguments out of what the client gets, and keeps it on the decision", () => {
    const whole = '{"city":"Paris"}';
    for (const pieces of [[whole], ['{"city":', '"Paris"}']]) {
      const events = run([
        { index: 0, id: "a", name: "f", arguments: pieces[0] },
        ...pieces.slice(1).map((text) => ({ index: 0, arguments: text })),
        { index: 0, id: "a", name: "f", arguments: whole },
      ]);
      expect(received(events).texts.get(0)).toBe(whole);
      const decided = events.find((event) => event.type === "decided");
      expect(decided).toMatchObject({ decision: { text: whole, notable: true, repeats: [whole] } });
    }
    // A call without a repeat is not notable, and its decision names no repeat.
    const clean = run([{ index: 0, id: "a", name: "f", arguments: whole }]).find((e) => e.type === "decided");
    expect(clean).toMatchObject({ decision: { notable: false } });
    expect(clean?.type === "decided" && clean.decision.repeats).toBeUndefined();
  });

  it("gives later calls reused indexes new client indexes", () => {
    const decider = new StreamDecider();
    decider.push({ index: 0, id: "a", name: "f", arguments: "{}" });
    decider.push({ index: 0, id: "b", name: "f", arguments: "{}" });
    decider.push({ index: 0, id: "c", name: "f", arguments: "{}" });
    expect(decider.calls.map((call) => call.clientIndex)).toEqual([0, 1, 2]);
  });

  it("leaves every call with the decided text, headers in the order calls began, however the text is split", () => {
    const argumentsText = fc.constantFrom(
      '{"a": 1}',
      "{'a': 1}",
      '{"a": "x <',
      "",
      "```json\n{}\n```",
      '{"b": [1',
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(argumentsText, fc.array(fc.nat(10), { maxLength: 4 })), {
          minLength: 1,
          maxLength: 5,
        }),
        fc.constantFrom("tool_calls", "length", null),
        (calls, reason) => {
          const deltas: StreamCallDelta[] = [];
          calls.forEach(([text, cuts], index) => {
            deltas.push({ index, id: `c${index}`, name: "f" });
            let from = 0;
            for (const cut of [...cuts].sort((a, b) => a - b)) {
              if (cut <= from || cut >= text.length) continue;
              deltas.push({ index, arguments: text.slice(from, cut) });
              from = cut;
            }
            deltas.push({ index, arguments: text.slice(from) });
          });
          const events = run(deltas, reason);
          const { order, texts } = received(events);
          expect(order).toEqual(calls.map((_, index) => index));
          const decisions = events.flatMap((event) => (event.type === "decided" ? [event] : []));
          expect(decisions.map((event) => event.call.position)).toEqual(calls.map((_, index) => index));
          for (const event of decisions) expect(texts.get(event.call.position)).toBe(event.decision.text);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("StreamDecider on hostile input", () => {
  it("never throws, and decides every call it began, whatever it is pushed", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            anyValue,
            fc.record(
              { index: fc.oneof(fc.nat(3), anyValue), id: anyValue, name: anyValue, arguments: anyValue },
              { requiredKeys: [] },
            ),
          ),
          { maxLength: 8 },
        ),
        fc.oneof(fc.constantFrom("tool_calls", "length", null), anyValue),
        (recipes, reason) => {
          const decider = new StreamDecider({ repairs: coreRepairs });
          for (const recipe of recipes) {
            expect(Array.isArray(decider.push(build(recipe) as StreamCallDelta))).toBe(true);
            expect(Array.isArray(decider.complete(build(recipe) as { index: number }))).toBe(true);
          }
          decider.finish(build(reason) as string);
          expect(decider.open).toBe(false);
          for (const call of decider.calls) expect(typeof call.decision?.text).toBe("string");
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("StreamDecider work", () => {
  const held =
    (count: number, text = "{'a': 1}") =>
    (meter: Parameters<Parameters<typeof countWork>[0]>[0]) => {
      const decider = new StreamDecider({ repairs: coreRepairs, meter });
      let events = 0;
      for (let index = 0; index < count; index++)
        events += decider.push({ index, id: `c${index}`, name: "f", arguments: text }).length;
      events += decider.finish("tool_calls").length;
      expect(events).toBe(2 * count);
    };
  const clean = (count: number) => (meter: Parameters<Parameters<typeof countWork>[0]>[0]) => {
    const decider = new StreamDecider({ meter });
    for (let index = 0; index < count; index++) {
      decider.push({ index, id: `c${index}`, name: "f", arguments: '{"a":' });
      decider.push({ index, arguments: "1}" });
    }
    decider.finish("tool_calls");
  };

  it("costs work linear in the number of calls, held or clean", () => {
    for (const shape of [held, clean]) {
      const small = countWork(shape(2_000));
      const large = countWork(shape(32_000));
      expect(small).toBeGreaterThan(0);
      // 16 times the calls, at most 17 times the work (a quadratic scan would cost 256 times).
      expect(large).toBeLessThanOrEqual(17 * small);
    }
  });

  it("decides 130 000 held calls without overflowing a call stack", () => {
    // Each held by a special-token opener, so the first holds every later one back until the finish.
    expect(() => countWork(held(130_000, '{"a": "<|"}'))).not.toThrow();
  });
});
