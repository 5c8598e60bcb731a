import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

export const fixture = (name: string): Buffer =>
  readFileSync(join(import.meta.dirname, "__fixtures__", name));

export interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: Array<Record<string, unknown>>;
  [key: string]: unknown;
}

export interface TestServer {
  /** Where `ChatOpenAI` is pointed (`configuration.baseURL`). */
  baseURL: string;
  /** Every chat request received, parsed. */
  requests: ChatRequest[];
  close(): Promise<void>;
}

async function readJson(request: IncomingMessage): Promise<ChatRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as ChatRequest;
}

/** An OpenAI-compatible server on 127.0.0.1 (port 0), answering `POST /v1/chat/completions` with `handle`. */
export async function startServer(
  handle: (request: ChatRequest, response: ServerResponse) => void | Promise<void>,
): Promise<TestServer> {
  const requests: ChatRequest[] = [];
  const server = createServer(async (request, response) => {
    if (request.method !== "POST" || !request.url?.endsWith("/chat/completions")) {
      response.writeHead(404).end();
      return;
    }
    const body = await readJson(request);
    requests.push(body);
    await handle(body, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * Replays the recorded response named after the request's model: `<model>.json` as one body, or `<model>.sse` in
 * pieces of `pieceSize` bytes (through multi-byte characters), as socket writes arrive.
 */
export async function replay(request: ChatRequest, response: ServerResponse, pieceSize = 64): Promise<void> {
  if (request.stream !== true) {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(fixture(`${request.model}.json`));
    return;
  }
  const body = fixture(`${request.model}.sse`);
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (let at = 0; at < body.length; at += pieceSize) {
    response.write(body.subarray(at, at + pieceSize));
    await new Promise((resolve) => setImmediate(resolve));
  }
  response.end();
}

/**
 * Why a strict provider (DashScope, MiniMax, vLLM's own validation, Anthropic via a proxy) rejects a history, in
 * its own words, or `undefined` when it accepts it: stored arguments that are not a JSON object, a call without a
 * result before the next assistant turn, a result that answers no call, an empty `tool_calls` list.
 */
export function strictRejection(messages: ReadonlyArray<Record<string, unknown>>): string | undefined {
  let open = new Set<string>();
  for (const [index, message] of messages.entries()) {
    if (message.role === "assistant") {
      if (open.size > 0) return `messages[${index}]: tool_calls without results: ${[...open].join(", ")}`;
      open = new Set();
      const calls = message.tool_calls;
      if (calls === undefined || calls === null) continue;
      if (!Array.isArray(calls) || calls.length === 0)
        return `messages[${index}].tool_calls: must be non-empty`;
      for (const call of calls as Array<{ id?: unknown; function?: { arguments?: unknown } }>) {
        const text = call.function?.arguments;
        let parsed: unknown;
        try {
          parsed = typeof text === "string" ? JSON.parse(text) : undefined;
        } catch {
          parsed = undefined;
        }
        if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
          return `InternalError.Algo.InvalidParameter: The "function.arguments" parameter of the code model must be in JSON format.`;
        }
        if (typeof call.id !== "string" || open.has(call.id))
          return `messages[${index}]: a call id is missing or repeated`;
        open.add(call.id);
      }
    } else if (message.role === "tool") {
      const id = message.tool_call_id;
      if (typeof id !== "string" || !open.has(id))
        return `messages[${index}]: tool result ${String(id)} answers no call`;
      open.delete(id);
    } else if (open.size > 0) {
      return `messages[${index}]: tool_calls without results: ${[...open].join(", ")}`;
    }
  }
  if (open.size > 0) return `tool_calls without results: ${[...open].join(", ")}`;
  return undefined;
}

/** A strict provider: HTTP 400 for a history it rejects, otherwise a plain text answer. */
export function strictProvider(request: ChatRequest, response: ServerResponse): void {
  const reason = strictRejection(request.messages);
  if (reason !== undefined) {
    response.writeHead(400, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        error: { message: reason, type: "invalid_request_error", code: "invalid_parameter" },
      }),
    );
    return;
  }
  const answer = {
    id: "chatcmpl-strict",
    object: "chat.completion",
    created: 1775000000,
    model: request.model,
    choices: [{ index: 0, message: { role: "assistant", content: "Done." }, finish_reason: "stop" }],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
  if (request.stream === true) {
    const { message, ...choice } = answer.choices[0] as { message: unknown; [key: string]: unknown };
    const chunk = { ...answer, object: "chat.completion.chunk", choices: [{ ...choice, delta: message }] };
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.end(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`);
    return;
  }
  response.writeHead(200, { "content-type": "application/json" });
  response.end(JSON.stringify(answer));
}
