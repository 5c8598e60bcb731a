import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";

// A loopback server standing where DashScope (Alibaba's OpenAI-compatible endpoint) would be, written apart from the
// package on purpose: it judges what the package sends. The first turn of a conversation is the recorded qwen3-max
// answer (a `weather` call; whole or streamed as recorded) with its arguments replaced by the scenario the model
// name picks (model `text` answers with text); every request's history is checked as DashScope checks it (HTTP 400 with its literal error for
// stored arguments that are not JSON object text, and for calls and results that do not pair); a turn that ends
// with tool results is answered with text echoing them, so a test sees what the tool returned.

const recorded = (name: string): string =>
  readFileSync(join(import.meta.dirname, "__fixtures__", "recorded", name), "utf8");

export const TOOL_SCHEMA = {
  type: "object",
  properties: { location: { type: "string" } },
  required: ["location"],
  additionalProperties: false,
} as const;

export interface Scenario {
  /** The arguments text the model emits. */
  arguments: string;
  /** What the tool receives once repaired; absent for a call no tool may run. */
  expected?: Record<string, unknown>;
  /** The output token limit cut the call. */
  length?: boolean;
  /** Streamed, the answer stops after the first argument fragment until the client closes the connection. */
  stall?: boolean;
}

const SF = { location: "San Francisco" };

export const SCENARIOS = {
  clean: { arguments: '{"location": "San Francisco"}', expected: SF },
  fenced: { arguments: '```json\n{"location": "San Francisco"}\n```', expected: SF },
  python: { arguments: "{'location': 'San Francisco'}", expected: SF },
  gemma: { arguments: '{"location": "<|\\"|"San Francisco<|\\""}', expected: SF },
  truncated: { arguments: '{"location": "San Fr', length: true },
  // The stream stops after the first argument fragment and the connection stays open: the client gives up.
  stalled: { arguments: '{"location": "San Francisco"}', stall: true },
} satisfies Record<string, Scenario>;

export type ScenarioName = keyof typeof SCENARIOS;
export const MALFORMED: ScenarioName[] = ["fenced", "python", "gemma"];

export const ARGUMENTS_ERROR =
  '<400> InternalError.Algo.InvalidParameter: The "function.arguments" parameter of the code model must be in JSON format.';
const MISSING_ERROR = (index: number) =>
  `<400> InternalError.Algo.InvalidParameter: An assistant message with "tool_calls" must be followed by tool messages responding to each "tool_call_id". The following tool_call_ids did not have response messages: message[${index}].role`;
const ORPHAN_ERROR =
  '<400> InternalError.Algo.InvalidParameter: messages with role "tool" must be a response to a preceeding message with "tool_calls".';

/** The body DashScope answers a refused request with (the shape core's `qwen-dashscope` profile records). */
export function dashScopeError(message: string): string {
  return JSON.stringify({
    error: { message, type: "invalid_request_error", param: null, code: "invalid_parameter_error" },
  });
}

function isObjectText(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
  } catch {
    return false;
  }
}

type Message = {
  role?: string;
  content?: unknown;
  tool_calls?: Array<{ id?: string; function?: { arguments?: unknown } }>;
  tool_call_id?: string;
};

/** What DashScope refuses in a history, or `undefined`. */
export function refusal(messages: readonly Message[]): string | undefined {
  const open: string[] = [];
  let openAt = -1;
  for (const [index, message] of messages.entries()) {
    if (message.role === "tool") {
      const at = open.indexOf(message.tool_call_id ?? "");
      if (at === -1) return ORPHAN_ERROR;
      open.splice(at, 1);
      continue;
    }
    if (open.length > 0) return MISSING_ERROR(openAt);
    if (message.role === "assistant") {
      for (const call of message.tool_calls ?? []) {
        if (!isObjectText(call.function?.arguments)) return ARGUMENTS_ERROR;
        open.push(call.id ?? "");
      }
      openAt = index;
    }
  }
  return open.length > 0 ? MISSING_ERROR(openAt) : undefined;
}

/** Splits the scenario's text the way the recording splits its arguments: two fragments, the second short. */
function fragmentsOf(text: string): [string, string] {
  const cut = Math.max(1, text.length - 2);
  return [text.slice(0, cut), text.slice(cut)];
}

/** The recorded whole answer with the scenario's arguments. */
export function wholeAnswer(scenario: Scenario): unknown {
  const answer = JSON.parse(recorded("alibaba-qwen3-max-tool-call.json"));
  const choice = answer.choices[0];
  choice.message.tool_calls[0].function.arguments = scenario.arguments;
  if (scenario.length) choice.finish_reason = "length";
  return answer;
}

/** The recorded stream's chunks with the scenario's arguments (only the argument fragments and finish change). */
export function streamedAnswer(scenario: Scenario): unknown[] {
  const chunks = recorded("alibaba-qwen3-max-tool-call.chunks.txt")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
  const pieces = fragmentsOf(scenario.arguments);
  let next = 0;
  for (const chunk of chunks) {
    const choice = chunk.choices[0];
    const fn = choice?.delta?.tool_calls?.[0]?.function;
    if (fn !== undefined && fn.arguments !== "" && next < pieces.length) fn.arguments = pieces[next++];
    if (choice?.finish_reason === "tool_calls" && scenario.length) choice.finish_reason = "length";
  }
  return chunks;
}

function textAnswer(text: string, stream: boolean): unknown | unknown[] {
  const base = {
    object: "chat.completion",
    created: 1770764940,
    model: "qwen3-max",
    id: "chatcmpl-loopback",
  };
  const usage = { prompt_tokens: 320, completion_tokens: 5, total_tokens: 325 };
  if (!stream) {
    return {
      ...base,
      choices: [
        { index: 0, message: { role: "assistant", content: text }, finish_reason: "stop", logprobs: null },
      ],
      usage,
    };
  }
  const chunk = (delta: unknown, finish: string | null) => ({
    ...base,
    object: "chat.completion.chunk",
    choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }],
    usage: null,
  });
  return [
    chunk({ role: "assistant", content: "" }, null),
    ...(text.match(/.{1,4}/gs) ?? []).map((piece) => chunk({ content: piece }, null)),
    chunk({}, "stop"),
    { ...base, object: "chat.completion.chunk", choices: [], usage },
  ];
}

export interface Recorded {
  url: string;
  body: { model?: string; stream?: boolean; messages?: Message[] };
  status: number;
  error?: string;
}

export interface LoopbackServer {
  baseURL: string;
  requests: Recorded[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<Recorded["body"]> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

function send(response: ServerResponse, answer: unknown, stream: boolean, stallAfter?: number): void {
  if (!stream) {
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify(answer));
    return;
  }
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const chunks = answer as unknown[];
  for (const chunk of chunks.slice(0, stallAfter)) response.write(`data: ${JSON.stringify(chunk)}\n\n`);
  if (stallAfter !== undefined) return; // left open: the client closes it
  response.end("data: [DONE]\n\n");
}

/**
 * What Mistral's API (mistral_common's validator) refuses in a history, as its literal body, or `undefined`: a call
 * id that is not 9 letters and digits (anomalyco/opencode #1680, mistralai/mistral-vibe #1075), a user message right
 * after a tool result (datapizza-ai #98, zed #37021).
 */
export function mistralRefusal(messages: readonly Message[]): string | undefined {
  const error = (message: string, type: string, code: string) =>
    JSON.stringify({ object: "error", message, type, param: null, code });
  let previous: string | undefined;
  for (const message of messages) {
    const ids = [
      ...(message.tool_calls ?? []).map((call) => call.id),
      ...(message.role === "tool" ? [message.tool_call_id] : []),
    ];
    for (const id of ids) {
      if (!/^[a-zA-Z0-9]{9}$/.test(id ?? ""))
        return error(
          `Tool call id was ${id} but must be a-z, A-Z, 0-9, with a length of 9.`,
          "invalid_function_call",
          "3280",
        );
    }
    if (message.role === "user" && previous === "tool")
      return error("Unexpected role 'user' after role 'tool'", "invalid_request_message_order", "3230");
    previous = message.role;
  }
  return undefined;
}

/** Starts the server on 127.0.0.1 (a free port), strict as DashScope (default) or as Mistral. */
export async function startLoopbackServer(
  options: { strict?: "dashscope" | "mistral" } = {},
): Promise<LoopbackServer> {
  const requests: Recorded[] = [];
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    const messages = body.messages ?? [];
    const mistral = options.strict === "mistral";
    const error = mistral ? mistralRefusal(messages) : refusal(messages);
    requests.push({
      url: request.url ?? "",
      body,
      status: error === undefined ? 200 : 400,
      ...(error ? { error } : {}),
    });
    if (error !== undefined) {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(mistral ? error : dashScopeError(error));
      return;
    }
    const stream = body.stream === true;
    const last = messages.at(-1);
    if (last?.role === "tool") {
      const results: string[] = [];
      for (let at = messages.length - 1; at >= 0 && messages[at]?.role === "tool"; at--) {
        results.unshift(String(messages[at]?.content));
      }
      send(response, textAnswer(`Done: ${results.join(" | ") || "nothing"}`, stream), stream);
      return;
    }
    if (body.model === "text") {
      send(response, textAnswer("Accepted.", stream), stream);
      return;
    }
    const scenario =
      (SCENARIOS as Record<string, Scenario>)[body.model ?? ""] ?? (SCENARIOS.clean as Scenario);
    // A stalled answer stops after the chunk that carries the first argument fragment.
    send(
      response,
      stream ? streamedAnswer(scenario) : wholeAnswer(scenario),
      stream,
      scenario.stall ? 2 : undefined,
    );
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
