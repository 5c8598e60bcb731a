import { Pool } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningProxy, startProxy } from "./start-proxy.js";
import { type FakeUpstream, recordedUpstream } from "./upstream.js";

let upstream: FakeUpstream;
let proxy: RunningProxy;

beforeAll(async () => {
  upstream = await recordedUpstream({ record: false });
  proxy = await startProxy({ upstream: upstream.url, upstreamKeepAlive: 300, logLevel: "error" });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

const TOTAL = 10_000;
const CONCURRENCY = 50;
const WARM_UP = 1_000;
/** Heap growth allowed between the warm-up and the end of the run, after a full collection. */
const HEAP_BOUND = 4 * 1024 * 1024;

/** The call each recording needs repaired (a Python dict), as the proxy hands it on, JSON-escaped in the body. */
const REPAIRED = {
  whole: JSON.stringify('{"city":"Rome"}'),
  stream: JSON.stringify('{"city":"Rome","unit":"c"}'),
};
const bodies = {
  whole: JSON.stringify({ model: "chat-parallel.json", messages: [{ role: "user", content: "Weather?" }] }),
  stream: JSON.stringify({
    model: "chat-stream-parallel.sse",
    stream: true,
    messages: [{ role: "user", content: "Weather?" }],
  }),
};

async function run(pool: Pool, count: number, onError: (message: string) => void): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const index = next++;
      const stream = index % 2 === 1;
      try {
        const response = await pool.request({
          path: "/v1/chat/completions",
          method: "POST",
          headers: { "content-type": "application/json", authorization: "Bearer load" },
          body: stream ? bodies.stream : bodies.whole,
        });
        const text = await response.body.text();
        if (response.statusCode !== 200) onError(`status ${response.statusCode}`);
        else if (!text.includes(stream ? REPAIRED.stream : REPAIRED.whole))
          onError(`unrepaired ${stream ? "stream" : "response"}`);
        else if (stream && !text.endsWith("data: [DONE]\n\n")) onError("stream not ended");
      } catch (error) {
        onError((error as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

/** Waits until `until()` holds, polling; a condition that never holds fails the test at its timeout, not earlier. */
const settle = async (until: () => boolean): Promise<void> => {
  while (!until()) await new Promise((resolve) => setTimeout(resolve, 25));
};

describe("a bounded load run on loopback", () => {
  it(`answers ${TOTAL} requests, ${CONCURRENCY} at a time, half streamed, with no error and no leak`, async () => {
    const gc = (globalThis as { gc?: () => void }).gc;
    expect(typeof gc).toBe("function");
    const errors: string[] = [];
    const pool = new Pool(proxy.origin, { connections: CONCURRENCY, pipelining: 1 });
    let maxUpstream = 0;
    const sampler = setInterval(() => {
      maxUpstream = Math.max(maxUpstream, proxy.proxy.sockets().upstream);
    }, 20);
    try {
      await run(pool, WARM_UP, (e) => errors.push(e));
      gc?.();
      const before = process.memoryUsage().heapUsed;
      const started = Date.now();
      await run(pool, TOTAL, (e) => errors.push(e));
      const seconds = (Date.now() - started) / 1000;
      gc?.();
      const growth = process.memoryUsage().heapUsed - before;
      console.log(
        `load: ${TOTAL} requests in ${seconds.toFixed(1)} s (${Math.round(TOTAL / seconds)}/s), heap growth ${(growth / 1024 / 1024).toFixed(2)} MiB, upstream connections at most ${maxUpstream}`,
      );
      expect(errors.slice(0, 5)).toEqual([]);
      expect(errors).toHaveLength(0);
      expect(growth).toBeLessThan(HEAP_BOUND);
      expect(maxUpstream).toBeLessThanOrEqual(CONCURRENCY);
    } finally {
      clearInterval(sampler);
      await pool.close();
    }
    // Nothing left open: the clients' connections closed, the upstream's closed after their keep-alive.
    await settle(() => proxy.proxy.sockets().clients === 0 && proxy.proxy.sockets().upstream === 0);
    expect(proxy.proxy.inFlight).toBe(0);
    expect(proxy.proxy.sockets()).toEqual({ clients: 0, upstream: 0 });
    await settle(() => upstream.sockets.size === 0);
    expect(upstream.sockets.size).toBe(0);
    const metrics = await fetch(`${proxy.origin}/metrics`, { headers: { connection: "close" } }).then((r) =>
      r.text(),
    );
    const answered =
      /toolcall_proxy_requests_total\{route="chat\.completions",method="POST",status="200"\} (\d+)/.exec(
        metrics,
      );
    expect(Number(answered?.[1])).toBe(TOTAL + WARM_UP);
    // A fixed amount of work, not a deadline: about 5 s on a quiet machine, minutes when other jobs load both cores.
    // The limit only turns a hang into a failure.
  }, 600_000);
});
