import { gzipSync } from "node:zlib";
import { coreRepairs } from "@toolcall/core";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardFetch, REPAIRS_HEADER, type RepairReport, type ToolcallReport } from "../src/index.js";
import { poisonedSession } from "./poisoned-session.js";
import {
  chatSse,
  recordedLines,
  responsesSse,
  responsesTurns,
  responsesWithArguments,
  xaiWithArguments,
} from "./recorded.js";
import { type Recorded, sendRecorded, startServer, type TestServer } from "./server.js";
import { strictError } from "./strict-provider.js";

// guardFetch at the byte level, against a loopback server that answers each request with the body registered under
// its model name (recorded traffic, or a look-alike of it with only the arguments changed).

interface Served {
  body: Buffer;
  sse: boolean;
  piece?: number;
  status?: number;
  headers?: Record<string, string>;
}

const served = new Map<string, Served>();
let server: TestServer;

beforeAll(async () => {
  server = await startServer(async (request: Recorded, response) => {
    const model = (request.body as { model?: string } | undefined)?.model ?? request.url;
    if (model === "strict") {
      const error = strictError(request);
      response.writeHead(error === undefined ? 200 : 400, { "content-type": "application/json" });
      response.end(JSON.stringify(error === undefined ? { ok: true } : { error: { message: error } }));
      return;
    }
    const entry = served.get(model);
    if (entry === undefined) {
      response.writeHead(404, { "content-type": "application/json" });
      response.end('{"error":{"message":"not found"}}');
      return;
    }
    if (entry.status !== undefined || entry.headers !== undefined) {
      response.writeHead(entry.status ?? 200, {
        "content-type": entry.sse ? "text/event-stream" : "application/json",
        ...entry.headers,
      });
      response.end(entry.body);
      return;
    }
    await sendRecorded(response, entry.body, { sse: entry.sse, piece: entry.piece });
  });
});
afterAll(async () => {
  await server.close();
});

function serve(name: string, entry: Served): string {
  served.set(name, entry);
  return name;
}

async function post(fetch: typeof globalThis.fetch, path: string, body: unknown): Promise<Response> {
  return fetch(`${server.baseURL}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

function guarded(reports: RepairReport[] = []) {
  return guardFetch(fetch, { repairs: coreRepairs, onRepair: (report) => reports.push(report) });
}

describe("guardFetch on recorded traffic", () => {
  it("hands a recorded xAI stream with a clean call on byte for byte, in any piece size", async () => {
    const body = chatSse(recordedLines("xai-grok-3-mini-tool-call.chunks.txt"));
    for (const piece of [3, 100, 16_384]) {
      const model = serve(`xai-${piece}`, { body, sse: true, piece });
      const reports: RepairReport[] = [];
      const response = await post(guarded(reports), "/chat/completions", { model, stream: true });
      expect(Buffer.from(await response.arrayBuffer()).equals(body), `piece ${piece}`).toBe(true);
      expect(response.headers.get(REPAIRS_HEADER)).toBeNull();
      expect(reports).toEqual([]);
    }
  });

  it("hands each recorded OpenAI Responses stream on byte for byte", async () => {
    for (const [turn, lines] of responsesTurns().entries()) {
      const body = responsesSse(lines);
      const model = serve(`responses-${turn}`, { body, sse: true, piece: 64 });
      const response = await post(guarded(), "/responses", { model, stream: true });
      expect(Buffer.from(await response.arrayBuffer()).equals(body), `turn ${turn}`).toBe(true);
    }
  });

  it("repairs a Python dict in the xAI recording: every other event as recorded, the call repaired", async () => {
    const lines = xaiWithArguments("{'location': 'San Francisco'}");
    const body = chatSse(lines);
    const model = serve("xai-python", { body, sse: true, piece: 512 });
    const reports: RepairReport[] = [];
    const response = await post(guarded(reports), "/chat/completions", { model, stream: true });
    const text = Buffer.from(await response.arrayBuffer()).toString("utf8");
    const events = text.split("\n\n").filter((e) => e !== "");
    // The reasoning deltas before the call come through as the very lines recorded.
    const callAt = lines.findIndex((line) => line.includes("tool_calls"));
    expect(events.slice(0, callAt)).toEqual(lines.slice(0, callAt).map((line) => `data: ${line}`));
    // What the client adds up for the call, and the summary comment before [DONE].
    let args = "";
    for (const event of events.filter((e) => e.startsWith("data: {"))) {
      const chunk = JSON.parse(event.slice(6)) as {
        choices: Array<{ delta?: { tool_calls?: Array<{ function?: { arguments?: string } }> } }>;
      };
      for (const call of chunk.choices[0]?.delta?.tool_calls ?? []) args += call.function?.arguments ?? "";
    }
    expect(args).toBe('{"location":"San Francisco"}');
    const comment = events.at(-2) as string;
    expect(comment.startsWith(`: ${REPAIRS_HEADER} `)).toBe(true);
    expect(JSON.parse(comment.slice(`: ${REPAIRS_HEADER} `.length))).toEqual({
      calls: [
        {
          choice: 0,
          id: "call_79382389",
          name: "weather",
          status: "repaired",
          repairs: ["python-literal"],
          usable: true,
        },
      ],
    });
    expect(events.at(-1)).toBe("data: [DONE]");
    expect(reports).toMatchObject([{ kind: "arguments", source: "stream", status: "repaired" }]);
  });

  it("repairs fenced calls in a recorded Responses stream, through the openai SDK", async () => {
    const lines = responsesWithArguments(
      responsesTurns()[0] as string[],
      '```json\n{"a": 12, "b": 7, "op": "add"}\n```',
    );
    const model = serve("responses-fenced", { body: responsesSse(lines), sse: true, piece: 256 });
    const client = new OpenAI({ baseURL: server.baseURL, apiKey: "k", maxRetries: 0, fetch: guarded() });
    const stream = client.responses.stream({ model, input: "12 + 7?" });
    const deltas: string[] = [];
    stream.on("response.function_call_arguments.delta", (event) => deltas.push(event.delta));
    const response = await stream.finalResponse();
    const call = response.output.find((item) => item.type === "function_call");
    expect(call?.type === "function_call" && call.arguments).toBe('{"a":12,"b":7,"op":"add"}');
    expect(deltas.join("")).toBe('{"a":12,"b":7,"op":"add"}');
  });
});

describe("guardFetch on whole answers", () => {
  const completion = (args: string, extra = "") =>
    Buffer.from(
      `{"id":"c","object":"chat.completion","created":1,"model":"m"${extra},"choices":[{"index":0,"finish_reason":"tool_calls","logprobs":{"content":[{"token":"x","logprob":-1.0}]},"message":{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"f","arguments":${JSON.stringify(args)}}}]}}],"usage":{"prompt_tokens":1,"completion_tokens":1,"total_tokens":2}}`,
    );

  it("keeps the bytes of an answer that needs nothing", async () => {
    const body = completion('{"a": 1.0}');
    const model = serve("clean-json", { body, sse: false });
    const response = await post(guarded(), "/chat/completions", { model });
    expect(Buffer.from(await response.arrayBuffer()).equals(body)).toBe(true);
    expect(response.headers.get(REPAIRS_HEADER)).toBeNull();
  });

  it("keeps every number as written where it repairs, and says what it repaired", async () => {
    const body = completion("{'n': 12345678901234567891, 'f': 1.0}", ',"seed":98765432109876543210');
    const model = serve("numbers-json", { body, sse: false });
    const response = await post(guarded(), "/chat/completions", { model });
    const text = await response.text();
    expect(text).toContain('"seed":98765432109876543210');
    expect(text).toContain('"logprob":-1.0');
    expect(text).toContain('"arguments":"{\\"n\\":12345678901234567891,\\"f\\":1.0}"');
    expect(JSON.parse(response.headers.get(REPAIRS_HEADER) ?? "{}")).toMatchObject({
      calls: [{ id: "call_1", status: "repaired", repairs: ["python-literal"] }],
    });
  });

  it("reads a compressed answer (fetch decodes it) and drops the encoding it no longer has", async () => {
    const model = serve("gzip-json", {
      body: gzipSync(completion("{'a': 1}")),
      sse: false,
      headers: { "content-encoding": "gzip" },
    });
    const response = await post(guarded(), "/chat/completions", { model });
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(JSON.parse(await response.text()).choices[0].message.tool_calls[0].function.arguments).toBe(
      '{"a":1}',
    );
  });

  it("leaves a call cut by a length stop as the model sent it", async () => {
    const cut = Buffer.from(
      completion('{"city": "Par')
        .toString("utf8")
        .replace('"finish_reason":"tool_calls"', '"finish_reason":"length"'),
    );
    const model = serve("cut-json", { body: cut, sse: false });
    const response = await post(guarded(), "/chat/completions", { model });
    expect(Buffer.from(await response.arrayBuffer()).equals(cut)).toBe(true);
    expect(JSON.parse(response.headers.get(REPAIRS_HEADER) ?? "{}")).toMatchObject({
      calls: [{ status: "truncated", usable: false, issue: "arguments_truncated" }],
    });
  });

  it("passes error answers, other routes and other methods through untouched", async () => {
    const model = serve("error-json", {
      body: Buffer.from('{"error":{"message":"nope"}}'),
      sse: false,
      status: 500,
    });
    const error = await post(guarded(), "/chat/completions", { model });
    expect(error.status).toBe(500);
    expect(await error.text()).toBe('{"error":{"message":"nope"}}');
    const other = await post(guarded(), "/embeddings", { model: "none" });
    expect(other.status).toBe(404);
    const get = await guarded()(`${server.baseURL}/chat/completions`);
    expect(get.status).toBe(404);
  });
});

describe("guardFetch on requests going out", () => {
  it("sanitizes a poisoned history so a strict provider accepts it, numbers kept; raw is refused", async () => {
    const body = { model: "strict", seed: 12345678901234567891n, messages: poisonedSession() };
    const text = JSON.stringify(body, (_key, value) =>
      typeof value === "bigint" ? `#${value}#` : value,
    ).replace(/"#(\d+)#"/, "$1");
    const send = (fetch: typeof globalThis.fetch) =>
      fetch(`${server.baseURL}/chat/completions`, { method: "POST", body: text });
    expect((await send(fetch)).status).toBe(400);
    const reports: RepairReport[] = [];
    const response = await send(guarded(reports));
    expect(response.status).toBe(200);
    expect(server.requests.at(-1)?.text).toContain('"seed":12345678901234567891,');
    expect(reports.every((r) => r.kind === "history")).toBe(true);
    expect(JSON.parse(response.headers.get(REPAIRS_HEADER) ?? "{}").history).toMatchObject({
      arguments_raw_preserved: expect.any(Number),
      // One missing result, and one for the second call of each of two calls that held two merged.
      call_split: 2,
      result_synthesized: 3,
    });
  });

  it("tells onReport the exchange's ToolcallReport once, and sends the history as it is with sanitize: false", async () => {
    const body = JSON.stringify({ model: "strict", messages: poisonedSession() });
    const send = (fetch: typeof globalThis.fetch) =>
      fetch(`${server.baseURL}/chat/completions`, { method: "POST", body });
    const told: ToolcallReport[] = [];
    const response = await send(
      guardFetch(fetch, { repairs: coreRepairs, onReport: (report) => told.push(report) }),
    );
    expect(response.status).toBe(200);
    expect(told).toEqual([JSON.parse(response.headers.get(REPAIRS_HEADER) ?? "{}")]);
    expect(told[0]?.history).toMatchObject({ result_synthesized: 3 });
    // Not sanitized: the strict provider refuses it, and the guard hands its error on as it came.
    const refused = await send(guardFetch(fetch, { repairs: coreRepairs, sanitize: false }));
    expect(refused.status).toBe(400);
  });

  it("reads a Request object's body and sends the sanitized one", async () => {
    const request = new Request(`${server.baseURL}/chat/completions`, {
      method: "POST",
      body: JSON.stringify({ model: "strict", messages: poisonedSession() }),
    });
    expect((await guarded()(request)).status).toBe(200);
  });
});
