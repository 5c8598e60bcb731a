import OpenAI, { BadRequestError } from "openai";
import { LengthFinishReasonError } from "openai/error";
import { zodFunction, zodResponsesFunction } from "openai/helpers/zod";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { FunctionTool, ResponseInputItem } from "openai/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { guardOpenAI, REPAIRS_HEADER, type RepairReport } from "../src/index.js";
import {
  MALFORMED,
  REPAIRS,
  SCENARIOS,
  type Scenario,
  type ScenarioName,
  TOOLS,
  useScenarioServer,
} from "./scenario-server.js";

// The real `openai` SDK, every helper, against a loopback model server that answers with malformed tool calls and
// refuses malformed replayed arguments as a strict provider does. Guarded, each helper gets what the tool needs;
// raw, each one fails; a call cut by a length stop never reaches a tool.

const server = useScenarioServer();

const repairs = REPAIRS;
const ask: ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Paris, please." }];
const chatTools: ChatCompletionTool[] = Object.entries(TOOLS).map(([name, tool]) => ({
  type: "function",
  function: { name, description: tool.description, parameters: tool.parameters },
}));
const responseTools: FunctionTool[] = Object.entries(TOOLS).map(([name, tool]) => ({
  type: "function",
  name,
  description: tool.description,
  parameters: tool.parameters as unknown as Record<string, unknown>,
  strict: false,
}));
const weather = z.object({ city: z.string(), unit: z.string().nullable().optional() });

function clients() {
  const raw = new OpenAI({ baseURL: server().baseURL, apiKey: "test-key", maxRetries: 0 });
  const reports: RepairReport[] = [];
  const guarded = guardOpenAI(raw, { repairs, onRepair: (report) => reports.push(report) });
  return { raw, guarded, reports };
}

/** What a tool would be handed: the arguments parsed as JSON (throws as an agent loop's JSON.parse does). */
const parsed = (text: string | undefined): unknown => JSON.parse(text ?? "");

const settle = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );

async function createArguments(client: OpenAI, model: ScenarioName): Promise<unknown> {
  const completion = await client.chat.completions.create({ model, messages: ask, tools: chatTools });
  const call = completion.choices[0]?.message.tool_calls?.[0];
  return parsed(call?.type === "function" ? call.function.arguments : undefined);
}

/** Two turns by hand: the call as received is replayed with its result. */
async function createTwoTurns(client: OpenAI, model: ScenarioName): Promise<string | null | undefined> {
  const first = await client.chat.completions.create({ model, messages: ask, tools: chatTools });
  const message = first.choices[0]?.message;
  const call = message?.tool_calls?.[0];
  const history: ChatCompletionMessageParam[] = [
    ...ask,
    { role: "assistant", content: null, tool_calls: message?.tool_calls },
    { role: "tool", tool_call_id: call?.id ?? "", content: "sunny" },
  ];
  const second = await client.chat.completions.create({ model, messages: history, tools: chatTools });
  return second.choices[0]?.message.content;
}

async function streamArguments(client: OpenAI, model: ScenarioName): Promise<unknown> {
  const stream = client.chat.completions.stream({ model, messages: ask, tools: chatTools });
  const completion = await stream.finalChatCompletion();
  const call = completion.choices[0]?.message.tool_calls?.[0];
  return parsed(call?.type === "function" ? call.function.arguments : undefined);
}

async function runTools(client: OpenAI, model: ScenarioName, called: unknown[] = []) {
  const runner = client.chat.completions.runTools({
    model,
    messages: ask,
    tools: Object.entries(TOOLS).map(([name, tool]) => ({
      type: "function" as const,
      function: {
        name,
        description: tool.description,
        parameters: tool.parameters as unknown as Record<string, unknown>,
        parse: JSON.parse,
        function: (args: unknown) => {
          called.push(args);
          return "sunny";
        },
      },
    })),
  });
  const content = await runner.finalContent();
  return { called, content };
}

async function parseArguments(client: OpenAI, model: ScenarioName): Promise<unknown> {
  const completion = await client.chat.completions.parse({
    model,
    messages: ask,
    tools: [
      zodFunction({ name: "get_weather", parameters: weather }),
      zodFunction({ name: "get_time", parameters: z.object({}) }),
    ],
  });
  const call = completion.choices[0]?.message.tool_calls?.[0];
  return call?.type === "function" ? call.function.parsed_arguments : undefined;
}

async function responsesArguments(client: OpenAI, model: ScenarioName): Promise<unknown> {
  const response = await client.responses.create({
    model,
    input: "Weather in Paris, please.",
    tools: responseTools,
  });
  const item = response.output.find((o) => o.type === "function_call");
  return parsed(item?.type === "function_call" ? item.arguments : undefined);
}

async function responsesTwoTurns(client: OpenAI, model: ScenarioName): Promise<string> {
  const first = await client.responses.create({
    model,
    input: "Weather in Paris, please.",
    tools: responseTools,
  });
  const call = first.output.find((o) => o.type === "function_call");
  if (call?.type !== "function_call") throw new Error("no call");
  const input: ResponseInputItem[] = [
    { role: "user", content: "Weather in Paris, please." },
    { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
    { type: "function_call_output", call_id: call.call_id, output: "sunny" },
  ];
  return (await client.responses.create({ model, input, tools: responseTools })).output_text;
}

async function responsesStreamArguments(client: OpenAI, model: ScenarioName): Promise<unknown> {
  const stream = client.responses.stream({ model, input: "Weather in Paris, please.", tools: responseTools });
  const response = await stream.finalResponse();
  const item = response.output.find((o) => o.type === "function_call");
  return parsed(item?.type === "function_call" ? item.arguments : undefined);
}

async function responsesParseArguments(client: OpenAI, model: ScenarioName): Promise<unknown> {
  const response = await client.responses.parse({
    model,
    input: "Weather in Paris, please.",
    tools: [
      zodResponsesFunction({ name: "get_weather", parameters: weather }),
      zodResponsesFunction({ name: "get_time", parameters: z.object({}) }),
    ],
  });
  const item = response.output.find((o) => o.type === "function_call");
  return item?.type === "function_call" ? item.parsed_arguments : undefined;
}

describe.each(MALFORMED)("the openai SDK, %s arguments", (name) => {
  const expected = (SCENARIOS[name] as Scenario).expected;

  it("chat.completions.create: repaired guarded, unparseable raw", async () => {
    const { raw, guarded } = clients();
    expect(await createArguments(guarded, name)).toEqual(expected);
    await expect(createArguments(raw, name)).rejects.toBeInstanceOf(SyntaxError);
  });

  it("chat.completions.create, two turns: the replay is accepted guarded, refused with HTTP 400 raw", async () => {
    const { raw, guarded } = clients();
    expect(await createTwoTurns(guarded, name)).toBe("Done: sunny");
    const refused = await settle(createTwoTurns(raw, name));
    expect(refused.ok ? refused.value : refused.error).toBeInstanceOf(BadRequestError);
    expect(refused.ok ? "" : (refused.error as BadRequestError).message).toContain("must be in JSON format");
  });

  it("chat.completions.stream(): finalChatCompletion repaired guarded, unparseable raw", async () => {
    const { raw, guarded } = clients();
    expect(await streamArguments(guarded, name)).toEqual(expected);
    await expect(streamArguments(raw, name)).rejects.toBeInstanceOf(SyntaxError);
  });

  it("chat.completions.runTools(): the tool runs on the repaired arguments; raw, the second turn gets HTTP 400", async () => {
    const { raw, guarded } = clients();
    expect(await runTools(guarded, name)).toEqual({ called: [expected], content: "Done: sunny" });
    const refused = await settle(runTools(raw, name));
    expect(refused.ok ? refused.value : refused.error).toBeInstanceOf(BadRequestError);
  });

  it("chat.completions.parse() with zodFunction: parsed guarded, throws raw", async () => {
    const { raw, guarded } = clients();
    expect(await parseArguments(guarded, name)).toEqual(expected);
    await expect(parseArguments(raw, name)).rejects.toThrow();
  });

  it("responses.create: repaired guarded, unparseable raw; the replay refused raw", async () => {
    const { raw, guarded } = clients();
    expect(await responsesArguments(guarded, name)).toEqual(expected);
    await expect(responsesArguments(raw, name)).rejects.toBeInstanceOf(SyntaxError);
    expect(await responsesTwoTurns(guarded, name)).toBe("Done: sunny");
    await expect(responsesTwoTurns(raw, name)).rejects.toBeInstanceOf(BadRequestError);
  });

  it("responses.stream(): finalResponse repaired guarded, unparseable raw", async () => {
    const { raw, guarded } = clients();
    expect(await responsesStreamArguments(guarded, name)).toEqual(expected);
    await expect(responsesStreamArguments(raw, name)).rejects.toBeInstanceOf(SyntaxError);
  });

  it("responses.parse() with zodResponsesFunction: parsed guarded, throws raw", async () => {
    const { raw, guarded } = clients();
    expect(await responsesParseArguments(guarded, name)).toEqual(expected);
    await expect(responsesParseArguments(raw, name)).rejects.toThrow();
  });

  it("withOptions(): a client made from the guarded one is guarded too", async () => {
    const { raw, guarded } = clients();
    expect(await createArguments(guarded.withOptions({ timeout: 5000 }), name)).toEqual(expected);
    expect(await streamArguments(guarded.withOptions({ maxRetries: 1 }), name)).toEqual(expected);
    await expect(createArguments(raw.withOptions({ timeout: 5000 }), name)).rejects.toBeInstanceOf(
      SyntaxError,
    );
  });
});

describe("the openai SDK, a call cut by a length stop never reaches a tool", () => {
  it("keeps the model's text in every helper: nothing parses it into arguments", async () => {
    const { guarded, reports } = clients();
    await expect(createArguments(guarded, "truncated")).rejects.toBeInstanceOf(SyntaxError);
    await expect(streamArguments(guarded, "truncated")).rejects.toThrow();
    await expect(parseArguments(guarded, "truncated")).rejects.toThrow(/length/i);
    await expect(responsesArguments(guarded, "truncated")).rejects.toBeInstanceOf(SyntaxError);
    await expect(responsesStreamArguments(guarded, "truncated")).rejects.toThrow();
    const completion = await guarded.chat.completions.create({
      model: "truncated",
      messages: ask,
      tools: chatTools,
    });
    const call = completion.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === "function" ? call.function.arguments : undefined).toBe('{"city": "Par');
    expect(reports.every((r) => r.kind === "arguments" && r.status === "truncated" && !r.usable)).toBe(true);
  });

  it("runTools(): the tool is never called", async () => {
    const { guarded } = clients();
    const called: unknown[] = [];
    // The SDK itself stops at a length finish; the guard gave it the cut text, never a call that parses.
    await expect(runTools(guarded, "truncated", called)).rejects.toBeInstanceOf(LengthFinishReasonError);
    expect(called).toEqual([]);
  });
});

describe("the openai SDK, what was repaired is on the result", () => {
  it("withResponse() gives the x-toolcall-repairs header with a summary of the repaired call", async () => {
    const { guarded } = clients();
    const { data, response } = await guarded.chat.completions
      .create({ model: "python", messages: ask, tools: chatTools })
      .withResponse();
    const call = data.choices[0]?.message.tool_calls?.[0];
    expect(call?.type === "function" && call.function.arguments).toBe('{"city":"Paris","unit":"c"}');
    expect(JSON.parse(response.headers.get(REPAIRS_HEADER) ?? "null")).toEqual({
      calls: [
        {
          choice: 0,
          id: "call_get_weather",
          name: "get_weather",
          status: "repaired",
          repairs: ["python-literal"],
          usable: true,
        },
      ],
    });
  });

  it("a clean answer has no header and reaches the client as the same bytes", async () => {
    const { raw, guarded } = clients();
    const guardedResponse = await guarded.chat.completions
      .create({ model: "clean", messages: ask, tools: chatTools })
      .asResponse();
    const rawResponse = await raw.chat.completions
      .create({ model: "clean", messages: ask, tools: chatTools })
      .asResponse();
    expect(guardedResponse.headers.get(REPAIRS_HEADER)).toBeNull();
    expect(await guardedResponse.text()).toBe(await rawResponse.text());
  });

  it("the client passed in is left as it was", async () => {
    const { raw, guarded } = clients();
    expect(guarded).not.toBe(raw);
    expect(guarded.baseURL).toBe(raw.baseURL);
    await expect(createArguments(raw, "python")).rejects.toBeInstanceOf(SyntaxError);
  });
});
