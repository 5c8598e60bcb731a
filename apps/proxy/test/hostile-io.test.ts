import { connect, type Socket } from "node:net";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { poisonedSession } from "../../../packages/openai/test/poisoned-session.js";
import { strictProvider } from "../../../packages/openai/test/strict-provider.js";
import type { ProxyOptions } from "../src/index.js";
import { type RunningProxy, startProxy } from "./start-proxy.js";
import { type FakeUpstream, startUpstream } from "./upstream.js";

// Hostile clients and upstreams at the HTTP layer: compressed bodies (never passed on unsanitized), bodies that
// trickle in, an upstream event that never ends, and a drain with health probers on open connections. Every wait is
// on an event (a socket closing, a frame arriving); nothing here reads a clock. While each attack is in flight,
// `/healthz` is asked and must answer: a count, as hostile-health.test.ts does.

const started: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of started.splice(0).reverse()) await item.close();
});

async function setUp(
  handle: Parameters<typeof startUpstream>[0],
  options: Omit<ProxyOptions, "upstream" | "log"> = {},
): Promise<{ upstream: FakeUpstream; proxy: RunningProxy }> {
  const upstream = await startUpstream(handle);
  started.push(upstream);
  const proxy = await startProxy({ upstream: upstream.url, logLevel: "silent", ...options });
  started.push(proxy);
  return { upstream, proxy };
}

/** One HTTP/1.1 response read off a raw socket: status, headers (lower-case), body (by content-length). */
function readResponse(
  socket: Socket,
): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      data = Buffer.concat([data, chunk]);
      const end = data.indexOf("\r\n\r\n");
      if (end === -1) return;
      const [statusLine, ...lines] = data.subarray(0, end).toString("latin1").split("\r\n");
      const headers: Record<string, string> = {};
      for (const line of lines) {
        const colon = line.indexOf(":");
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const length = Number(headers["content-length"] ?? 0);
      if (data.length < end + 4 + length) return;
      socket.off("data", onData);
      socket.off("error", reject);
      resolve({
        status: Number(statusLine?.split(" ")[1]),
        headers,
        body: data.subarray(end + 4, end + 4 + length).toString("utf8"),
      });
    };
    socket.on("data", onData);
    socket.once("error", reject);
  });
}

function openSocket(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => resolve(socket));
    socket.once("error", reject);
  });
}

const portOf = (proxy: RunningProxy) => Number(new URL(proxy.origin).port);

async function health(proxy: RunningProxy): Promise<number> {
  const response = await fetch(`${proxy.origin}/healthz`);
  await response.arrayBuffer();
  return response.status;
}

describe("compressed request bodies are decoded and sanitized, or refused; never passed on unseen", () => {
  const body = () => Buffer.from(JSON.stringify({ model: "strict", messages: poisonedSession() }));
  const strict = (): Parameters<typeof startUpstream>[0] => (request, response) =>
    strictProvider({ method: request.method, url: request.url, body: request.json }, response);

  for (const [encoding, encode] of [
    ["gzip", gzipSync],
    ["deflate", deflateSync],
    ["br", brotliCompressSync],
    ["gzip, br", (bytes: Buffer) => brotliCompressSync(gzipSync(bytes))],
  ] as const) {
    it(`Content-Encoding: ${encoding}: the poisoned history reaches the strict upstream sanitized`, async () => {
      const { upstream, proxy } = await setUp(strict());
      const response = await fetch(`${proxy.baseURL}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", "content-encoding": encoding },
        body: encode(body()),
      });
      const answer = (await response.json()) as { choices?: Array<{ message: { content: string } }> };
      expect(response.status).toBe(200);
      expect(answer.choices?.[0]?.message.content).toBe("Accepted.");
      const seen = upstream.requests.at(-1);
      expect(seen?.headers["content-encoding"]).toBeUndefined();
      expect(seen?.json).toMatchObject({ model: "strict" });
    });
  }

  it("an encoding the proxy cannot read is a 415 that says why, and nothing goes up", async () => {
    const { upstream, proxy } = await setUp(strict());
    const response = await fetch(`${proxy.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "zstd" },
      body: gzipSync(body()),
    });
    expect(response.status).toBe(415);
    const error = ((await response.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("request_encoding_unsupported");
    expect(error.message).toContain("cannot be sanitized");
    expect(upstream.requests).toHaveLength(0);
  });

  it("a gzip bomb (1 GiB of zeros in 1 MB) stops at --max-body: 413, health answered meanwhile", async () => {
    const { upstream, proxy } = await setUp(strict(), { maxBody: 2 * 1024 * 1024 });
    // 1 GiB of zeros compresses to about 1 MB: under the limit as sent, a thousand times over once inflated.
    const zeros = Buffer.alloc(64 * 1024 * 1024);
    const member = gzipSync(zeros, { level: 9 });
    const bomb = Buffer.concat(Array.from({ length: 16 }, () => member));
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const pending = fetch(`${proxy.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body: bomb,
    });
    expect(await health(proxy)).toBe(200);
    const response = await pending;
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("request_too_large");
    expect(upstream.requests).toHaveLength(0);
  });

  it("bytes that are not what their encoding says: 400 request_body_undecodable", async () => {
    const { upstream, proxy } = await setUp(strict());
    const response = await fetch(`${proxy.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
      body: body(),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      "request_body_undecodable",
    );
    expect(upstream.requests).toHaveLength(0);
  });
});

describe("a body that trickles in keeps no socket", () => {
  /** Opens `count` connections that each declare a body and send one byte of it per tick until closed. */
  async function trickle(proxy: RunningProxy, count: number) {
    const sockets = await Promise.all(Array.from({ length: count }, () => openSocket(portOf(proxy))));
    const answers = sockets.map((socket) => {
      socket.write(
        "POST /v1/chat/completions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{",
      );
      const ticker = setInterval(() => {
        if (!socket.destroyed) socket.write(" ");
      }, 20);
      const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
      socket.on("error", () => {});
      return { response: readResponse(socket), closed: closed.then(() => clearInterval(ticker)) };
    });
    return answers;
  }

  it("--body-timeout: each of 100 trickling clients gets 408 with connection: close, and its socket closes", async () => {
    const { upstream, proxy } = await setUp(
      (_request, response) => {
        response.end("{}");
      },
      {
        bodyTimeout: 300,
      },
    );
    const answers = await trickle(proxy, 100);
    // The proxy answers health while every trickling body is being received.
    expect(await health(proxy)).toBe(200);
    for (const answer of answers) {
      const response = await answer.response;
      expect(response.status).toBe(408);
      expect(response.headers.connection).toBe("close");
      expect(JSON.parse(response.body).error.code).toBe("request_body_timeout");
      await answer.closed;
    }
    expect(upstream.requests).toHaveLength(0);
    // Every client socket is gone on the proxy's side too (health's own connection aside, which fetch may keep):
    // its side closes a few turns of the event loop after the client's, so the turns are counted, not timed.
    let turns = 0;
    while (proxy.proxy.sockets().clients > 1 && turns < 10_000) {
      await new Promise((resolve) => setImmediate(resolve));
      turns++;
    }
    expect(proxy.proxy.sockets().clients).toBeLessThanOrEqual(1);
  });

  it("--request-timeout on a trickling body: the 504 closes the connection instead of keeping it alive", async () => {
    const { proxy } = await setUp(
      (_request, response) => {
        response.end("{}");
      },
      {
        bodyTimeout: 0,
        requestTimeout: 300,
      },
    );
    const [answer] = await trickle(proxy, 1);
    const response = await (answer as { response: ReturnType<typeof readResponse> }).response;
    expect(response.status).toBe(504);
    expect(response.headers.connection).toBe("close");
    expect(JSON.parse(response.body).error.code).toBe("request_deadline");
    await (answer as { closed: Promise<void> }).closed;
  });
});

describe("an upstream event that never ends is bounded", () => {
  it("past --max-response-body, the stream ends with an error frame naming the cause, and the upstream is cut", async () => {
    const MB = 1024 * 1024;
    let upstreamClosed!: () => void;
    const cut = new Promise<void>((resolve) => {
      upstreamClosed = resolve;
    });
    let sent = 0;
    const { proxy } = await setUp(
      async (_request, response) => {
        response.on("close", () => upstreamClosed());
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.write(
          'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[',
        );
        // An event that never ends: 64 KiB pieces, as fast as the proxy takes them, up to 64 MiB at most.
        const piece = Buffer.alloc(64 * 1024, " ");
        while (!response.destroyed && sent < 64 * MB) {
          sent += piece.length;
          if (!response.write(piece))
            await new Promise((resolve) => {
              response.once("drain", resolve);
              response.once("close", resolve);
            });
        }
      },
      { maxResponseBody: MB },
    );
    const response = await fetch(`${proxy.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "x" }] }),
    });
    expect(response.status).toBe(200);
    expect(await health(proxy)).toBe(200);
    const text = await response.text();
    expect(text).toContain("event: error");
    expect(text).toContain("upstream_event_too_large");
    expect(text).toContain(`larger than ${MB} bytes`);
    await cut;
    // Counted: the upstream was cut after about the limit (plus what sockets buffer), never the 64 MiB it offered.
    expect(sent).toBeLessThan(16 * MB);
  });
});

describe("SIGTERM's drain keeps open connections for health probers", () => {
  it("a prober on an idle keep-alive connection gets 503 draining; a new connection is refused", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const frame = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
    const { proxy } = await setUp(async (_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(frame({ role: "assistant", content: "a" }));
      await gate;
      response.end(`${frame({}, "stop")}data: [DONE]\n\n`);
    });
    const prober = await openSocket(portOf(proxy));
    prober.write("GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n");
    const before = await readResponse(prober);
    expect(before.status).toBe(200);
    // A stream in flight keeps the drain going.
    const stream = await fetch(`${proxy.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "x" }] }),
    });
    const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
    await reader.read();
    const drained = proxy.proxy.drain();
    prober.write("GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n");
    const during = await readResponse(prober);
    expect(during.status).toBe(503);
    expect(JSON.parse(during.body)).toEqual({ status: "draining" });
    expect(during.headers.connection).toBe("close");
    const refused = await openSocket(portOf(proxy)).then(
      (socket) => {
        socket.destroy();
        return "connected";
      },
      (error: NodeJS.ErrnoException) => error.code,
    );
    expect(refused).toBe("ECONNREFUSED");
    release();
    for (let read = await reader.read(); !read.done; read = await reader.read());
    expect(await drained).toEqual({ timedOut: false });
  });
});
