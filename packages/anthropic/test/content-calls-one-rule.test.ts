import Anthropic from "@anthropic-ai/sdk";
import { SYNTAX_IDS, syntaxById } from "@toolcall/model-formats";
import { afterAll, beforeAll, describe } from "vitest";
import {
  type AnswerServer,
  type ChatAnswer,
  type DoorReading,
  itReadsByOneRule,
  startAnswerServer,
} from "../../core/test/fake-providers/vllm-answers.js";
import { guardAnthropic } from "../src/index.js";
import { type MessageShape, sseOf } from "./messages-sse.js";

// One content-call rule at the Anthropic door: a whole answer and its stream (text deltas cut every 1 to 7
// characters) give the same text and tool_use blocks, through @anthropic-ai/sdk against a loopback server answering
// as an Anthropic-compatible server does when its tool parser leaves the model's native call in a text block.

let answer = { text: "", piece: 5 };
let server: AnswerServer;
let baseURL: string;

const shape = (text: string): MessageShape => ({
  id: "msg_01XFDUDYJgAACzvnptvVoYEL",
  model: "m",
  content: [{ type: "text", text }],
  stop_reason: "end_turn",
});

/** The answer set last, as an Anthropic-compatible server writes it: a message, or its events cut every `piece`. */
function messageAnswer(stream: boolean | undefined): ChatAnswer {
  if (stream) {
    const cuts = Array.from({ length: answer.text.length }, (_, at) => at * answer.piece);
    return {
      contentType: "text/event-stream; charset=utf-8",
      body: sseOf({ message: shape(answer.text), cuts }),
    };
  }
  const message = {
    ...shape(answer.text),
    type: "message",
    role: "assistant",
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 40 },
  };
  return { contentType: "application/json", body: JSON.stringify(message) };
}

beforeAll(async () => {
  server = await startAnswerServer((body) => messageAnswer(body.stream));
  // The SDK adds `/v1/messages` itself.
  baseURL = server.baseURL.replace(/\/v1$/, "");
});
afterAll(() => server.close());

const params = {
  model: "m",
  max_tokens: 1024,
  messages: [{ role: "user" as const, content: "What is the weather?" }],
  tools: [
    {
      name: "get_weather",
      input_schema: { type: "object" as const, properties: { city: { type: "string" } } },
    },
  ],
};

/** The text of a message's text blocks, and its tool_use blocks' names and inputs. */
function read(message: Anthropic.Message) {
  let content = "";
  const calls: { name: string; arguments: unknown }[] = [];
  for (const block of message.content) {
    if (block.type === "text") content += block.text;
    else if (block.type === "tool_use") calls.push({ name: block.name, arguments: block.input });
  }
  return { content, calls };
}

/** The door's reading of `text` in the syntax `id`: a whole message, or its stream cut in pieces of `piece`. */
async function readAt(id: string, text: string, piece?: number): Promise<DoorReading> {
  const syntax = syntaxById(id);
  if (syntax === undefined) throw new Error(id);
  const client = guardAnthropic(new Anthropic({ apiKey: "test", baseURL, maxRetries: 0 }), {
    contentCalls: [syntax],
  });
  answer = { text, piece: piece ?? 5 };
  return read(
    piece === undefined
      ? await client.messages.create(params)
      : await client.messages.stream(params).finalMessage(),
  );
}

describe("guardAnthropic({ contentCalls }): whole answers and streams read content calls by one rule", () => {
  itReadsByOneRule({
    read: readAt,
    families: {
      ids: SYNTAX_IDS,
      byId: syntaxById,
      prefixes: ["<|channel>thought\n<channel|>"],
      pieces: [1, 7],
    },
  });
});
