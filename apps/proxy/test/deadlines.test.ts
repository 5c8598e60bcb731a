import OpenAI, { APIError } from "openai";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULTS } from "../src/proxy-options.js";
import { type RunningProxy, startProxy } from "./start-proxy.js";
import { type FakeUpstream, startUpstream } from "./upstream.js";

const frame = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;

let upstream: FakeUpstream;
/** Resolves when the stalled stream's first piece was written: the request is then in flight for sure. */
let streaming: Promise<void>;
let streamStarted: () => void;

// A stalled upstream: it answers nothing until the proxy closes the request (only the proxy's limits end these).
beforeAll(async () => {
  streaming = new Promise((resolve) => {
    streamStarted = resolve;
  });
  upstream = await startUpstream(async (request, response) => {
    const model = (request.json as { model?: string } | undefined)?.model ?? "";
    if (model.startsWith("stall-body")) {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(frame({ role: "assistant", content: "then " }));
      response.write(frame({ content: "silence" }));
      if (model === "stall-body-drain") streamStarted();
    }
    await new Promise((resolve) => response.once("close", resolve));
  });
});
afterAll(async () => {
  await upstream.close();
});

const client = (baseURL: string) => new OpenAI({ baseURL, apiKey: "k", maxRetries: 0, timeout: 30_000 });

async function streamed(baseURL: string, model: string): Promise<{ content: string; error: unknown }> {
  let content = "";
  try {
    const stream = await client(baseURL).chat.completions.create({ model, messages: [], stream: true });
    for await (const chunk of stream as AsyncIterable<ChatCompletionChunk>)
      content += chunk.choices[0]?.delta.content ?? "";
    return { content, error: undefined };
  } catch (error) {
    return { content, error };
  }
}

describe("a stalled upstream never holds a client for long", () => {
  it("the default headers timeout fits chat: minutes, not ten", () => {
    expect(DEFAULTS.headersTimeout).toBeGreaterThanOrEqual(60_000);
    expect(DEFAULTS.headersTimeout).toBeLessThanOrEqual(180_000);
  });

  describe("--request-timeout, a total deadline per request", () => {
    let proxy: RunningProxy;
    beforeAll(async () => {
      // The upstream's own limits far above the deadline: only the deadline can end these requests.
      proxy = await startProxy({
        upstream: upstream.url,
        headersTimeout: 60_000,
        idleTimeout: 60_000,
        requestTimeout: 400,
      });
    });
    afterAll(async () => {
      await proxy.close();
    });

    it("no headers yet: a readable 504 request_deadline", async () => {
      const error = await client(proxy.baseURL)
        .chat.completions.create({ model: "stall-headers", messages: [] })
        .then(
          () => undefined,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(APIError);
      expect([(error as APIError).status, (error as APIError).code]).toEqual([504, "request_deadline"]);
      expect(proxy.logs.at(-1)).toMatchObject({ status: 504, error: { code: "request_deadline" } });
    });

    it("mid-stream: what came is delivered, then an error frame the SDK raises", async () => {
      const { content, error } = await streamed(proxy.baseURL, "stall-body");
      expect(content).toBe("then silence");
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).code).toBe("request_deadline");
    });
  });

  it("a stream cut by the drain timeout ends with an error frame the SDK raises, not a reset", async () => {
    const proxy = await startProxy({
      upstream: upstream.url,
      headersTimeout: 60_000,
      idleTimeout: 60_000,
      drainTimeout: 200,
    });
    try {
      const result = streamed(proxy.baseURL, "stall-body-drain");
      await streaming;
      const drained = await proxy.proxy.drain();
      expect(drained.timedOut).toBe(true);
      const { content, error } = await result;
      expect(content).toBe("then silence");
      expect(error).toBeInstanceOf(APIError);
      expect((error as APIError).code).toBe("proxy_draining");
    } finally {
      await proxy.proxy.close().catch(() => undefined);
    }
  });
});
