import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

/** What a fake answers a request it refuses: the provider's HTTP status, its literal body, its extra headers. */
export interface Refusal {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface FakeProvider {
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** Every request body received, and what was answered. */
  exchanges: Array<{ path: string; request: unknown; status: number; response: unknown }>;
  close(): Promise<void>;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}

/**
 * A loopback server standing where a strict provider would: `check` applies the provider's rules to the request
 * body and returns its refusal, or `undefined` to accept, in which case `accept` builds the success body.
 */
export async function startFakeProvider(options: {
  check: (body: unknown) => Refusal | undefined;
  accept: (body: unknown) => unknown;
}): Promise<FakeProvider> {
  const exchanges: FakeProvider["exchanges"] = [];
  const server = createServer(async (request, response) => {
    const text = await readBody(request);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const refusal = options.check(body);
    const status = refusal?.status ?? 200;
    const answer = refusal === undefined ? options.accept(body) : refusal.body;
    exchanges.push({ path: request.url ?? "", request: body, status, response: answer });
    response.writeHead(status, { "content-type": "application/json", ...refusal?.headers });
    response.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A Chat Completions answer, as OpenAI-compatible servers send it. */
export function chatCompletion(model: unknown): unknown {
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 1775000000,
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: "Accepted.", refusal: null },
        finish_reason: "stop",
        logprobs: null,
      },
    ],
    usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
  };
}

/** A fake OpenAI-compatible provider: `check` refuses, a Chat Completions answer accepts. */
export function startChatFake(check: (body: unknown) => Refusal | undefined): Promise<FakeProvider> {
  return startFakeProvider({ check, accept: (body) => chatCompletion((body as { model?: unknown }).model) });
}
