import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningProxy, startProxy } from "./start-proxy.js";
import { type FakeUpstream, fixture, startUpstream } from "./upstream.js";

let upstream: FakeUpstream;
let proxy: RunningProxy;
/** Lets the slow-events upstream send the rest once the client has read the first event. */
let firstEventRead: () => void = () => {};

beforeAll(async () => {
  upstream = await startUpstream(async (request, response) => {
    if (request.url.includes("/embeddings")) {
      response.writeHead(201, {
        "content-type": "application/json",
        "x-upstream": "yes",
        "set-cookie": ["a=1", "b=2"],
      });
      response.end(JSON.stringify({ echoed: request.body }));
      return;
    }
    if (request.url.endsWith("/broken")) {
      response.writeHead(500, { "content-type": "text/plain" });
      response.end("upstream exploded");
      return;
    }
    if (request.url.endsWith("/slow-events")) {
      // The first event, then the rest only once the client has read it: streamed, never gathered.
      const read = new Promise<void>((resolve) => {
        firstEventRead = resolve;
      });
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("data: 0\n\n");
      await read;
      response.end("data: 1\n\ndata: 2\n\n");
      return;
    }
    if (request.url.endsWith("/chat/completions")) {
      // A server that compresses whatever it is asked for.
      response.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" });
      response.end(gzipSync(fixture("chat-null-arguments.json")));
      return;
    }
    response.writeHead(404);
    response.end();
  });
  proxy = await startProxy({ upstream: `${upstream.url}/prefix/v1` });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

describe("every other path", () => {
  it("passes method, body, status and headers through unchanged, under the upstream's path prefix", async () => {
    const body = '{"input": ["naïve", 1.0], "model":"e"}';
    const response = await fetch(`${proxy.baseURL}/embeddings?dimensions=8`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-client": "kept" },
      body,
    });
    expect(response.status).toBe(201);
    expect(response.headers.get("x-upstream")).toBe("yes");
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(await response.json()).toEqual({ echoed: body });
    const sent = upstream.requests.at(-1);
    expect(sent?.url).toBe("/prefix/v1/embeddings?dimensions=8");
    expect(sent?.headers["x-client"]).toBe("kept");
  });

  it("passes an upstream error through as it came", async () => {
    const response = await fetch(`${proxy.baseURL}/broken`);
    expect(response.status).toBe(500);
    expect(await response.text()).toBe("upstream exploded");
  });

  it("streams a passed-through response as it arrives", async () => {
    const response = await fetch(`${proxy.baseURL}/slow-events`);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("data: 0\n\n");
    firstEventRead();
    let rest = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(value);
    }
    expect(rest).toBe("data: 1\n\ndata: 2\n\n");
  });

  it("asks for uncompressed bodies where it repairs, and passes a compressed one on untouched", async () => {
    const response = await fetch(`${proxy.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", "accept-encoding": "gzip" },
      body: "{}",
    });
    expect(upstream.requests.at(-1)?.headers["accept-encoding"]).toBe("identity");
    expect(response.headers.get("content-encoding")).toBe("gzip");
    const completion = (await response.json()) as { choices: Array<{ message: { tool_calls: unknown[] } }> };
    expect(completion.choices[0]?.message.tool_calls).toHaveLength(1);
  });

  it("answers HEAD /healthz without a body", async () => {
    const response = await fetch(`${proxy.origin}/healthz`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
  });
});
