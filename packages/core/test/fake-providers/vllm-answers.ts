import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";

// What an OpenAI-compatible server (vLLM, a gateway in front of one) answers when a tool call did not come out as a
// clean `tool_calls` entry: the model's native call left in `content` (its tool parser missed it), or parallel calls
// merged into one call's arguments (`{…}{…}`, as LiteLLM sessions in issue 33's reports show). The doors' content-call
// and split-merged tests (openai, langchain, ai-sdk) answer their SDKs with these, whole and streamed.

/** A Qwen3-Coder call left in content (a look-alike of vLLM's `qwen3_coder` output, the text the model writes). */
export const QWEN_CONTENT_CALL =
  "Let me check.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>";

/** Gemma 4 native calls left in content: recorded vLLM traffic (@toolcall/gemma-recovery's fixture), deltas joined. */
export const GEMMA_CONTENT_CALL = readFileSync(
  join(
    import.meta.dirname,
    "../../../gemma-recovery/test/__fixtures__/vllm-gemma4-native-call-in-content.sse",
  ),
  "utf8",
)
  .split("\n")
  .filter((line) => line.startsWith("data: {"))
  .map((line) => JSON.parse(line.slice(6)).choices[0]?.delta?.content ?? "")
  .join("");

/** Qwen3-Coder-30B-A3B-Instruct's real chat template (../shared/templates, read where it is), for `contentCalls: "auto"`. */
export const QWEN_CODER_TEMPLATE = readFileSync(
  join(import.meta.dirname, "../../../../../shared/templates/Qwen-Qwen3-Coder-30B-A3B-Instruct.jinja"),
  "utf8",
);

/** A chat completion chunk as vLLM frames it in its SSE stream. */
export const chatChunk = (delta: object, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;

/** One answer's body and its content type. */
export interface ChatAnswer {
  contentType: string;
  body: string;
}

function completion(message: object, finish: string): ChatAnswer {
  return {
    contentType: "application/json",
    body: JSON.stringify({
      id: "c",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
    }),
  };
}

function events(chunks: string): ChatAnswer {
  return { contentType: "text/event-stream", body: `${chunks}data: [DONE]\n\n` };
}

/** `text` answered in `content`: whole, or streamed in deltas of `piece` characters (5 by default). */
export function contentAnswer(options: { text: string; stream?: boolean; piece?: number }): ChatAnswer {
  const { text } = options;
  if (options.stream !== true) return completion({ role: "assistant", content: text }, "stop");
  const piece = options.piece ?? 5;
  let out = chatChunk({ role: "assistant", content: "" });
  for (let at = 0; at < text.length; at += piece) out += chatChunk({ content: text.slice(at, at + piece) });
  return events(`${out}${chatChunk({}, "stop")}`);
}

/** `text` cut at the given offsets (taken modulo its length + 1), in order. */
export function pieces(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  return [...points, text.length].map((end, k, ends) =>
    text.slice(k === 0 ? 0 : (ends[k - 1] as number), end),
  );
}

/**
 * Calls to `search` (ids `call_0`, `call_1`, …) whose arguments are the given texts (merged calls among them): whole,
 * or streamed with each call's arguments in fragments cut at `cuts`.
 */
export function mergedCallsAnswer(options: {
  calls: readonly string[];
  cuts?: readonly number[];
  stream?: boolean;
}): ChatAnswer {
  const { calls } = options;
  if (options.stream !== true) {
    const tool_calls = calls.map((text, index) => ({
      id: `call_${index}`,
      type: "function",
      function: { name: "search", arguments: text },
    }));
    return completion({ role: "assistant", content: null, tool_calls }, "tool_calls");
  }
  let out = chatChunk({ role: "assistant", content: null });
  calls.forEach((text, index) => {
    out += chatChunk({
      tool_calls: [
        { index, id: `call_${index}`, type: "function", function: { name: "search", arguments: "" } },
      ],
    });
    for (const piece of pieces(text, options.cuts ?? []))
      out += chatChunk({ tool_calls: [{ index, function: { arguments: piece } }] });
  });
  return events(`${out}${chatChunk({}, "tool_calls")}`);
}

/** A loopback OpenAI-compatible server: each request's JSON body gets `answer(body)`. */
export interface AnswerServer {
  /** `http://127.0.0.1:PORT/v1`, where an SDK is pointed. */
  baseURL: string;
  close(): Promise<void>;
}

/** Starts an {@link AnswerServer} on 127.0.0.1 (port 0). */
export async function startAnswerServer(
  answer: (body: { stream?: boolean; [key: string]: unknown }) => ChatAnswer,
): Promise<AnswerServer> {
  const server = createServer((request, response) => {
    let text = "";
    request.on("data", (chunk) => {
      text += chunk;
    });
    request.on("end", () => {
      const { contentType, body } = answer(JSON.parse(text));
      response.writeHead(200, { "content-type": contentType });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The loopback vLLM of one test file, from {@link serveContentAnswers}. */
export interface ContentAnswers {
  /** `http://127.0.0.1:PORT/v1`; read inside a test (the server starts before the file's tests). */
  readonly baseURL: string;
  /** What every later request gets: `text` left in `content`, whole or streamed in deltas of `piece` characters. */
  answerWith(text: string, piece?: number): void;
}

/**
 * A loopback server answering as vLLM does when its tool parser leaves the model's native call in `content`, started
 * before the calling test file's tests and closed after them (vitest's `beforeAll` / `afterAll`).
 */
export function serveContentAnswers(): ContentAnswers {
  let answer = { text: "", piece: 5 };
  let server: AnswerServer | undefined;
  beforeAll(async () => {
    server = await startAnswerServer((body) => contentAnswer({ ...answer, stream: body.stream }));
  });
  afterAll(() => server?.close());
  return {
    get baseURL() {
      if (server === undefined)
        throw new Error("the answer server starts in beforeAll: read baseURL inside a test");
      return server.baseURL;
    },
    answerWith(text, piece = 5) {
      answer = { text, piece };
    },
  };
}

/**
 * Answers each door must read alike whole and streamed, by the one content-call rule (`syntaxReadText`): the syntax
 * (a `@toolcall/model-formats` id), the text left in `content`, and what content and calls come out. Issue 30 found
 * the first two apart: an empty Gemma 4 thought channel (syntax, dropped), and a bare Llama 3 call naming an offered
 * tool under an unknown arguments key (content as written, `arguments_key_unknown`, nothing run).
 */
export const ONE_RULE_CASES: readonly {
  name: string;
  syntax: string;
  text: string;
  content: string;
  calls: { name: string; arguments: Record<string, unknown> }[];
}[] = [
  {
    name: "an empty Gemma 4 thought channel",
    syntax: "gemma4",
    text: "<|channel>thought\n<channel|>Hello!",
    content: "Hello!",
    calls: [],
  },
  {
    name: "a bare Llama 3 call under an unknown arguments key",
    syntax: "llama3-json",
    text: '{"name": "get_weather", "argz": {"city": "Paris"}}',
    content: '{"name": "get_weather", "argz": {"city": "Paris"}}',
    calls: [],
  },
  {
    name: "a bare Llama 3 call",
    syntax: "llama3-json",
    text: '{"name": "get_weather", "parameters": {"city": "Paris"}}',
    content: "",
    calls: [{ name: "get_weather", arguments: { city: "Paris" } }],
  },
  {
    name: "a Hermes call after text",
    syntax: "hermes",
    text: 'Sure.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
    content: "Sure.",
    calls: [{ name: "get_weather", arguments: { city: "Paris" } }],
  },
];

/** What a door made of an answer: its text and its calls (arguments as values). */
export interface DoorReading {
  content: string | null;
  calls: { name: string; arguments: unknown }[];
}

/**
 * A door's reading of `text` left in content, the door reading the syntax `syntax` (a `@toolcall/model-formats` id):
 * of the whole answer when `piece` is absent, else of its stream cut in pieces of `piece` characters.
 */
export type DoorRead = (syntax: string, text: string, piece?: number) => Promise<DoorReading>;

/**
 * The tests every door that reads content calls runs against the one rule (R10, `syntaxReadText`): each of
 * {@link ONE_RULE_CASES} gives its content and calls whole and in pieces of 1 to 7; and, given `families`, each
 * family's own encoded call, alone and after each of `prefixes`, reads alike whole and in each of `pieces`.
 */
export function itReadsByOneRule(args: {
  read: DoorRead;
  families?: {
    ids: readonly string[];
    byId: (
      id: string,
    ) => { encode(calls: { function: { name: string; arguments: string } }[]): string } | undefined;
    prefixes: readonly string[];
    pieces: readonly number[];
  };
}): void {
  const { read, families } = args;
  for (const testCase of ONE_RULE_CASES)
    it(testCase.name, async () => {
      const whole = await read(testCase.syntax, testCase.text);
      expect(whole).toEqual({ content: testCase.content, calls: testCase.calls });
      for (let piece = 1; piece <= 7; piece++)
        expect(await read(testCase.syntax, testCase.text, piece), `pieces of ${piece}`).toEqual(whole);
    });
  if (families === undefined) return;
  it(`every family's syntax: the call it writes, alone and after ${JSON.stringify(families.prefixes)}, alike whole and streamed`, async () => {
    for (const id of families.ids) {
      const call = families
        .byId(id)
        ?.encode([{ function: { name: "get_weather", arguments: '{"city": "Paris"}' } }]);
      if (call === undefined) throw new Error(id);
      for (const text of [call, ...families.prefixes.map((prefix) => `${prefix}${call}`)]) {
        const whole = await read(id, text);
        // What a family writes alone is its call (the round trip); after other text, whatever the family reads.
        if (text === call)
          expect(
            whole.calls.map((found) => found.name),
            id,
          ).toEqual(["get_weather"]);
        for (const piece of families.pieces)
          expect(await read(id, text, piece), `${id} in pieces of ${piece}: ${JSON.stringify(text)}`).toEqual(
            whole,
          );
      }
    }
  });
}
