import type { AIMessageChunk, BaseMessage } from "@langchain/core/messages";
import { HumanMessage, ToolMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { describe, expect, it } from "vitest";
import {
  guardedFetch,
  MALFORMED,
  SCENARIOS,
  type Scenario,
  type ScenarioName,
  TOOLS,
  useScenarioServer,
} from "./scenario-server.js";

// LangChain's ChatOpenAI against the loopback model server, with the guarded fetch as `configuration.fetch`: one
// line. Raw, LangChain puts each malformed call in `invalid_tool_calls` (no tool runs) and a replay of the turn is
// refused by the strict provider.

const server = useScenarioServer();

const tools = Object.entries(TOOLS).map(([name, tool]) => ({
  type: "function" as const,
  function: { name, description: tool.description, parameters: tool.parameters },
}));

function model(name: ScenarioName, guarded: boolean) {
  return new ChatOpenAI({
    model: name,
    apiKey: "test-key",
    maxRetries: 0,
    configuration: {
      baseURL: server().baseURL,
      ...(guarded ? { fetch: guardedFetch() } : {}),
    },
  }).bindTools(tools);
}

const ask = [new HumanMessage("Weather in Paris, please.")];

async function streamed(name: ScenarioName, guarded: boolean): Promise<AIMessageChunk> {
  let full: AIMessageChunk | undefined;
  for await (const chunk of await model(name, guarded).stream(ask))
    full = full === undefined ? chunk : full.concat(chunk);
  return full as AIMessageChunk;
}

/** One agent turn by hand: the call, its tool result, and the model asked again with the history. */
async function twoTurns(name: ScenarioName, guarded: boolean): Promise<BaseMessage> {
  const first = await model(name, guarded).invoke(ask);
  const calls = [...(first.tool_calls ?? []), ...(first.invalid_tool_calls ?? [])];
  const results = calls.map((call) => new ToolMessage({ tool_call_id: call.id ?? "", content: "sunny" }));
  return model(name, guarded).invoke([...ask, first, ...results]);
}

describe.each(MALFORMED)("LangChain ChatOpenAI, %s arguments", (name) => {
  const expected = (SCENARIOS[name] as Scenario).expected;

  it("invoke: a tool call with the repaired arguments guarded, an invalid one raw", async () => {
    const guarded = await model(name, true).invoke(ask);
    expect(guarded.tool_calls?.map((call) => call.args)).toEqual([expected]);
    expect(guarded.invalid_tool_calls).toEqual([]);
    const raw = await model(name, false).invoke(ask);
    expect(raw.tool_calls).toEqual([]);
    expect(raw.invalid_tool_calls).toHaveLength(1);
  });

  it("stream: the chunks add up to the repaired call", async () => {
    const guarded = await streamed(name, true);
    expect(guarded.tool_calls?.map((call) => call.args)).toEqual([expected]);
    const raw = await streamed(name, false);
    // Streamed, LangChain reads no argument text as {} itself; the other malformations it cannot read.
    if (name === "empty") expect(raw.tool_calls?.map((call) => call.args)).toEqual([{}]);
    else expect(raw.tool_calls?.map((call) => call.args)).not.toEqual([expected]);
  });

  it("two turns: the replay is accepted guarded, refused with HTTP 400 raw", async () => {
    expect((await twoTurns(name, true)).content).toBe("Done: sunny");
    await expect(twoTurns(name, false)).rejects.toThrow(/JSON format/);
  });
});

describe("LangChain ChatOpenAI, a call cut by a length stop", () => {
  it("is an invalid tool call in a whole answer", async () => {
    const message = await model("truncated", true).invoke(ask);
    expect(message.tool_calls).toEqual([]);
    expect(message.invalid_tool_calls?.map((call) => call.args)).toEqual(['{"city": "Par']);
  });

  it("streamed, reaches the client as the model's text (LangChain itself completes cut JSON in chunks)", async () => {
    const message = await streamed("truncated", true);
    const text = message.tool_call_chunks?.map((chunk) => chunk.args).join("");
    expect(text).toBe('{"city": "Par');
    expect(message.response_metadata.finish_reason).toBe("length");
  });
});
