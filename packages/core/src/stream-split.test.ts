import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { countWork } from "../test/linear-work.js";
import { CallIds } from "./call-ids.js";
import { normalizeAnswerArguments } from "./normalize-answer-arguments.js";
import { coreRepairs } from "./repairs/index.js";
import { StreamDecider, type StreamEvent } from "./stream-decider.js";
import type { WorkMeter } from "./work-budget.js";

/** The calls a client holds after these events, in the order their headers came: id, index, whole text. */
function clientCalls(events: readonly StreamEvent[]): { id: string; index: number; text: string }[] {
  const calls = new Map<number, { id: string; index: number; text: string }>();
  const order: { id: string; index: number; text: string }[] = [];
  for (const event of events) {
    const position = event.call.position;
    if (event.type === "open") {
      const call = { id: event.call.call.id ?? "", index: event.call.clientIndex, text: event.text };
      calls.set(position, call);
      order.push(call);
    } else if (event.type === "text") (calls.get(position) as { text: string }).text += event.text;
    else {
      (calls.get(position) as { text: string }).text += event.decision.rest;
      // A split call: the calls it became follow it, each whole.
      for (const part of event.decision.split?.slice(1) ?? [])
        order.push({ id: part.id, index: part.index, text: part.arguments });
    }
  }
  return order;
}

/** The calls a whole answer holds after the same rule: one per object, the first keeping the id. */
function wholeCalls(calls: readonly { id: string; text: string }[]): { id: string; text: string }[] {
  const ids = new CallIds();
  for (const call of calls) ids.add(call.id);
  return calls.flatMap((call) => {
    const answer = normalizeAnswerArguments(call.text, { repairs: coreRepairs, finishReason: "tool_calls" });
    if (answer.split === undefined)
      return [{ id: call.id, text: answer.usable ? (answer.text as string) : call.text }];
    return answer.split.map((text, at) => ({ id: at === 0 ? call.id : ids.fresh(call.id), text }));
  });
}

/** A call's text as a value to compare: parsed when it is JSON, else the text itself (an unusable call keeps it). */
function read(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function stream(args: {
  calls: readonly { id: string; text: string }[];
  cuts: readonly number[];
}): StreamEvent[] {
  const decider = new StreamDecider({ repairs: coreRepairs, splitMergedCalls: true });
  const events: StreamEvent[] = [];
  for (const [index, call] of args.calls.entries()) {
    events.push(...decider.push({ index, id: call.id, name: "search" }));
    let at = 0;
    for (const cut of [...args.cuts.filter((c) => c < call.text.length)].sort((a, b) => a - b)) {
      events.push(...decider.push({ index, arguments: call.text.slice(at, cut) }));
      at = cut;
    }
    events.push(...decider.push({ index, arguments: call.text.slice(at) }));
  }
  events.push(...decider.finish("tool_calls"));
  return events;
}

describe("StreamDecider splits merged calls (splitMergedCalls)", () => {
  it("gives one call per object, the first with the call's id, the others fresh ids and new indexes", () => {
    const events = stream({
      calls: [
        { id: "call_1", text: '{"query":"first"}{"query":"second"}{"query":"third"}' },
        { id: "call_2", text: '{"query":"fourth"}' },
      ],
      cuts: [5, 17, 20],
    });
    expect(clientCalls(events)).toEqual([
      { id: "call_1", index: 0, text: '{"query":"first"}' },
      { id: "call_1_2", index: 2, text: '{"query":"second"}' },
      { id: "call_1_3", index: 3, text: '{"query":"third"}' },
      { id: "call_2", index: 1, text: '{"query":"fourth"}' },
    ]);
    const decided = events.find((event) => event.type === "decided");
    expect(decided?.type === "decided" && decided.decision).toMatchObject({ usable: true, changed: true });
  });

  it("keeps today's rule without the option, for a repeated object and after a length stop", () => {
    const off = new StreamDecider({ repairs: coreRepairs });
    off.push({ index: 0, id: "c", name: "f", arguments: '{"a":1}{"b":2}' });
    const [decided] = off.finish("tool_calls");
    expect(decided?.type === "decided" && decided.decision).toMatchObject({ usable: false });
    expect(decided?.type === "decided" && decided.decision.split).toBeUndefined();
    for (const [text, reason] of [
      ['{"a":1}{"a":1}', "tool_calls"],
      ['{"a":1}{"b":2}', "length"],
    ] as const) {
      const on = new StreamDecider({ repairs: coreRepairs, splitMergedCalls: true });
      on.push({ index: 0, id: "c", name: "f", arguments: text });
      const [last] = on.finish(reason);
      expect(last?.type === "decided" && last.decision.split).toBeUndefined();
    }
  });

  it("types a streamed call by its tool's schema where its values were not handed on yet", () => {
    const schema = { type: "object", properties: { id: { type: "string" } } };
    const tools = [{ type: "function", function: { name: "f", parameters: schema } }];
    // Held from its first piece (a Python literal): decided whole, typed as a whole answer is.
    const held = new StreamDecider({ tools, repairs: coreRepairs });
    held.push({ index: 0, id: "c", name: "f", arguments: "{'id': 3}" });
    const [typed] = held.finish("tool_calls");
    expect(typed?.type === "decided" && typed.decision).toMatchObject({ usable: true, text: '{"id":"3"}' });
    // Handed on as it came: the value is the client's already; the call goes untyped, still usable.
    const sent = new StreamDecider({ tools });
    sent.push({ index: 0, id: "c", name: "f", arguments: '{"id": 3}' });
    const [untyped] = sent.finish("tool_calls");
    expect(untyped?.type === "decided" && untyped.decision).toMatchObject({
      usable: true,
      text: '{"id": 3}',
      rest: "",
    });
  });

  it("whole ≡ stream: however the text is cut, the client holds the calls a whole answer holds", () => {
    const object = fc.dictionary(
      fc.constantFrom("a", "b", "query", "n"),
      fc.oneof(fc.integer(), fc.string()),
      {
        minKeys: 1,
        maxKeys: 3,
      },
    );
    fc.assert(
      fc.property(
        fc.array(fc.array(object, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(60), { maxLength: 6 }),
        (groups, cuts) => {
          const calls = groups.map((objects, i) => ({
            id: `call_${i}`,
            text: objects.map((value) => JSON.stringify(value)).join(""),
          }));
          const streamed = clientCalls(stream({ calls, cuts })).map(({ id, text }) => ({
            id,
            text: read(text),
          }));
          const whole = wholeCalls(calls).map(({ id, text }) => ({ id, text: read(text) }));
          expect(streamed).toEqual(whole);
        },
      ),
      // The first example: a delta ending between two equal objects of `{A}{A}{B}` (not unique, so one call).
      {
        numRuns: 300,
        examples: [[[[{ b: "" }, { b: "" }, { a: 0 }]], [8, 16]]],
      },
    );
  });

  it("a frame repeating the text so far is a repeat only at the call's end: `{A}` `{A}` `{B}` stays one call", () => {
    const events = stream({ calls: [{ id: "c", text: '{"b":""}{"b":""}{"a":0}' }], cuts: [8, 16] });
    expect(clientCalls(events)).toEqual([{ id: "c", index: 0, text: '{"b":""}{"b":""}{"a":0}' }]);
    const decided = events.find((event) => event.type === "decided");
    expect(decided?.type === "decided" && decided.decision).toMatchObject({ usable: false });
    expect(decided?.type === "decided" && decided.decision.repeats).toBeUndefined();
    // At the call's end the same frame is R9's repeat, left out and named.
    const final = stream({ calls: [{ id: "c", text: '{"b":""}{"b":""}' }], cuts: [8] });
    expect(clientCalls(final)).toEqual([{ id: "c", index: 0, text: '{"b":""}' }]);
  });
});

describe("StreamDecider split work", () => {
  const merged = (count: number) => (meter: WorkMeter) => {
    const decider = new StreamDecider({ repairs: coreRepairs, splitMergedCalls: true, meter });
    // Every call reuses one id, the worst case for fresh ids: each split call probes from where the last stopped.
    for (let index = 0; index < count; index++)
      decider.push({ index, id: "call", name: "f", arguments: `{"a":${index}}{"b":${index}}` });
    const decided = decider.finish("tool_calls").filter((event) => event.type === "decided");
    expect(decided.every((event) => event.type === "decided" && event.decision.split?.length === 2)).toBe(
      true,
    );
  };

  it("costs work linear in the number of split calls", () => {
    const small = countWork(merged(1_000));
    const large = countWork(merged(16_000));
    expect(small).toBeGreaterThan(0);
    // 16 times the calls, at most 17 times the work.
    expect(large).toBeLessThanOrEqual(17 * small);
  });
});
