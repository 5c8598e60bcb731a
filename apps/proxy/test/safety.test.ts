import { connect } from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningProxy, startProxy } from "./start-proxy.js";
import { type FakeUpstream, recordedUpstream, startUpstream } from "./upstream.js";

let upstream: FakeUpstream;
/** A server that must never be reached: requests aimed at it go through the proxy and must not arrive here. */
let elsewhere: FakeUpstream;
let proxy: RunningProxy;

const SECRET = "Bearer sk-live-9f8e7d6c5b4a-never-log-me";

beforeAll(async () => {
  upstream = await recordedUpstream();
  elsewhere = await startUpstream((_request, response) => {
    response.writeHead(200);
    response.end("elsewhere");
  });
  proxy = await startProxy({ upstream: upstream.url, maxBody: 64 * 1024 });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
  await elsewhere.close();
});

/** Sends raw bytes to the proxy and returns the raw answer (for request lines no client library would send). */
function raw(text: string): Promise<string> {
  const { port } = new URL(proxy.origin);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1");
    let answer = "";
    socket.on("data", (data) => {
      answer += data.toString("latin1");
    });
    socket.on("end", () => resolve(answer));
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
    socket.write(text);
  });
}

describe("never an open proxy", () => {
  it("refuses absolute-URI request targets", async () => {
    const answer = await raw(
      `GET ${elsewhere.url}/v1/models HTTP/1.1\r\nHost: 127.0.0.1:${elsewhere.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('"code":"invalid_request_target"');
    expect(elsewhere.requests).toEqual([]);
    expect(upstream.requests.filter((r) => r.url.includes("models"))).toEqual([]);
  });

  it("refuses CONNECT", async () => {
    const answer = await raw(
      `CONNECT 127.0.0.1:${elsewhere.port} HTTP/1.1\r\nHost: 127.0.0.1:${elsewhere.port}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 405 /);
    expect(elsewhere.requests).toEqual([]);
  });

  it("refuses dot segments that could climb out of the upstream's path", async () => {
    const answer = await raw("GET /v1/../../admin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    const encoded = await raw("GET /v1/%2e%2e/admin HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    expect(encoded).toMatch(/^HTTP\/1\.1 400 /);
  });

  it("never lets the Host header choose where a request goes", async () => {
    const before = upstream.requests.length;
    const answer = await raw(
      `GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1:${elsewhere.port}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain('"recorded"');
    expect(elsewhere.requests).toEqual([]);
    const forwarded = upstream.requests.slice(before);
    expect(forwarded.map((r) => r.url)).toEqual(["/v1/models"]);
    // The upstream sees its own host, not the one the client wrote.
    expect(forwarded[0]?.headers.host).toBe(`127.0.0.1:${upstream.port}`);
  });

  it("refuses an upstream URL that is not plain http(s)", async () => {
    const { createProxy } = await import("../src/index.js");
    expect(createProxy({ upstream: "file:///etc/passwd", log: null })).toMatchObject({ ok: false });
    expect(createProxy({ upstream: "http://user:pw@127.0.0.1:1", log: null })).toMatchObject({ ok: false });
  });
});

describe("credentials and content", () => {
  it("passes Authorization upstream untouched and never logs it, nor the messages", async () => {
    const openai = new OpenAI({
      baseURL: proxy.baseURL,
      apiKey: "unused",
      maxRetries: 0,
      defaultHeaders: { Authorization: SECRET },
    });
    const before = upstream.requests.length;
    await openai.chat.completions.create({
      model: "chat-parallel.json",
      messages: [{ role: "user", content: "my private question about Paris" }],
    });
    for await (const _ of await openai.chat.completions.create({
      model: "chat-stream-parallel.sse",
      messages: [{ role: "user", content: "my private question about Rome" }],
      stream: true,
    })) {
      // drain
    }
    await openai.models.list();
    const sent = upstream.requests.slice(before);
    expect(sent).toHaveLength(3);
    for (const request of sent) {
      const at = request.rawHeaders.findIndex((name) => name.toLowerCase() === "authorization");
      expect(request.rawHeaders[at + 1]).toBe(SECRET);
    }
    const logs = proxy.logText();
    expect(logs).toContain('"route":"chat.completions"');
    expect(logs).not.toContain("sk-live");
    expect(logs).not.toContain("private question");
    // Repairs are logged by rule, without the arguments.
    expect(logs).toContain('"python-literal":1');
    expect(logs).not.toContain("Rome");
  });

  it("logs the arguments of repaired calls only when asked", async () => {
    const verbose = await startProxy({ upstream: upstream.url, logContent: true });
    try {
      await fetch(`${verbose.baseURL}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: SECRET },
        body: JSON.stringify({ model: "chat-parallel.json", messages: [] }),
      }).then((r) => r.text());
      const line = verbose.logs.find((l) => l.route === "chat.completions");
      expect(JSON.stringify(line?.repairDetails)).toContain("Rome");
      expect(verbose.logText()).not.toContain("sk-live");
    } finally {
      await verbose.close();
    }
  });

  it("gives each log line a request id, the client's own when it sends one", async () => {
    const response = await fetch(`${proxy.origin}/healthz`, { headers: { "x-request-id": "trace-42" } });
    expect(await response.json()).toEqual({ status: "ok" });
    expect(proxy.logs.at(-1)).toMatchObject({ requestId: "trace-42", route: "healthz", status: 200 });
    const other = await fetch(`${proxy.baseURL}/models`);
    await other.text();
    expect(other.headers.get("x-request-id")).toBe(proxy.logs.at(-1)?.requestId);
    expect(proxy.logs.at(-1)?.requestId).toMatch(/^[0-9a-f]{24}$/);
  });

  it("passes the upstream's request id on and logs it beside its own, on repaired and passed-through routes", async () => {
    const tagged = await startUpstream((request, response) => {
      const body = request.url.endsWith("/models")
        ? { data: [] }
        : { id: "c", object: "chat.completion", choices: [] };
      response.writeHead(200, {
        "content-type": "application/json",
        "x-request-id": `up-${request.url.length}`,
      });
      response.end(JSON.stringify(body));
    });
    const front = await startProxy({ upstream: tagged.url });
    try {
      for (const [path, init] of [
        ["/chat/completions", { method: "POST", body: JSON.stringify({ model: "m", messages: [] }) }],
        ["/models", {}],
      ] as const) {
        const response = await fetch(`${front.baseURL}${path}`, init);
        await response.text();
        expect(response.headers.get("x-request-id")).toBe(`up-${`/v1${path}`.length}`);
        expect(front.logs.at(-1)).toMatchObject({
          upstreamRequestId: `up-${`/v1${path}`.length}`,
          requestId: expect.stringMatching(/^[0-9a-f]{24}$/),
        });
      }
      // Without one from the upstream, the client gets the proxy's own id on a repaired route too.
      const answer = await new OpenAI({ baseURL: proxy.baseURL, apiKey: "k", maxRetries: 0 }).chat.completions
        .create({ model: "chat-parallel.json", messages: [{ role: "user", content: "hi" }] })
        .withResponse();
      expect(answer.response.headers.get("x-request-id")).toBe(proxy.logs.at(-1)?.requestId);
      expect(proxy.logs.at(-1)?.upstreamRequestId).toBeUndefined();
    } finally {
      await front.close();
      await tagged.close();
    }
  });
});

describe("limits and metrics", () => {
  it("answers 413 to a body over --max-body, without reading it all, and goes on", async () => {
    const big = JSON.stringify({
      model: "chat-parallel.json",
      messages: [{ role: "user", content: "x".repeat(100_000) }],
    });
    const response = await fetch(`${proxy.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: big,
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      error: { code: "request_too_large", type: "invalid_request_error" },
    });
    const next = await fetch(`${proxy.baseURL}/models`);
    expect(next.status).toBe(200);
  });

  it("serves Prometheus metrics: requests, repairs by rule, statuses, latency histograms", async () => {
    const response = await fetch(`${proxy.origin}/metrics`);
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(
      /toolcall_proxy_requests_total\{route="chat\.completions",method="POST",status="200"\} \d+/,
    );
    expect(text).toMatch(
      /toolcall_proxy_repairs_total\{api="chat\.completions",source="response",rule="markdown-fence"\} \d+/,
    );
    expect(text).toMatch(
      /toolcall_proxy_repairs_total\{api="chat\.completions",source="stream",rule="python-literal"\} \d+/,
    );
    expect(text).toMatch(/toolcall_proxy_requests_total\{route="refused",method="GET",status="400"\} \d+/);
    expect(text).toContain("toolcall_proxy_request_duration_seconds_bucket");
    expect(text).toContain("toolcall_proxy_upstream_headers_seconds_bucket");
    expect(text).toContain("process_resident_memory_bytes");
  });
});
