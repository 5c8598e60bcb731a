import { coreRepairs } from "@toolcall/core";
import type { RepairRule } from "@toolcall/core/kit";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type RepairedResponseBody, repairResponseBody, repairResponseBodySteps } from "../src/exchange.js";
import { type OpenAIApi, RESPONSE_STEP_SIZE } from "../src/index.js";
import { fixture } from "./server.js";

const REPAIRS: readonly RepairRule[] = [gemmaQuoteMarkers, ...coreRepairs];
const FIXTURES = [
  "chat-double-encoded.json",
  "chat-empty-arguments.json",
  "chat-gemma-leak.json",
  "chat-invalid-json.json",
  "chat-length-stop.json",
  "chat-null-arguments.json",
  "chat-parallel.json",
  "responses-function-calls.json",
];

/** Every rule counting its calls. */
function counted(calls: { n: number }): RepairRule[] {
  return REPAIRS.map((rule) => ({
    ...rule,
    repair: (text, context) => {
      calls.n++;
      return rule.repair(text, context);
    },
  }));
}

/** Drives the steps one `next()` at a time, as a server does one per turn of its event loop. */
function stepwise(steps: Generator<void, RepairedResponseBody, void>, onStep?: () => void) {
  let yields = 0;
  for (;;) {
    const next = steps.next();
    onStep?.();
    if (next.done === true) return { result: next.value, yields };
    yields++;
  }
}

const argumentsText = fc.oneof(
  fc.json(),
  fc.string(),
  fc.constantFrom(
    "",
    "null",
    "{invalid",
    '{"a": 12345678901234567891, "b": 1.0,}',
    '```json\n{"a":1}\n```',
    "{'a': True}",
    '{"a":<|"|>x<|"|>}',
    '"{\\"a\\":3}"',
    '{"é": "日本語 🙂",}',
  ),
);
const chatBody = fc
  .record({
    choices: fc.array(
      fc.record({
        content: fc.option(fc.string({ unit: "grapheme" }), { nil: null }),
        calls: fc.array(argumentsText, { maxLength: 4 }),
        finish: fc.constantFrom("stop", "tool_calls", "length"),
      }),
      { minLength: 1, maxLength: 3 },
    ),
    seed: fc.constantFrom(1, 12345678901234567891n, 1.5),
  })
  .map(({ choices, seed }) =>
    JSON.stringify({
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: choices.map((choice, index) => ({
        index,
        message: {
          role: "assistant",
          content: choice.content,
          ...(choice.calls.length === 0
            ? {}
            : {
                tool_calls: choice.calls.map((text, i) => ({
                  id: `t${i}`,
                  type: "function",
                  function: { name: "f", arguments: text },
                })),
              }),
        },
        finish_reason: choice.finish,
        logprobs: null,
      })),
    }).replace('"created":1', `"created":1,"seed":${seed}`),
  );
const responsesBody = fc.array(argumentsText, { maxLength: 4 }).map((calls) =>
  JSON.stringify({
    id: "r",
    object: "response",
    status: "completed",
    output: calls.map((text, i) => ({
      type: "function_call",
      id: `fc${i}`,
      call_id: `c${i}`,
      name: "f",
      arguments: text,
      status: "completed",
    })),
  }),
);
const bodyCase = fc.oneof(
  chatBody.map((text) => ({ api: "chat.completions" as OpenAIApi, bytes: new TextEncoder().encode(text) })),
  responsesBody.map((text) => ({ api: "responses" as OpenAIApi, bytes: new TextEncoder().encode(text) })),
  // Anything at all, invalid UTF-8 included.
  fc
    .tuple(fc.constantFrom<OpenAIApi>("chat.completions", "responses"), fc.uint8Array({ maxLength: 200 }))
    .map(([api, bytes]) => ({ api, bytes })),
);

describe("repairResponseBodySteps", () => {
  it("gives the one-shot result for any body, whatever the step size, steps of several answers interleaved", () => {
    fc.assert(
      fc.property(
        bodyCase,
        bodyCase,
        fc.constantFrom(1, 2, 7, 64, RESPONSE_STEP_SIZE),
        (first, second, stepSize) => {
          const options = { repairs: REPAIRS };
          const a = repairResponseBodySteps({ ...first, body: first.bytes, options, stepSize });
          const b = repairResponseBodySteps({ ...second, body: second.bytes, options, stepSize });
          // One step of each in turn, as two requests sharing a server would go.
          let nextA = a.next();
          let nextB = b.next();
          while (nextA.done !== true || nextB.done !== true) {
            if (nextA.done !== true) nextA = a.next();
            if (nextB.done !== true) nextB = b.next();
          }
          expect(nextA.value).toEqual(repairResponseBody({ api: first.api, body: first.bytes, options }));
          expect(nextB.value).toEqual(repairResponseBody({ api: second.api, body: second.bytes, options }));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("gives the one-shot result on the recorded answers, byte for byte", () => {
    for (const name of FIXTURES) {
      const body = new Uint8Array(fixture(name));
      const api: OpenAIApi = name.startsWith("responses") ? "responses" : "chat.completions";
      const oneShot = repairResponseBody({ api, body, options: { repairs: REPAIRS } });
      for (const stepSize of [1, 16, 1024]) {
        const { result } = stepwise(
          repairResponseBodySteps({ api, body, options: { repairs: REPAIRS }, stepSize }),
        );
        expect(result, `${name} in steps of ${stepSize}`).toEqual(oneShot);
      }
    }
  });

  it("repairs a small answer with no yield", () => {
    const body = new Uint8Array(fixture("chat-gemma-leak.json"));
    const { result, yields } = stepwise(
      repairResponseBodySteps({ api: "chat.completions", body, options: { repairs: REPAIRS } }),
    );
    expect(result).toMatchObject({ ok: true, changed: true });
    expect(yields).toBe(0);
  });

  it("splits a 1 MiB answer of Gemma quote markers: the body in slices, never more than one repair rule per step", () => {
    const markers = '<|"|>'.repeat((1024 * 1024) / 5);
    const body = new TextEncoder().encode(
      JSON.stringify({
        id: "x",
        object: "chat.completion",
        created: 1,
        model: "m",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: null,
              tool_calls: [{ id: "t", type: "function", function: { name: "f", arguments: markers } }],
            },
            finish_reason: "stop",
            logprobs: null,
          },
        ],
      }),
    );
    const calls = { n: 0 };
    const perStep: number[] = [];
    let before = 0;
    const { result, yields } = stepwise(
      repairResponseBodySteps({ api: "chat.completions", body, options: { repairs: counted(calls) } }),
      () => {
        perStep.push(calls.n - before);
        before = calls.n;
      },
    );
    // Every rule ran (none makes an object of it), one per step at most.
    expect(calls.n).toBe(REPAIRS.filter((rule) => rule.id !== "jsonrepair").length);
    expect(Math.max(...perStep)).toBe(1);
    // The decode alone takes one yield per step's worth of bytes; each rule one more.
    expect(yields).toBeGreaterThanOrEqual(Math.floor(body.length / RESPONSE_STEP_SIZE) + calls.n);
    expect(result).toEqual(
      repairResponseBody({ api: "chat.completions", body, options: { repairs: REPAIRS } }),
    );
    expect(result).toMatchObject({ ok: true, changed: false });
  });
});
