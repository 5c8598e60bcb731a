import type { ChatMessage, ToolCallLLMMessageOptions } from "@llamaindex/core/llms";
import { OpenAI } from "@llamaindex/openai";
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

// LlamaIndex's OpenAI class (`@llamaindex/openai` 0.4.23, which installs on Node 20 and brings its own `openai` 5)
// against the loopback model server, with the guarded fetch in `additionalSessionOptions`: one line. Raw, a streamed
// malformed call throws in LlamaIndex's own JSON.parse, a whole one keeps text no tool can take, and a replay of
// the turn is refused by the strict provider.

const server = useScenarioServer();

const tools = Object.entries(TOOLS).map(([name, tool]) => ({
  metadata: { name, description: tool.description, parameters: tool.parameters as never },
  call: async () => "sunny",
}));

function llm(name: ScenarioName, guarded: boolean) {
  return new OpenAI({
    model: name,
    apiKey: "test-key",
    maxRetries: 0,
    additionalSessionOptions: {
      baseURL: server().baseURL,
      ...(guarded ? { fetch: guardedFetch() } : {}),
    },
  });
}

const ask: ChatMessage<ToolCallLLMMessageOptions>[] = [
  { role: "user", content: "Weather in Paris, please." },
];

async function wholeCall(name: ScenarioName, guarded: boolean) {
  const response = await llm(name, guarded).chat({ messages: ask, tools });
  const options = response.message.options as ToolCallLLMMessageOptions;
  return "toolCall" in options ? options.toolCall[0] : undefined;
}

async function streamedInput(name: ScenarioName, guarded: boolean): Promise<unknown> {
  let input: unknown;
  for await (const chunk of await llm(name, guarded).chat({ messages: ask, tools, stream: true })) {
    const options = chunk.options as ToolCallLLMMessageOptions | undefined;
    if (options !== undefined && "toolCall" in options) input = options.toolCall[0]?.input;
  }
  return input;
}

async function twoTurns(name: ScenarioName, guarded: boolean): Promise<unknown> {
  const call = await wholeCall(name, guarded);
  if (call === undefined) throw new Error("no call");
  const history: ChatMessage<ToolCallLLMMessageOptions>[] = [
    ...ask,
    { role: "assistant", content: "", options: { toolCall: [call] } },
    {
      role: "user",
      content: "sunny",
      options: { toolResult: { id: call.id, result: "sunny", isError: false } },
    },
  ];
  return (await llm(name, guarded).chat({ messages: history, tools })).message.content;
}

describe.each(MALFORMED)("LlamaIndex OpenAI, %s arguments", (name) => {
  const expected = (SCENARIOS[name] as Scenario).expected;

  it("chat: the call's input parses to the repaired arguments guarded, not raw", async () => {
    const guarded = await wholeCall(name, true);
    expect(JSON.parse(guarded?.input as string)).toEqual(expected);
    const raw = await wholeCall(name, false);
    expect(() => JSON.parse(raw?.input as string)).toThrow(SyntaxError);
  });

  it("chat, streamed: LlamaIndex's own parse gets the repaired arguments guarded, throws raw", async () => {
    expect(await streamedInput(name, true)).toEqual(expected);
    await expect(streamedInput(name, false)).rejects.toThrow();
  });

  it("two turns: the replay is accepted guarded, refused with HTTP 400 raw", async () => {
    expect(await twoTurns(name, true)).toBe("Done: sunny");
    await expect(twoTurns(name, false)).rejects.toThrow(/JSON format/);
  });
});

describe("LlamaIndex OpenAI, a call cut by a length stop", () => {
  it("keeps the model's text, which no tool can take, whole or streamed", async () => {
    expect((await wholeCall("truncated", true))?.input).toBe('{"city": "Par');
    await expect(streamedInput("truncated", true)).rejects.toThrow();
  });
});
