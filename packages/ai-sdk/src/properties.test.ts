import { coreRepairs } from "@toolcall/core";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import type { ModelMessage } from "ai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { GenerateResult, StreamPart } from "./ai-sdk-types.js";
import { fromNeutralMessages } from "./from-neutral-messages.js";
import { repairGenerateResult } from "./repair-generate-result.js";
import { repairToolCallStream } from "./repair-tool-call-stream.js";
import { sanitizeModelMessages } from "./sanitize-model-messages.js";
import { toNeutralMessages } from "./to-neutral-messages.js";

const repairs = [...coreRepairs, gemmaQuoteMarkers];
const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

/** Arguments as models send them: JSON object text in any spacing, and every malformation seen in the wild. */
const argumentsText = fc.oneof(
  fc
    .tuple(fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 }), fc.constantFrom(undefined, 1, "\t"))
    .map(([value, indent]) => JSON.stringify(JSON.parse(JSON.stringify(value)), null, indent)),
  fc.constantFrom(
    "",
    " ",
    "null",
    "42",
    "[1, 2]",
    '"{\\"a\\":1}"',
    "{invalid",
    '{"a": ',
    "{'a': True, 'b': None}",
    '```json\n{"a":1}\n```',
    '{"a":1}{"a":1}',
    '{"a":1,}',
    '{"a":1}</tool_call>',
    '{"date": "<|\\"|"2023-09-18<|\\""}',
  ),
  fc.string(),
);

/** Cuts `text` at the given points (deduplicated, in order) into pieces that join back to it. */
/** Whether a piece is the whole text of the pieces before it (R9's repeated final frame). */
function repeatsWhatCameBefore(pieces: readonly string[]): boolean {
  let before = "";
  for (const piece of pieces) {
    if (before !== "" && piece === before) return true;
    before += piece;
  }
  return false;
}

function piecesOf(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    pieces.push(text.slice(from, point));
    from = point;
  }
  return pieces.filter((piece, index) => piece !== "" || index === pieces.length - 1);
}

const answer = fc.record({
  text: fc.string(),
  textCuts: fc.array(fc.nat(), { maxLength: 4 }),
  calls: fc.array(
    fc.record({ args: argumentsText, cuts: fc.array(fc.nat(), { maxLength: 4 }), late: fc.boolean() }),
    {
      minLength: 1,
      maxLength: 3,
    },
  ),
  finish: fc.constantFrom("tool-calls", "length", "stop", "error"),
});

type Answer = typeof answer extends fc.Arbitrary<infer T> ? T : never;

function wholeOf(generated: Answer): GenerateResult {
  return {
    content: [
      { type: "text", text: generated.text },
      ...generated.calls.map((call, i) => ({
        type: "tool-call" as const,
        toolCallId: `call_${i}`,
        toolName: `tool_${i}`,
        input: call.args,
      })),
    ],
    finishReason: { unified: generated.finish as "stop", raw: generated.finish },
    usage: USAGE,
    warnings: [],
  };
}

/** The same answer as stream parts: text and input deltas cut anywhere; a call's `tool-call` right after its input, or (late) at the end. */
function partsOf(generated: Answer): StreamPart[] {
  const parts: StreamPart[] = [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
  ];
  for (const piece of piecesOf(generated.text, generated.textCuts))
    parts.push({ type: "text-delta", id: "t", delta: piece });
  parts.push({ type: "text-end", id: "t" });
  const late: StreamPart[] = [];
  generated.calls.forEach((call, i) => {
    const id = `call_${i}`;
    parts.push({ type: "tool-input-start", id, toolName: `tool_${i}` });
    for (const piece of piecesOf(call.args, call.cuts))
      parts.push({ type: "tool-input-delta", id, delta: piece });
    parts.push({ type: "tool-input-end", id });
    const part: StreamPart = { type: "tool-call", toolCallId: id, toolName: `tool_${i}`, input: call.args };
    (call.late ? late : parts).push(part);
  });
  parts.push(...late, {
    type: "finish",
    usage: USAGE,
    finishReason: { unified: generated.finish as "stop", raw: generated.finish },
  });
  return parts;
}

async function runStream(parts: readonly StreamPart[]): Promise<StreamPart[]> {
  const source = new ReadableStream<StreamPart>({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
  const out: StreamPart[] = [];
  for await (const part of repairToolCallStream({ stream: source, repairs })) out.push(part);
  return out;
}

describe("properties", () => {
  it("a whole answer and its stream, split anywhere, give the same calls and the same report; nothing is mutated", async () => {
    await fc.assert(
      fc.asyncProperty(answer, async (generated) => {
        // A delta that repeats the whole text before it is a final frame repeating the complete arguments, which a
        // stream does not append twice (RULES.md R9): there the stream's text and the answer's text differ by design.
        fc.pre(generated.calls.every((call) => !repeatsWhatCameBefore(piecesOf(call.args, call.cuts))));
        const whole = deepFreeze(wholeOf(generated));
        const parts = deepFreeze(partsOf(generated));
        const repaired = repairGenerateResult({ result: whole, repairs });
        const streamed = await runStream(parts);
        // The same calls; in the stream, in the order they arrived (a late call comes after the ones before it).
        const calls = (list: readonly { type: string }[]) =>
          list.filter((part) => part.type === "tool-call") as unknown as Array<{ toolCallId: string }>;
        const byId = (list: Array<{ toolCallId: string }>) =>
          [...list].sort((a, b) => a.toolCallId.localeCompare(b.toolCallId));
        expect(byId(calls(streamed))).toEqual(byId(calls(repaired.content)));
        expect(calls(streamed).map((call) => call.toolCallId)).toEqual(
          calls(parts).map((call) => call.toolCallId),
        );
        const finish = streamed.find((part) => part.type === "finish") as { providerMetadata?: unknown };
        const summary = (metadata: unknown) => {
          const calls = (metadata as { toolcall?: { calls: Array<{ id: string }> } } | undefined)?.toolcall
            ?.calls;
          return calls === undefined
            ? undefined
            : byId(calls.map(({ id, ...rest }) => ({ toolCallId: id, ...rest })));
        };
        expect(summary(finish.providerMetadata)).toEqual(summary(repaired.providerMetadata));
        // Parts other than a call's pass as they came, in order.
        const isCallPart = (part: StreamPart) =>
          part.type === "tool-call" || part.type.startsWith("tool-input-");
        expect(streamed.filter((part) => !isCallPart(part) && part.type !== "finish")).toEqual(
          parts.filter((part) => !isCallPart(part) && part.type !== "finish"),
        );
        // A call's input deltas are decided too: they add up to the input its tool-call part carries (the same JSON
        // value for a call a tool can run on; the model's own text for one it cannot).
        for (const call of calls(streamed) as unknown as Array<{ toolCallId: string; input: string }>) {
          const deltas = streamed.flatMap((part) =>
            part.type === "tool-input-delta" && part.id === call.toolCallId ? [part.delta] : [],
          );
          if (deltas.length === 0) continue;
          const report = (
            call as { providerMetadata?: { toolcall?: { usable?: boolean; raw?: string; status?: string } } }
          ).providerMetadata?.toolcall;
          const joined = deltas.join("");
          if (report?.usable === false) expect(joined).toBe(report.raw);
          // Deltas already sent that cannot begin the repaired input (`{"a":1,` before a `}` the repair drops): they
          // add up to the model's text, and the tool-call part still carries the repaired input.
          else if (joined === report?.raw && report.status === "repaired")
            expect(call.input).not.toBe(joined);
          else expect(JSON.parse(joined)).toEqual(JSON.parse(call.input));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("a call cut by a length stop or an error is never made usable", async () => {
    await fc.assert(
      fc.asyncProperty(answer, async (generated) => {
        const cut = { ...generated, finish: "length" as const };
        const repaired = repairGenerateResult({ result: wholeOf(cut), repairs });
        for (const part of repaired.content) {
          if (part.type !== "tool-call") continue;
          const report = part.providerMetadata?.toolcall as { usable?: boolean } | undefined;
          let parses = false;
          try {
            const value = JSON.parse(part.input);
            parses = typeof value === "object" && value !== null && !Array.isArray(value);
          } catch {}
          // Usable means it parsed as an object before any repair, or a repair that needs no completion fixed it.
          if (report?.usable === true || report === undefined) expect(parses).toBe(true);
        }
      }),
    );
  });
});

const name = fc.stringMatching(/^[a-zA-Z0-9_-]{1,20}$/);
const input = fc
  .dictionary(fc.string(), fc.jsonValue(), { maxKeys: 4 })
  .map((value) => JSON.parse(JSON.stringify(value)));

/** ModelMessage histories as generateText leaves them: every call answered. */
const history = fc
  .array(
    fc.tuple(fc.array(fc.tuple(name, input), { minLength: 1, maxLength: 3 }), fc.string(), fc.boolean()),
    { minLength: 1, maxLength: 3 },
  )
  .map((turns) =>
    turns.flatMap(([calls, text, reasoning], turn): ModelMessage[] => [
      { role: "user", content: `turn ${turn}` },
      {
        role: "assistant",
        content: [
          ...(reasoning ? [{ type: "reasoning" as const, text: "thinking" }] : []),
          ...(text === "" ? [] : [{ type: "text" as const, text }]),
          ...calls.map(([toolName, args], i) => ({
            type: "tool-call" as const,
            toolCallId: `c${turn}_${i}`,
            toolName,
            input: args,
          })),
        ],
      },
      {
        role: "tool",
        content: calls.map(([toolName], i) => ({
          type: "tool-result" as const,
          toolCallId: `c${turn}_${i}`,
          toolName,
          output: { type: "text" as const, value: "ok" },
        })),
      },
    ]),
  );

describe("conversions and sanitize", () => {
  it("AI SDK → neutral → AI SDK gives the very messages back; a valid history is left as it is", () => {
    fc.assert(
      fc.property(history, (messages) => {
        deepFreeze(messages);
        const back = fromNeutralMessages(toNeutralMessages(messages));
        expect(back).toHaveLength(messages.length);
        for (const [i, message] of back.entries()) expect(message).toBe(messages[i]);
        expect(sanitizeModelMessages(messages).messages).toBe(messages);
      }),
    );
  });

  it("neutral → AI SDK → neutral gives the same history, arguments byte for byte", () => {
    fc.assert(
      fc.property(history, (messages) => {
        const neutral = toNeutralMessages(messages).map((message) => structuredClone(message));
        expect(toNeutralMessages(fromNeutralMessages(neutral))).toEqual(neutral);
      }),
    );
  });

  it("sanitize never mutates, never throws, is idempotent, and what it returns a strict provider accepts", () => {
    const poisoned = history.chain((messages) =>
      fc.tuple(
        fc.constant(messages),
        fc.array(fc.tuple(fc.nat(), fc.oneof(argumentsText, fc.jsonValue(), fc.constant(undefined))), {
          maxLength: 4,
        }),
        fc.array(fc.nat(), { maxLength: 2 }),
      ),
    );
    fc.assert(
      fc.property(poisoned, ([messages, inputs, removals]) => {
        // Replace some inputs with malformed ones, and drop some messages (orphans, missing results).
        const calls = messages
          .flatMap((message) => (Array.isArray(message.content) ? (message.content as unknown[]) : []))
          .filter((part) => (part as { type: string }).type === "tool-call");
        for (const [at, value] of inputs)
          if (calls.length > 0) (calls[at % calls.length] as { input: unknown }).input = value;
        const broken = messages.filter(
          (_, index) => !removals.some((removal) => removal % (messages.length + 1) === index),
        );
        deepFreeze(broken);
        const once = sanitizeModelMessages(broken, { repairs });
        const twice = sanitizeModelMessages(once.messages, { repairs });
        expect(twice.messages).toBe(once.messages);
        for (const message of toNeutralMessages(once.messages)) {
          for (const call of (message.tool_calls ?? []) as Array<{ function: { arguments: unknown } }>) {
            const value = JSON.parse(call.function.arguments as string);
            expect(typeof value === "object" && value !== null && !Array.isArray(value)).toBe(true);
          }
        }
      }),
    );
  });
});
