import type { ServerResponse } from "node:http";
import type { RepairRule } from "@toolcall/core/kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CONTENT_CALL_EXTRACTORS,
  type ContentCallExtractor,
  REPAIR_NAMES,
  resolveRepairs,
} from "../src/index.js";
import { type RunningProxy, startProxy } from "./start-proxy.js";
import { type FakeUpstream, startUpstream } from "./upstream.js";

/**
 * The hostile bodies of the attack report (issue 16), at bounded sizes: a request history whose stored arguments
 * make `jsonrepair` work hard, and model output that makes stream parsers rescan (repeated call openers in 64-character
 * deltas, an unclosed Qwen parameter, Gemma's quote token over and over).
 */
const KB = 1024;
const repeatTo = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
const HOSTILE_STREAMS: Record<string, string> = {
  "gemma-openers": repeatTo("<|tool_call>", 256 * KB),
  "gemma-calls": repeatTo("call:f{", 256 * KB),
  "hermes-openers": repeatTo("<tool_call>", 256 * KB),
};
const HOSTILE_WHOLE: Record<string, string> = {
  "qwen-unclosed": `<tool_call>\n<function=f>\n${repeatTo("<parameter=a>x", 512 * KB)}`,
};
const QUOTE_MARKERS = repeatTo('<|"|>', 1024 * KB);

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;

/** A whole Chat Completions answer holding `message`. */
function sendAnswer(response: ServerResponse, message: object): void {
  response.writeHead(200, { "content-type": "application/json" });
  response.end(
    JSON.stringify({
      id: "x",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [{ index: 0, message, finish_reason: "stop", logprobs: null }],
    }),
  );
}

/** Every repair the proxy has (`jsonrepair` included). */
function everyRepair(): RepairRule[] {
  const repairs = resolveRepairs(REPAIR_NAMES.filter((name) => name !== "none" && name !== "core"));
  if (!repairs.ok) throw new Error(repairs.error);
  return [...repairs.repairs];
}

let upstream: FakeUpstream;
let proxy: RunningProxy;
/** Opened once every health request was answered: only then do the hostile answers end. */
let releaseHostile: () => void;
const released = new Promise<void>((resolve) => {
  releaseHostile = resolve;
});
/** Hostile requests the upstream has received (their bodies went through the proxy's request repair). */
let arrived = 0;
let allArrived: () => void;
const hostileArrived = new Promise<void>((resolve) => {
  allArrived = resolve;
});
const HOSTILE_COUNT = Object.keys(HOSTILE_STREAMS).length + Object.keys(HOSTILE_WHOLE).length + 2;

beforeAll(async () => {
  upstream = await startUpstream(async (request, response) => {
    const model = (request.json as { model?: string } | undefined)?.model ?? "";
    if (++arrived === HOSTILE_COUNT) allArrived();
    const stream = HOSTILE_STREAMS[model];
    if (stream !== undefined) {
      // All the hostile text at once, in 64-character deltas; the end only once the health checks are done.
      response.writeHead(200, { "content-type": "text/event-stream" });
      let frames = chunk({ role: "assistant", content: "" });
      for (let at = 0; at < stream.length; at += 64) frames += chunk({ content: stream.slice(at, at + 64) });
      response.write(frames);
      await released;
      response.end(`${chunk({}, "stop")}data: [DONE]\n\n`);
      return;
    }
    await released;
    const content = HOSTILE_WHOLE[model];
    const message =
      model === "quote-markers"
        ? {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "t", type: "function", function: { name: "f", arguments: QUOTE_MARKERS } }],
          }
        : { role: "assistant", content: content ?? "ok" };
    sendAnswer(response, message);
  });
  proxy = await startProxy({
    upstream: upstream.url,
    repairs: everyRepair(),
    contentCalls: [
      CONTENT_CALL_EXTRACTORS.gemma,
      CONTENT_CALL_EXTRACTORS.qwen,
      CONTENT_CALL_EXTRACTORS.hermes,
    ].filter((extractor) => extractor !== undefined),
    logLevel: "error",
    maxBody: 4 * 1024 * KB,
  });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

/** A history whose stored call's arguments `jsonrepair` is slow on (`{"a":` and a run of quotes). */
function hostileHistory(): string {
  return JSON.stringify({
    model: "history",
    messages: [
      { role: "user", content: "go" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "t1", type: "function", function: { name: "f", arguments: `{"a":${'"'.repeat(128 * KB)}` } },
        ],
      },
      { role: "tool", tool_call_id: "t1", content: "done" },
    ],
  });
}

async function post(body: string): Promise<number> {
  const response = await fetch(`${proxy.baseURL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  await response.arrayBuffer();
  return response.status;
}

describe("/healthz keeps answering while hostile bodies are in flight (every repair, --content-calls on)", () => {
  it("every health request is answered while the hostile batch is still in flight", async () => {
    const events: string[] = [];
    const hostile = [
      ...Object.keys(HOSTILE_STREAMS).map((model) =>
        post(JSON.stringify({ model, stream: true, messages: [{ role: "user", content: "x" }] })),
      ),
      ...Object.keys(HOSTILE_WHOLE).map((model) =>
        post(JSON.stringify({ model, messages: [{ role: "user", content: "x" }] })),
      ),
      post(JSON.stringify({ model: "quote-markers", messages: [{ role: "user", content: "x" }] })),
      post(hostileHistory()),
    ].map((pending, i) =>
      pending.then((status) => {
        events.push(`hostile ${i} ${status}`);
        return status;
      }),
    );
    // Every hostile request is past the proxy's request repair and waiting on its answer, streams mid-way.
    await hostileArrived;
    const HEALTH_CHECKS = 25;
    for (let i = 0; i < HEALTH_CHECKS; i++) {
      const response = await fetch(`${proxy.origin}/healthz`);
      expect(await response.json()).toEqual({ status: "ok" });
      events.push(`health ${i}`);
      // Half-way, the hostile answers are released: the rest of the checks run while the proxy parses them.
      if (i === 4) releaseHostile();
    }
    const statuses = await Promise.all(hostile);
    expect(statuses.every((status) => status === 200)).toBe(true);
    // Counted, not timed: the health checks made while the hostile answers were being read all came back, and the
    // proxy answered each hostile request in the end.
    expect(events.filter((e) => e.startsWith("health"))).toHaveLength(HEALTH_CHECKS);
    expect(events.filter((e) => e.startsWith("hostile"))).toHaveLength(HOSTILE_COUNT);
    expect(events.slice(0, 5)).toEqual(["health 0", "health 1", "health 2", "health 3", "health 4"]);
  });
});

/**
 * Whole (non-streamed) answers: the proxy repairs them in steps, one per turn of the event loop. Probes mark where
 * the repair of each hostile answer is: an extractor run first and one run last over each choice's content, and a
 * repair rule (ranked after core's, so the last one tried on the 1 MB of quote markers). Health checks answered
 * between an answer's first and last probe were answered while that answer was being repaired; a repair made in one
 * synchronous step has nothing between them.
 */
describe("/healthz is answered while 512 KB–1 MB whole answers are being repaired", () => {
  const events: string[] = [];
  let wholeUpstream: FakeUpstream;
  let wholeProxy: RunningProxy;
  /** The first probe marks both answers' start; the last marks the end of the Qwen answer's (the rule, the other's). */
  const probe = (name: string, first: boolean): ContentCallExtractor => ({
    name,
    syntax: name,
    parse(content) {
      const qwen = content.length > 100 * KB;
      if (first || qwen) events.push(`${first ? "start" : "end"} ${qwen ? "qwen" : "markers"}`);
      return { toolCalls: [], content, issues: [] };
    },
    createStream: () => ({ push: (text: string) => [{ type: "content", text }], end: () => [] }),
  });
  const probeRule: RepairRule = {
    specificationVersion: "1",
    id: "probe-last-rule",
    description: "marks the last rule tried on a call's arguments",
    repair(text) {
      if (text.length > 100 * KB) events.push("end markers");
      return undefined;
    },
  };

  beforeAll(async () => {
    wholeUpstream = await startUpstream((request, response) => {
      const model = (request.json as { model?: string } | undefined)?.model ?? "";
      const message =
        model === "quote-markers"
          ? {
              // The content is one blank, so the extractors (and the first probe) run on this answer too.
              role: "assistant",
              content: " ",
              tool_calls: [{ id: "t", type: "function", function: { name: "f", arguments: QUOTE_MARKERS } }],
            }
          : { role: "assistant", content: HOSTILE_WHOLE["qwen-unclosed"] };
      sendAnswer(response, message);
    });
    wholeProxy = await startProxy({
      upstream: wholeUpstream.url,
      repairs: [...everyRepair(), probeRule],
      contentCalls: [
        probe("probe-first", true),
        CONTENT_CALL_EXTRACTORS.gemma,
        CONTENT_CALL_EXTRACTORS.qwen,
        CONTENT_CALL_EXTRACTORS.hermes,
        probe("probe-last", false),
      ].filter((extractor) => extractor !== undefined),
      logLevel: "error",
      maxBody: 4 * 1024 * KB,
    });
  });
  afterAll(async () => {
    await wholeProxy.close();
    await wholeUpstream.close();
  });

  it("health answers come between the start and the end of each hostile answer's repair", async () => {
    let done = false;
    const health = (async () => {
      let answered = 0;
      while (!done) {
        const response = await fetch(`${wholeProxy.origin}/healthz`);
        expect(await response.json()).toEqual({ status: "ok" });
        events.push("health");
        answered++;
      }
      return answered;
    })();
    const statuses = await Promise.all(
      ["qwen-unclosed", "quote-markers"].map(async (model) => {
        const response = await fetch(`${wholeProxy.baseURL}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ model, messages: [{ role: "user", content: "x" }] }),
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    done = true;
    await health;
    expect(statuses).toEqual([200, 200]);
    for (const tag of ["qwen", "markers"]) {
      const start = events.indexOf(`start ${tag}`);
      const end = events.indexOf(`end ${tag}`);
      expect(start, `${tag} started`).toBeGreaterThanOrEqual(0);
      expect(end, `${tag} ended`).toBeGreaterThan(start);
      // Counted, not timed: health checks answered while this answer was between its first and last probe.
      const between = events.slice(start, end).filter((event) => event === "health").length;
      expect(between, `health answers during the ${tag} repair: ${events.join(", ")}`).toBeGreaterThanOrEqual(
        1,
      );
    }
  });
});
