import { coreRepairs } from "@toolcall/core";
import { describe, expect, it } from "vitest";
import type { StreamPart } from "./ai-sdk-types.js";
import { repairToolCallStream } from "./repair-tool-call-stream.js";

const USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

const text = (i: number): StreamPart => ({ type: "text-delta", id: "t", delta: `token ${i} ` });
const call = (id: string, input: string): StreamPart => ({
  type: "tool-call",
  toolCallId: id,
  toolName: "search",
  input,
});
const finish = (unified: "stop" | "length" | "tool-calls"): StreamPart => ({
  type: "finish",
  usage: USAGE,
  finishReason: { unified, raw: unified },
});

/** A source that hands out `parts` one per pull and counts how many it was asked for. */
function countingSource(parts: readonly StreamPart[]) {
  const state = { pulled: 0, cancelled: undefined as unknown };
  const stream = new ReadableStream<StreamPart>(
    {
      pull(controller) {
        if (state.pulled === parts.length) controller.close();
        else controller.enqueue(parts[state.pulled++] as StreamPart);
      },
      cancel(reason) {
        state.cancelled = reason;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

/** Lets queued reads and pulls run (a macrotask turn: every pending microtask first). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

async function readAll(stream: ReadableStream<StreamPart>): Promise<StreamPart[]> {
  const out: StreamPart[] = [];
  for await (const part of stream) out.push(part);
  return out;
}

describe("repairToolCallStream", () => {
  it("passes text, reasoning, input deltas and clean calls on as the same objects, in order", async () => {
    const parts: StreamPart[] = [
      { type: "stream-start", warnings: [] },
      { type: "reasoning-delta", id: "r", delta: "thinking" },
      ...Array.from({ length: 500 }, (_, i) => text(i)),
      { type: "tool-input-start", id: "c1", toolName: "search" },
      { type: "tool-input-delta", id: "c1", delta: '{"q":1}' },
      { type: "tool-input-end", id: "c1" },
      call("c1", '{"q":1}'),
      finish("tool-calls"),
    ];
    const out = await readAll(
      repairToolCallStream({ stream: countingSource(parts).stream, repairs: coreRepairs }),
    );
    expect(out.length).toBe(parts.length);
    for (let i = 0; i < parts.length; i++) expect(out[i]).toBe(parts[i]);
  });

  it("reads at most 128 parts ahead of its reader", async () => {
    const parts = Array.from({ length: 5000 }, (_, i) => text(i));
    const { stream, state } = countingSource([...parts, finish("stop")]);
    const reader = repairToolCallStream({ stream }).getReader();
    for (let i = 0; i < 10; i++) expect((await reader.read()).value).toBe(parts[i]);
    await settle();
    expect(state.pulled).toBeGreaterThanOrEqual(10);
    expect(state.pulled).toBeLessThanOrEqual(10 + 128);
    for (let i = 10; i < 400; i++) expect((await reader.read()).value).toBe(parts[i]);
    await settle();
    expect(state.pulled).toBeLessThanOrEqual(400 + 128);
    await reader.cancel("enough");
    expect(state.cancelled).toBe("enough");
  });

  it("hands each part on as it arrives, without waiting for a batch to fill", async () => {
    let push!: ReadableStreamDefaultController<StreamPart>;
    const source = new ReadableStream<StreamPart>({
      start(controller) {
        push = controller;
      },
    });
    const reader = repairToolCallStream({ stream: source }).getReader();
    const first = reader.read();
    push.enqueue(text(1));
    expect((await first).value).toEqual(text(1));
    const second = reader.read();
    await settle();
    push.enqueue(text(2));
    expect((await second).value).toEqual(text(2));
    push.enqueue(finish("stop"));
    push.close();
    expect((await reader.read()).value).toEqual(finish("stop"));
    expect((await reader.read()).done).toBe(true);
  });

  it("errors with the source's error, after the parts that came before it", async () => {
    const failure = new Error("socket closed");
    let sent = 0;
    const source = new ReadableStream<StreamPart>({
      pull(controller) {
        if (sent === 3) controller.error(failure);
        else controller.enqueue(text(sent++));
      },
    });
    const reader = repairToolCallStream({ stream: source }).getReader();
    for (let i = 0; i < 3; i++) expect((await reader.read()).value).toEqual(text(i));
    await expect(reader.read()).rejects.toBe(failure);
  });

  it("decides a waiting call as cut when the source ends without a finish part", async () => {
    const parts = [text(0), call("c1", "{'q': 1}")];
    const out = await readAll(
      repairToolCallStream({ stream: countingSource(parts).stream, repairs: coreRepairs }),
    );
    expect(out[0]).toBe(parts[0]);
    const decided = out[1] as Extract<StreamPart, { type: "tool-call" }>;
    expect(out.length).toBe(2);
    expect(decided.input).toBe("{'q': 1}");
    expect(decided.providerMetadata?.toolcall).toMatchObject({ usable: false, status: "truncated" });
  });

  it("holds a repairable call until the finish part, then repairs it (and the calls after it keep their order)", async () => {
    const parts = [call("c1", "{'q': 1}"), call("c2", '{"q":2}'), text(0), finish("tool-calls")];
    const out = await readAll(
      repairToolCallStream({ stream: countingSource(parts).stream, repairs: coreRepairs }),
    );
    expect(out.map((part) => part.type)).toEqual(["text-delta", "tool-call", "tool-call", "finish"]);
    const [, first, second] = out as Array<Extract<StreamPart, { type: "tool-call" }>>;
    expect(first?.input).toBe('{"q":1}');
    expect(first?.providerMetadata?.toolcall).toMatchObject({ usable: true, status: "repaired" });
    expect(second).toBe(parts[1]);
  });
});
