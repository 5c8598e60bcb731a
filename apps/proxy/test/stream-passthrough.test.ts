import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningProxy, startProxy } from "./start-proxy.js";
import { type FakeUpstream, fixture, startUpstream } from "./upstream.js";

// xAI grok-3-mini's recorded Chat Completions stream (see packages/openai/test/__fixtures__/README.md): 226
// reasoning deltas, one clean call in one delta, a finish. Framed as SSE here, as the API sends it.
const chunks = fixture("recorded/xai-grok-3-mini-tool-call.chunks.txt")
  .toString("utf8")
  .split("\n")
  .filter((line) => line !== "");
const reasoning = chunks.slice(0, -2);
const ending = chunks.slice(-2);

/** The stream with its first `count` reasoning deltas, then the call and the finish, and `[DONE]`. */
function stream(count: number): Buffer {
  const frames = [...reasoning.slice(0, count), ...ending].map((chunk) => `data: ${chunk}\n\n`);
  return Buffer.from(`${frames.join("")}data: [DONE]\n\n`);
}

let upstream: FakeUpstream;
let proxy: RunningProxy;

beforeAll(async () => {
  // `model` is the number of reasoning deltas; `metadata.piece` writes the stream in pieces of that size (0: one
  // write per frame), as a server writing tokens as they come.
  upstream = await startUpstream(async (request, response) => {
    const body = request.json as { model: string; metadata?: { piece?: string } };
    const bytes = stream(Number(body.model));
    response.writeHead(200, { "content-type": "text/event-stream" });
    const piece = Number(body.metadata?.piece ?? 0);
    if (piece === 0) for (const frame of bytes.toString("utf8").split(/(?<=\n\n)/)) response.write(frame);
    else for (let at = 0; at < bytes.length; at += piece) response.write(bytes.subarray(at, at + piece));
    response.end();
  });
  proxy = await startProxy({ upstream: upstream.url });
});

afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

/** The raw bytes the client gets for a stream of `count` reasoning deltas. */
async function fetchStream(count: number, piece = 0): Promise<Buffer> {
  const response = await fetch(`${proxy.baseURL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      model: String(count),
      stream: true,
      messages: [{ role: "user", content: "Weather in San Francisco?" }],
      metadata: { piece: String(piece) },
    }),
  });
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

/** Calls of the decoders (JSON.parse and TextDecoder#decode) in this process while `run` runs. */
async function decoderCalls(run: () => Promise<unknown>): Promise<number> {
  const parse = JSON.parse;
  const decoders = TextDecoder.prototype as { decode: (...args: unknown[]) => string };
  const decode = decoders.decode;
  let calls = 0;
  JSON.parse = function counted(this: unknown, ...args: Parameters<typeof JSON.parse>) {
    calls++;
    return parse.apply(this, args);
  };
  decoders.decode = function counted(this: unknown, ...args: unknown[]) {
    calls++;
    return decode.apply(this, args);
  };
  try {
    await run();
  } finally {
    JSON.parse = parse;
    decoders.decode = decode;
  }
  return calls;
}

describe("a clean stream goes through as the upstream's bytes", () => {
  it("byte for byte, one write per frame or in pieces that cut frames and characters", async () => {
    for (const piece of [0, 7, 1000, 64 * 1024]) expect(await fetchStream(226, piece)).toEqual(stream(226));
  });

  it("frames that carry no call are not decoded: the decoders' calls do not grow with them", async () => {
    await fetchStream(10);
    const few = await decoderCalls(() => fetchStream(10));
    const many = await decoderCalls(() => fetchStream(226));
    expect(many).toBe(few);
    // Pieces that cut frames do not change that.
    expect(await decoderCalls(() => fetchStream(226, 1000))).toBe(few);
  });
});
