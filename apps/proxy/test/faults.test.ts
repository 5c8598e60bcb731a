import { connect } from "node:net";
import OpenAI, { APIError } from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningProxy, startProxy } from "./start-proxy.js";
import { type FakeUpstream, replay, startUpstream } from "./upstream.js";

const frame = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let upstream: FakeUpstream;
/** In front of `upstream` with timeouts far above anything a loaded machine adds to a healthy answer. */
let proxy: RunningProxy;
/** In front of the same upstream with short timeouts, for the upstreams that stall until the proxy gives up. */
let timed: RunningProxy;
/** Resolves the trickling upstream's wait for the client to have read its latest piece. */
let trickleRead: (() => void) | undefined;
/** Set when the upstream's endless stream was closed from the proxy's side before it ended. */
let endlessCut: Promise<void>;
let cutEndless: () => void;
/** Bytes the flood had written when its socket stopped draining (the proxy stopped reading). */
let floodBlocked: Promise<number>;
let floodBlockedAt: (bytes: number) => void;

// Each fault is chosen by the request's model name.
beforeAll(async () => {
  endlessCut = new Promise((resolve) => {
    cutEndless = resolve;
  });
  floodBlocked = new Promise((resolve) => {
    floodBlockedAt = resolve;
  });
  upstream = await startUpstream(async (request, response) => {
    const model = (request.json as { model?: string } | undefined)?.model ?? "";
    switch (model) {
      case "reset-before-headers":
        response.socket?.destroy();
        return;
      case "reset-mid-stream":
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write(frame({ role: "assistant", content: "" }));
        response.write(frame({ content: "partial " }));
        response.write(
          frame({
            tool_calls: [
              { index: 0, id: "t", type: "function", function: { name: "f", arguments: '{"a":' } },
            ],
          }),
        );
        await sleep(20);
        response.socket?.destroy();
        return;
      case "reset-mid-body":
        response.writeHead(200, { "content-type": "application/json", "content-length": "1000" });
        response.write('{"id":"x","choices":[');
        await sleep(20);
        response.socket?.destroy();
        return;
      case "5xx-html":
        response.writeHead(502, { "content-type": "text/html" });
        response.end("<html><body><h1>502 Bad Gateway</h1></body></html>");
        return;
      case "5xx-json":
        response.writeHead(503, { "content-type": "application/json" });
        response.end(
          JSON.stringify({ error: { message: "model is loading", type: "server_error", code: "loading" } }),
        );
        return;
      case "not-json":
        response.writeHead(200, { "content-type": "application/json" });
        response.end("<html>surprise</html>");
        return;
      case "malformed-sse":
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write(frame({ content: "before " }));
        response.end("data: {not json at all\n\ndata: [DONE]\n\n");
        return;
      case "error-frame":
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write(frame({ content: "before " }));
        response.end(
          `data: ${JSON.stringify({ error: { message: "out of KV cache", type: "server_error", code: 500 } })}\n\n`,
        );
        return;
      // Silent until the proxy closes the request: only a timeout ends these, however slow the machine.
      case "stall-headers":
        await new Promise((resolve) => response.once("close", resolve));
        return;
      case "stall-body":
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write(frame({ content: "then silence" }));
        await new Promise((resolve) => response.once("close", resolve));
        return;
      case "trickle": {
        // A slow but live upstream: small pieces 60 ms apart; after each word, it waits until the client has read
        // that word, so the client provably gets each piece before the upstream sends the next.
        response.writeHead(200, { "content-type": "text/event-stream" });
        for (const word of ["slow ", "but ", "steady"]) {
          const read = new Promise<void>((resolve) => {
            trickleRead = resolve;
          });
          const piece = frame({ content: word });
          for (let at = 0; at < piece.length && !response.destroyed; at += 40) {
            response.write(piece.slice(at, at + 40));
            await sleep(60);
          }
          await read;
        }
        response.end(`${frame({}, "stop")}data: [DONE]\n\n`);
        return;
      }
      case "endless": {
        response.on("close", () => {
          if (!response.writableFinished) cutEndless();
        });
        response.writeHead(200, { "content-type": "text/event-stream" });
        for (let i = 0; i < 400 && !response.destroyed; i++) {
          response.write(frame({ content: `w${i} ` }));
          await sleep(10);
        }
        response.end();
        return;
      }
      case "flood": {
        // As fast as the socket takes it, until it pushes back (or 64 MiB, which a proxy buffering all would take).
        response.writeHead(200, { "content-type": "text/event-stream" });
        const piece = frame({ content: "x".repeat(4000) });
        let written = 0;
        while (written < 64 * 1024 * 1024 && !response.destroyed) {
          written += piece.length;
          if (!response.write(piece)) {
            const drained = await Promise.race([
              new Promise((resolve) => response.once("drain", () => resolve(true))),
              sleep(300).then(() => false),
            ]);
            // Stalled: nobody downstream reads any more.
            if (!drained) floodBlockedAt(written);
          }
        }
        response.end();
        return;
      }
      default:
        return replay(response, "chat-parallel.json");
    }
  });
  proxy = await startProxy({ upstream: upstream.url, headersTimeout: 30_000, idleTimeout: 30_000 });
  timed = await startProxy({ upstream: upstream.url, headersTimeout: 500, idleTimeout: 500 });
});
afterAll(async () => {
  await proxy.close();
  await timed.close();
  await upstream.close();
});

const client = (baseURL: string) => new OpenAI({ baseURL, apiKey: "k", maxRetries: 0, timeout: 10_000 });

async function expectHealthy(via: RunningProxy = proxy): Promise<void> {
  const completion = await client(via.baseURL).chat.completions.create({ model: "ok", messages: [] });
  expect(completion.choices).toHaveLength(1);
}

async function failure(promise: Promise<unknown>): Promise<APIError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(APIError);
  return error as APIError;
}

async function streamed(
  model: string,
  via: RunningProxy = proxy,
): Promise<{ content: string; error: APIError | undefined }> {
  let content = "";
  try {
    const stream = await client(via.baseURL).chat.completions.create({ model, messages: [], stream: true });
    for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>)
      content += chunk.choices[0]?.delta.content ?? "";
    return { content, error: undefined };
  } catch (error) {
    return { content, error: error as APIError };
  }
}

describe("upstream faults end as OpenAI-style errors or clean stream ends, and the proxy goes on", () => {
  it("refused connection: 502 upstream_unreachable", async () => {
    // Port 1, not a port just closed: a closed ephemeral port can be handed to any other process's listen(0) on a
    // busy machine before the proxy connects, or be picked as the connection's own source port (the proxy then
    // talks to itself). Nothing listens on port 1 and neither can happen below the ephemeral range.
    const port = 1;
    const refused = await new Promise<string | undefined>((resolve) => {
      const socket = connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(undefined);
      });
      socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code));
    });
    expect(refused, "something listens on 127.0.0.1:1").toBe("ECONNREFUSED");
    const nowhere = await startProxy({ upstream: `http://127.0.0.1:${port}` });
    try {
      const error = await failure(
        client(nowhere.baseURL).chat.completions.create({ model: "m", messages: [] }),
      );
      expect(error.status).toBe(502);
      expect(error.code).toBe("upstream_unreachable");
      expect(error.type).toBe("upstream_error");
      const models = await fetch(`${nowhere.baseURL}/models`);
      expect(models.status).toBe(502);
      expect(await models.json()).toMatchObject({ error: { code: "upstream_unreachable" } });
      const metrics = await fetch(`${nowhere.origin}/metrics`).then((r) => r.text());
      expect(metrics).toMatch(
        /toolcall_proxy_upstream_errors_total\{route="chat\.completions",code="upstream_unreachable"\} 1/,
      );
    } finally {
      await nowhere.close();
    }
  });

  it("reset before the headers: 502 upstream_reset", async () => {
    const error = await failure(
      client(proxy.baseURL).chat.completions.create({ model: "reset-before-headers", messages: [] }),
    );
    expect([error.status, error.code]).toEqual([502, "upstream_reset"]);
    await expectHealthy();
  });

  it("reset in the middle of a stream: what came is delivered, then an error frame the SDK raises", async () => {
    const { content, error } = await streamed("reset-mid-stream");
    expect(content).toBe("partial ");
    expect(error).toBeInstanceOf(APIError);
    expect(error?.code).toBe("upstream_reset");
    await expectHealthy();
  });

  it("reset in the middle of a JSON body: 502 upstream_reset", async () => {
    const error = await failure(
      client(proxy.baseURL).chat.completions.create({ model: "reset-mid-body", messages: [] }),
    );
    expect([error.status, error.code]).toEqual([502, "upstream_reset"]);
    await expectHealthy();
  });

  it("5xx with an HTML page: wrapped as an OpenAI error with the upstream's status", async () => {
    const error = await failure(
      client(proxy.baseURL).chat.completions.create({ model: "5xx-html", messages: [] }),
    );
    expect([error.status, error.code, error.type]).toEqual([502, "upstream_status", "upstream_error"]);
    expect(error.message).toContain("502 Bad Gateway");
    await expectHealthy();
  });

  it("5xx with an OpenAI error body: passed on as it came", async () => {
    const error = await failure(
      client(proxy.baseURL).chat.completions.create({ model: "5xx-json", messages: [] }),
    );
    expect([error.status, error.code, error.message]).toEqual([503, "loading", "503 model is loading"]);
    await expectHealthy();
  });

  it("a 200 whose body is not JSON: 502 upstream_invalid_response", async () => {
    const error = await failure(
      client(proxy.baseURL).chat.completions.create({ model: "not-json", messages: [] }),
    );
    expect([error.status, error.code]).toEqual([502, "upstream_invalid_response"]);
    await expectHealthy();
  });

  it("malformed SSE: content so far, then an error frame, and nothing after", async () => {
    const { content, error } = await streamed("malformed-sse");
    expect(content).toBe("before ");
    expect(error?.code).toBe("upstream_invalid_stream");
    await expectHealthy();
  });

  it("an error frame from the upstream reaches the client as the upstream wrote it", async () => {
    const { content, error } = await streamed("error-frame");
    expect(content).toBe("before ");
    expect(error?.message).toContain("out of KV cache");
    await expectHealthy();
  });

  // The upstream never answers: the error can only come from the proxy's headers timeout (the client's own
  // timeout, 10 s, would raise a connection error instead).
  it("an upstream that never answers: 504 upstream_headers_timeout", async () => {
    const error = await failure(
      client(timed.baseURL).chat.completions.create({ model: "stall-headers", messages: [] }),
    );
    expect([error.status, error.code]).toEqual([504, "upstream_headers_timeout"]);
    await expectHealthy(timed);
  });

  it("an upstream that goes silent mid-stream: an idle-timeout error frame, not a hung client", async () => {
    const { content, error } = await streamed("stall-body", timed);
    expect(content).toBe("then silence");
    expect(error?.code).toBe("upstream_idle_timeout");
    await expectHealthy(timed);
  });

  it("a slow trickle within the idle timeout: delivered piece by piece, ending cleanly", async () => {
    let content = "";
    const stream = await client(proxy.baseURL).chat.completions.create({
      model: "trickle",
      messages: [],
      stream: true,
    });
    for await (const chunk of stream) {
      const text = chunk.choices[0]?.delta.content;
      if (text) {
        content += text;
        // The upstream sends its next word only now: had the proxy held the stream back, this would never come.
        trickleRead?.();
      }
    }
    expect(content).toBe("slow but steady");
    await expectHealthy();
  });

  it("a client that does not read: the upstream is paused, not buffered", async () => {
    const response = await fetch(`${proxy.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "flood", messages: [], stream: true }),
    });
    // Nothing is read from the body: the socket buffers fill, then the proxy must stop reading the upstream.
    // A proxy that buffered it all would never block the flood: this wait would then end at the test's timeout.
    const blockedAt = await floodBlocked;
    expect(blockedAt).toBeLessThan(48 * 1024 * 1024);
    await response.body?.cancel();
    await expectHealthy();
  });

  it("a client that leaves mid-stream: the upstream request is closed too", async () => {
    const before = upstream.requests.length;
    const stream = await client(proxy.baseURL).chat.completions.create({
      model: "endless",
      messages: [],
      stream: true,
    });
    let seen = 0;
    for await (const _chunk of stream) if (++seen === 5) break;
    // The upstream sees its response closed before its 400 frames were all sent (had the proxy kept reading, the
    // response would end whole and this wait would end at the test's timeout).
    await endlessCut;
    // Bounded by the test's timeout, not by a clock reading.
    while (proxy.proxy.inFlight > 0) await sleep(10);
    expect(upstream.requests.length).toBe(before + 1);
    expect(proxy.proxy.inFlight).toBe(0);
    expect(proxy.logs.at(-1)).toMatchObject({ status: 499, clientClosed: true });
    await expectHealthy();
  });
});
