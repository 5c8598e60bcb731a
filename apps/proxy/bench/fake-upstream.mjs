// A fake OpenAI-compatible upstream for the benchmark, on loopback. `model` picks the answer:
// - "malformed": the recorded vLLM-shaped completion with three calls, two needing repair (chat-parallel.json);
// - "clean": a completion whose calls need nothing;
// - any request with "stream":true: an SSE stream of CONTENT_CHUNKS content deltas, then one tool call whose
//   arguments (a Python dict, so the proxy repairs it) arrive in ARGUMENT_CHUNKS pieces, a finish and [DONE],
//   one socket write per frame as a server generating tokens writes them.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";

export const CONTENT_CHUNKS = 100;
export const ARGUMENT_CHUNKS = 20;

const fixtures = join(import.meta.dirname, "../../../packages/openai/test/__fixtures__");
const malformed = readFileSync(join(fixtures, "chat-parallel.json"));
const clean = Buffer.from(
  JSON.stringify({
    id: "chatcmpl-clean",
    object: "chat.completion",
    created: 1775000000,
    model: "bench",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: null,
          tool_calls: ["Paris", "Rome", "Oslo"].map((city, i) => ({
            id: `call_${i}`,
            type: "function",
            function: { name: "get_weather", arguments: JSON.stringify({ city }) },
          })),
        },
        finish_reason: "tool_calls",
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 80, completion_tokens: 40, total_tokens: 120 },
  }),
);

/** The stream's frames, one Buffer each. */
export function streamFrames({ contentChunks = CONTENT_CHUNKS, argumentChunks = ARGUMENT_CHUNKS } = {}) {
  const base = { id: "chatcmpl-bench", object: "chat.completion.chunk", created: 1775000000, model: "bench" };
  const frame = (delta, finish = null) =>
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  const frames = [frame({ role: "assistant", content: "" })];
  for (let i = 0; i < contentChunks; i++) frames.push(frame({ content: `word${i} ` }));
  frames.push(
    frame({
      tool_calls: [
        { index: 0, id: "call_1", type: "function", function: { name: "get_weather", arguments: "" } },
      ],
    }),
  );
  const args = `{'city': 'Paris', 'days': 3, 'note': '${"x".repeat(argumentChunks * 4)}'}`;
  const size = Math.ceil(args.length / argumentChunks);
  for (let at = 0; at < args.length; at += size)
    frames.push(frame({ tool_calls: [{ index: 0, function: { arguments: args.slice(at, at + size) } }] }));
  frames.push(frame({}, "tool_calls"));
  frames.push("data: [DONE]\n\n");
  return frames.map((f) => Buffer.from(f));
}

export function startFakeUpstream({ port = 0 } = {}) {
  const frames = streamFrames();
  const server = createServer((request, response) => {
    const chunks = [];
    request.on("data", (c) => chunks.push(c));
    request.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      if (request.method === "GET") {
        response.writeHead(200, { "content-type": "application/json" });
        response.end('{"object":"list","data":[{"id":"bench","object":"model"}]}');
        return;
      }
      if (text.includes('"stream":true')) {
        response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        for (const frame of frames) response.write(frame);
        response.end();
        return;
      }
      const body = text.includes('"model":"clean"') ? clean : malformed;
      response.writeHead(200, { "content-type": "application/json", "content-length": body.length });
      response.end(body);
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

if (process.argv[1] === import.meta.filename) {
  const server = await startFakeUpstream({ port: Number(process.argv[2] ?? 0) });
  process.send?.({ port: server.address().port });
}
