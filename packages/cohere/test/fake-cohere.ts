import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

// A loopback server standing where Cohere's v2 Chat endpoint would, refusing a request body as Cohere does, with
// Cohere's literal texts (oracle/langchain-oracle#10, vercel/ai#5794). Its checks are written here, in Cohere's own
// terms, not borrowed from core: the test then holds core's predictions against them.

type Item = Record<string, unknown>;
const isObject = (value: unknown): value is Item =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The first thing Cohere would refuse in a v2 Chat request body, in its words, or `undefined`. */
export function cohereRefusal(body: unknown): string | undefined {
  if (!isObject(body) || !Array.isArray(body.messages)) return "invalid request: messages must be specified";
  const messages = body.messages as Item[];
  for (const [i, message] of messages.entries()) {
    const calls = Array.isArray(message.tool_calls) ? (message.tool_calls as Item[]) : [];
    if (message.role !== "assistant" || calls.length === 0) continue;
    const text = typeof message.content === "string" ? message.content : "";
    if (text.trim() !== "")
      return `text content is not allowed when tool_calls are provided. If you wish to pass a tool plan, either pass thinking content (with thinking enabled) or use 'tool_plan': 'messages[${i}].content[0]'`;
    const answered = new Set<unknown>();
    for (const next of messages.slice(i + 1)) {
      if (next.role !== "tool") break;
      answered.add(next.tool_call_id);
    }
    const missing = calls.map((call) => call.id).filter((id) => !answered.has(id));
    if (missing.length > 0)
      return `invalid request: An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(", ")}`;
  }
  return undefined;
}

export interface FakeCohere {
  url: string;
  close(): Promise<void>;
}

/** Starts the fake on a free loopback port: `POST /v2/chat` answers 400 `{id, message}`, or 200. */
export async function startFakeCohere(): Promise<FakeCohere> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      let body: unknown;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = undefined;
      }
      const refusal = cohereRefusal(body);
      response.writeHead(refusal === undefined ? 200 : 400, { "content-type": "application/json" });
      response.end(
        JSON.stringify(
          refusal === undefined
            ? {
                id: "c0ffee",
                finish_reason: "COMPLETE",
                message: { role: "assistant", content: [{ type: "text", text: "Chelsea." }] },
              }
            : { id: "c0ffee", message: refusal },
        ),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
