// A loopback server that answers as an OpenAI-compatible server in front of a model that emits broken tool calls:
// every chat completion (whole or streamed) carries one call per payload captured in the wild
// (../shared/wild/payloads.json: concatenated objects, fences, Python dicts, truncations…). Examples that talk to
// "a server" (the consumer smoke test, the doc tests) get OPENAI_BASE_URL pointed here.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { join } from "node:path";
import { root } from "./results.mjs";

/** The payloads the server answers with: `[{ source, category, raw }]`. */
export const wildPayloads = () =>
  JSON.parse(readFileSync(join(root, "..", "shared", "wild", "payloads.json"), "utf8"));

const toolCalls = (payloads) =>
  payloads.map((payload, index) => ({
    index,
    id: `call_${index}`,
    type: "function",
    function: { name: payload.category, arguments: payload.raw },
  }));

/**
 * Starts the server on 127.0.0.1 and a free port: `{ baseURL, requests, close() }` (`baseURL` ends in `/v1`).
 *
 * @example
 * const server = await startFakeOpenAI();
 * process.env.OPENAI_BASE_URL = server.baseURL;
 */
export async function startFakeOpenAI() {
  const payloads = wildPayloads();
  const requests = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      const json = body ? JSON.parse(body) : {};
      requests.push({ method: request.method, url: request.url, body: json });
      if (request.method === "GET" && request.url === "/v1/models") {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(
          JSON.stringify({ object: "list", data: [{ id: "fake-model", object: "model", owned_by: "me" }] }),
        );
        return;
      }
      if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
        response.writeHead(404, { "content-type": "application/json" });
        response.end(
          JSON.stringify({ error: { message: `no route ${request.url}`, type: "invalid_request_error" } }),
        );
        return;
      }
      const base = { id: "chatcmpl-fake", created: 1_763_000_000, model: json.model ?? "fake-model" };
      const calls = toolCalls(payloads);
      if (json.stream) {
        response.writeHead(200, { "content-type": "text/event-stream" });
        const frame = (delta, finish = null) =>
          `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
        response.write(frame({ role: "assistant", content: null }));
        for (const call of calls) {
          const text = call.function.arguments;
          const half = Math.floor(text.length / 2);
          response.write(
            frame({
              tool_calls: [
                { ...call, function: { name: call.function.name, arguments: text.slice(0, half) } },
              ],
            }),
          );
          response.write(
            frame({ tool_calls: [{ index: call.index, function: { arguments: text.slice(half) } }] }),
          );
        }
        response.write(frame({}, "tool_calls"));
        response.end("data: [DONE]\n\n");
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          ...base,
          object: "chat.completion",
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content: null,
                tool_calls: calls.map(({ index, ...call }) => call),
              },
              finish_reason: "tool_calls",
              logprobs: null,
            },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
