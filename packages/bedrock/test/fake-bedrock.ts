import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

// A loopback server standing where Bedrock's Converse endpoint would, refusing a request body as Bedrock does, with
// Bedrock's literal texts (the sources are in core's bedrock-converse profile). Its checks are written here, in
// Converse's own terms, not borrowed from core: the test then holds core's predictions against them.

type Item = Record<string, unknown>;
const isObject = (value: unknown): value is Item =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The first thing Bedrock would refuse in a Converse request body, in its words, or `undefined`. */
export function bedrockRefusal(body: unknown): string | undefined {
  if (!isObject(body) || !Array.isArray(body.messages))
    return "Malformed input request, please reformat your input and try again.";
  const messages = body.messages as Item[];
  const blocks = (message: Item | undefined): Item[] =>
    Array.isArray(message?.content) ? (message.content as Item[]) : [];
  const hasTools = messages.some((m) => blocks(m).some((b) => "toolUse" in b || "toolResult" in b));
  if (hasTools && !isObject(body.toolConfig))
    return "The toolConfig field must be defined when using toolUse and toolResult content blocks.";
  for (const [i, message] of messages.entries()) {
    for (const [j, block] of blocks(message).entries()) {
      if (typeof block.text === "string" && block.text.trim() === "")
        return `The text field in the ContentBlock object at messages.${i}.content.${j} is blank. Add text to the text field, and try again.`;
      const use = isObject(block.toolUse) ? block.toolUse : undefined;
      if (use === undefined) continue;
      const id = String(use.toolUseId);
      if (!/^[a-zA-Z0-9_.:-]+$/.test(id) || id.length > 64)
        return `1 validation error detected: Value '${id}' at 'messages.${i}.member.content.${j}.member.toolUse.toolUseId' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.:-]+`;
      if (!isObject(use.input))
        return `The format of the value at messages.${i}.content.${j}.toolUse.input is invalid. Provide a json object for the field and try again.`;
    }
    const uses = blocks(message).flatMap((b) => (isObject(b.toolUse) ? [String(b.toolUse.toolUseId)] : []));
    const results = blocks(messages[i + 1]).flatMap((b) =>
      isObject(b.toolResult) ? [String(b.toolResult.toolUseId)] : [],
    );
    const missing = uses.filter((id) => !results.includes(id));
    if (missing.length > 0)
      return `Expected toolResult blocks at messages.${i + 1}.content for the following Ids: ${missing.join(", ")}`;
    const answered = blocks(messages[i - 1]).filter((b) => isObject(b.toolUse)).length;
    const given = blocks(message).filter((b) => isObject(b.toolResult)).length;
    if (given > answered)
      return `The number of toolResult blocks at messages.${i}.content exceeds the number of toolUse blocks of previous turn.`;
  }
  return undefined;
}

export interface FakeBedrock {
  url: string;
  exchanges: Array<{ request: unknown; status: number; response: Item }>;
  close(): Promise<void>;
}

/** Starts the fake on a free loopback port: `POST /model/{id}/converse` answers 400 with Bedrock's body, or 200. */
export async function startFakeBedrock(): Promise<FakeBedrock> {
  const exchanges: FakeBedrock["exchanges"] = [];
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
      const refusal = bedrockRefusal(body);
      const status = refusal === undefined ? 200 : 400;
      const answer: Item =
        refusal === undefined
          ? {
              output: { message: { role: "assistant", content: [{ text: "It is 30°C in London." }] } },
              stopReason: "end_turn",
              usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
            }
          : { message: refusal };
      exchanges.push({ request: body, status, response: answer });
      response.writeHead(status, {
        "content-type": "application/json",
        ...(refusal === undefined
          ? {}
          : {
              "x-amzn-errortype": "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/",
            }),
      });
      response.end(JSON.stringify(answer));
    });
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
