import type { ServerResponse } from "node:http";
import { coreRepairs } from "@toolcall/core";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import { afterAll, beforeAll } from "vitest";
import { guardFetch } from "../src/index.js";
import { type Recorded, sendRecorded, startServer, type TestServer } from "./server.js";
import { refuse, strictError } from "./strict-provider.js";

// A loopback server standing where a model server would be: the model name picks what the "model" answers (a tool
// call whose arguments come malformed in one of the ways seen in the wild), the first turn is that call, whole or
// streamed; every later turn is checked as a strict provider checks a replayed history (HTTP 400 with the literal
// error body for arguments that are not JSON object text) and answered with text that echoes the tool results, so a
// test sees what the tool returned.

export interface Scenario {
  tool: "get_weather" | "get_time";
  /** The arguments text the model emits. */
  arguments: string;
  /** What a tool receives once repaired; absent for a call no tool may run. */
  expected?: Record<string, unknown>;
  /** The output token limit cut the call. */
  length?: boolean;
}

export const SCENARIOS = {
  // Markdown fences around the JSON (pi, qwen-code reports).
  fenced: { tool: "get_weather", arguments: '```json\n{"city": "Paris"}\n```', expected: { city: "Paris" } },
  // A Python dict (QwenLM/qwen-code #237).
  python: {
    tool: "get_weather",
    arguments: "{'city': 'Paris', 'unit': 'c'}",
    expected: { city: "Paris", unit: "c" },
  },
  // Gemma 4's quote markers leaked by vLLM (hermes-agent #19887, vLLM #39069).
  gemma: {
    tool: "get_weather",
    arguments: '{"city": "<|\\"|"Paris<|\\"", "unit": "<|c<|"}',
    expected: { city: "Paris", unit: "c" },
  },
  // A zero-argument call sent as "" (litellm, AI SDK and LangChain.js reports).
  empty: { tool: "get_time", arguments: "", expected: {} },
  // Cut by the output token limit (vercel/ai #13137, langchainjs #11494).
  truncated: { tool: "get_weather", arguments: '{"city": "Par', length: true },
  // What a well-behaved server sends.
  clean: { tool: "get_weather", arguments: '{"city": "Paris"}', expected: { city: "Paris" } },
} satisfies Record<string, Scenario>;

export type ScenarioName = keyof typeof SCENARIOS;
export const MALFORMED: ScenarioName[] = ["fenced", "python", "gemma", "empty"];

export const TOOLS = {
  get_weather: {
    description: "The weather in a city",
    parameters: {
      type: "object",
      properties: { city: { type: "string" }, unit: { type: "string" } },
      required: ["city"],
      additionalProperties: false,
    },
  },
  get_time: {
    description: "The time now",
    parameters: { type: "object", properties: {}, additionalProperties: false },
  },
} as const;

function scenarioOf(model: unknown): Scenario {
  const scenario = (SCENARIOS as Record<string, Scenario>)[String(model)];
  if (scenario === undefined) throw new Error(`no scenario named ${String(model)}`);
  return scenario;
}

/** Fragments of a text the way servers stream arguments: a few characters each. */
function fragments(text: string, size = 5): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length; at += size) pieces.push(text.slice(at, at + size));
  return pieces;
}

function sse(frames: unknown[], done: boolean, event = false): Buffer {
  const text = frames
    .map(
      (frame) =>
        `${event ? `event: ${(frame as { type: string }).type}\n` : ""}data: ${JSON.stringify(frame)}\n\n`,
    )
    .join("");
  return Buffer.from(done ? `${text}data: [DONE]\n\n` : text);
}

const chunkBase = {
  id: "chatcmpl-scenario",
  object: "chat.completion.chunk",
  created: 1775000000,
  model: "m",
};

function chatCall(scenario: Scenario, stream: boolean): { body: Buffer; sse: boolean } {
  const id = `call_${scenario.tool}`;
  const finish = scenario.length ? "length" : "tool_calls";
  if (!stream) {
    const completion = {
      ...chunkBase,
      object: "chat.completion",
      choices: [
        {
          index: 0,
          logprobs: null,
          finish_reason: finish,
          message: {
            role: "assistant",
            content: null,
            refusal: null,
            tool_calls: [
              { id, type: "function", function: { name: scenario.tool, arguments: scenario.arguments } },
            ],
          },
        },
      ],
      usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 },
    };
    return { body: Buffer.from(JSON.stringify(completion)), sse: false };
  }
  const choice = (delta: unknown, finishReason: string | null = null) => ({
    ...chunkBase,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
  });
  const frames: unknown[] = [
    choice({ role: "assistant", content: null }),
    choice({
      tool_calls: [{ index: 0, id, type: "function", function: { name: scenario.tool, arguments: "" } }],
    }),
    ...fragments(scenario.arguments).map((piece) =>
      choice({ tool_calls: [{ index: 0, function: { arguments: piece } }] }),
    ),
    choice({}, finish),
    { ...chunkBase, choices: [], usage: { prompt_tokens: 12, completion_tokens: 9, total_tokens: 21 } },
  ];
  return { body: sse(frames, true), sse: true };
}

const responseBase = {
  id: "resp_scenario",
  object: "response",
  created_at: 1775000000,
  model: "m",
  parallel_tool_calls: true,
  tool_choice: "auto",
  tools: [],
};

function responsesCall(scenario: Scenario, stream: boolean): { body: Buffer; sse: boolean } {
  const item = {
    id: "fc_scenario",
    type: "function_call",
    status: scenario.length ? "incomplete" : "completed",
    call_id: `call_${scenario.tool}`,
    name: scenario.tool,
    arguments: scenario.arguments,
  };
  const response = {
    ...responseBase,
    status: scenario.length ? "incomplete" : "completed",
    incomplete_details: scenario.length ? { reason: "max_output_tokens" } : null,
    output: [item],
  };
  if (!stream) return { body: Buffer.from(JSON.stringify(response)), sse: false };
  let sequence = 0;
  const event = (fields: Record<string, unknown>) => ({ ...fields, sequence_number: sequence++ });
  const frames = [
    event({ type: "response.created", response: { ...response, status: "in_progress", output: [] } }),
    event({
      type: "response.output_item.added",
      output_index: 0,
      item: { ...item, status: "in_progress", arguments: "" },
    }),
    ...fragments(scenario.arguments).map((delta) =>
      event({ type: "response.function_call_arguments.delta", item_id: item.id, output_index: 0, delta }),
    ),
    event({
      type: "response.function_call_arguments.done",
      item_id: item.id,
      output_index: 0,
      arguments: scenario.arguments,
    }),
    event({ type: "response.output_item.done", output_index: 0, item }),
    event({ type: scenario.length ? "response.incomplete" : "response.completed", response }),
  ];
  return { body: sse(frames, false, true), sse: true };
}

/** The results of the tools, as the request sends them back (Chat Completions or Responses input). */
function toolResults(body: Record<string, unknown>): string[] {
  if (Array.isArray(body.messages))
    return (body.messages as Array<{ role?: string; content?: unknown }>)
      .filter((m) => m.role === "tool")
      .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
  if (Array.isArray(body.input))
    return (body.input as Array<{ type?: string; output?: unknown }>)
      .filter((i) => i.type === "function_call_output")
      .map((i) => (typeof i.output === "string" ? i.output : JSON.stringify(i.output)));
  return [];
}

function answerText(request: Recorded, text: string): { body: Buffer; sse: boolean } {
  const body = request.body as { stream?: boolean };
  if (request.url.endsWith("/chat/completions")) {
    const message = { role: "assistant", content: text, refusal: null };
    if (!body.stream)
      return {
        body: Buffer.from(
          JSON.stringify({
            ...chunkBase,
            object: "chat.completion",
            choices: [{ index: 0, logprobs: null, finish_reason: "stop", message }],
          }),
        ),
        sse: false,
      };
    return {
      body: sse(
        [
          {
            ...chunkBase,
            choices: [{ index: 0, delta: { role: "assistant", content: text }, finish_reason: null }],
          },
          { ...chunkBase, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
        ],
        true,
      ),
      sse: true,
    };
  }
  const output = [
    {
      type: "message",
      id: "msg_scenario",
      status: "completed",
      role: "assistant",
      content: [{ type: "output_text", text, annotations: [] }],
    },
  ];
  const response = { ...responseBase, status: "completed", output };
  if (!body.stream) return { body: Buffer.from(JSON.stringify(response)), sse: false };
  return {
    body: sse(
      [
        {
          type: "response.created",
          sequence_number: 0,
          response: { ...response, status: "in_progress", output: [] },
        },
        { type: "response.completed", sequence_number: 1, response },
      ],
      false,
      true,
    ),
    sse: true,
  };
}

/** Starts the scenario server on 127.0.0.1; `requests` records what reached it. */
export function startScenarioServer(): Promise<TestServer> {
  return startServer(async (request, response: ServerResponse) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const results = toolResults(body);
    let answer: { body: Buffer; sse: boolean };
    if (results.length === 0) {
      const scenario = scenarioOf(body.model);
      answer = request.url.endsWith("/chat/completions")
        ? chatCall(scenario, body.stream === true)
        : responsesCall(scenario, body.stream === true);
    } else {
      const error = strictError(request);
      if (error !== undefined) {
        refuse(response, error);
        return;
      }
      answer = answerText(request, `Done: ${results.join(" | ")}`);
    }
    await sendRecorded(response, answer.body, { sse: answer.sse, piece: answer.sse ? 40 : undefined });
  });
}

/** The repairs every scenario test guards with: core's and Gemma's quote markers. */
export const REPAIRS = [...coreRepairs, gemmaQuoteMarkers];

/** The guarded fetch the scenario tests give their clients. */
export const guardedFetch = () => guardFetch(fetch, { repairs: REPAIRS });

/** Starts the scenario server for the file's tests and closes it after them; call the result for the server. */
export function useScenarioServer(): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startScenarioServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (server === undefined) throw new Error("the scenario server is not running");
    return server;
  };
}
