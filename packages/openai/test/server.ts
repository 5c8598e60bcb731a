import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

export const fixture = (name: string): Buffer =>
  readFileSync(join(import.meta.dirname, "__fixtures__", name));

export interface Recorded {
  method: string;
  url: string;
  body: unknown;
  /** The body as it came, before parsing. */
  text?: string;
}

export interface TestServer {
  /** The base URL the SDK is pointed at (`http://127.0.0.1:PORT/v1`). */
  baseURL: string;
  requests: Recorded[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<{ body: unknown; text: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return { body: text === "" ? undefined : JSON.parse(text), text };
}

/** A real HTTP server on 127.0.0.1 standing where a remote OpenAI-compatible service would be. */
export async function startServer(
  handle: (request: Recorded, response: ServerResponse) => void | Promise<void>,
): Promise<TestServer> {
  const requests: Recorded[] = [];
  const server: Server = createServer(async (request, response) => {
    const { body, text } = await readBody(request);
    const recorded = { method: request.method ?? "", url: request.url ?? "", body, text };
    requests.push(recorded);
    await handle(recorded, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Sends recorded bytes as an upstream would: JSON as one body, SSE in pieces of `piece` bytes (cutting through
 * multi-byte characters), each piece a separate socket write, `delay` ms apart (or one event-loop turn apart).
 */
export async function sendRecorded(
  response: ServerResponse,
  body: Buffer,
  options: { sse: boolean; piece?: number; delay?: number },
): Promise<void> {
  if (!options.sse) {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(body);
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const size = options.piece !== undefined && options.piece > 0 ? options.piece : body.length;
  for (let at = 0; at < body.length; at += size) {
    if (response.destroyed) return;
    response.write(body.subarray(at, at + size));
    if (options.delay !== undefined) await new Promise((resolve) => setTimeout(resolve, options.delay));
    else if (size < body.length) await new Promise((resolve) => setImmediate(resolve));
  }
  response.end();
}

/**
 * Replays the recorded response named `name` (`.json` whole, `.sse` in pieces; see `sendRecorded`), read with
 * `read` (this package's fixtures unless another reader is given).
 */
export function replay(
  response: ServerResponse,
  name: string,
  options: { piece?: number; delay?: number; read?: (name: string) => Buffer } = {},
): Promise<void> {
  const { read = fixture, ...pacing } = options;
  return sendRecorded(response, read(name), { sse: !name.endsWith(".json"), ...pacing });
}
