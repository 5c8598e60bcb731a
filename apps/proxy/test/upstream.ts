import { readFileSync } from "node:fs";
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { join } from "node:path";
import { replay as replayRecorded } from "../../../packages/openai/test/server.js";

// Recorded vLLM- and OpenAI-shaped responses, read where the packages keep them (their READMEs name the sources).
const FIXTURE_DIRS = [
  join(import.meta.dirname, "../../../packages/openai/test/__fixtures__"),
  join(import.meta.dirname, "../../../packages/gemma-recovery/test/__fixtures__"),
];

export function fixture(name: string): Buffer {
  for (const dir of FIXTURE_DIRS) {
    try {
      return readFileSync(join(dir, name));
    } catch {
      // next folder
    }
  }
  throw new Error(`no fixture ${name}`);
}

export interface UpstreamRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
  json: unknown;
}

export interface FakeUpstream {
  url: string;
  port: number;
  requests: UpstreamRequest[];
  sockets: Set<Socket>;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 standing where vLLM would be; `handle` answers each request. */
export async function startUpstream(
  handle: (request: UpstreamRequest, response: ServerResponse, raw: IncomingMessage) => void | Promise<void>,
  options: { record?: boolean } = {},
): Promise<FakeUpstream> {
  const requests: UpstreamRequest[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer(async (raw, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of raw) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    let json: unknown;
    try {
      json = body === "" ? undefined : JSON.parse(body);
    } catch {
      json = undefined;
    }
    const request = {
      method: raw.method ?? "",
      url: raw.url ?? "",
      headers: raw.headers,
      rawHeaders: raw.rawHeaders,
      body,
      json,
    };
    if (options.record !== false) requests.push(request);
    try {
      await handle(request, response, raw);
    } catch {
      response.destroy();
    }
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    sockets,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Replays the recorded response named `name` from either package's fixtures (see `sendRecorded`). */
export function replay(
  response: ServerResponse,
  name: string,
  options: { piece?: number; delay?: number } = {},
): Promise<void> {
  return replayRecorded(response, name, { ...options, read: fixture });
}

/**
 * The recorded-fixture upstream: the request's `model` names the recording, `metadata.piece` the write size.
 * `record: false` keeps no list of the requests (for load runs that measure memory).
 */
export function recordedUpstream(options: { record?: boolean } = {}): Promise<FakeUpstream> {
  return startUpstream((request, response) => {
    if (request.method === "GET") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ object: "list", data: [{ id: "recorded", object: "model" }] }));
      return;
    }
    const body = request.json as { model: string; metadata?: { piece?: string } };
    return replay(response, body.model, { piece: Number(body.metadata?.piece ?? 0) });
  }, options);
}
