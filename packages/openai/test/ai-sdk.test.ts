import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
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

// The AI SDK (`ai` 6 with `@ai-sdk/openai-compatible` 2, what installs on Node 20) against the loopback model
// server, with the guarded fetch given to the provider: one line. Raw, the SDK turns each malformed call into a tool
// error and the tool never runs (it replays the invalid input as {}, so nothing reaches the strict check either).

const server = useScenarioServer();

function provider(guarded: boolean) {
  return createOpenAICompatible({
    name: "loopback",
    baseURL: server().baseURL,
    apiKey: "test-key",
    ...(guarded ? { fetch: guardedFetch() } : {}),
  });
}

function tools(called: unknown[]) {
  return Object.fromEntries(
    Object.entries(TOOLS).map(([name, definition]) => [
      name,
      tool({
        description: definition.description,
        inputSchema: jsonSchema(definition.parameters as never),
        execute: async (input: unknown) => {
          called.push(input);
          return "sunny";
        },
      }),
    ]),
  );
}

async function generate(model: ScenarioName, guarded: boolean) {
  const called: unknown[] = [];
  const result = await generateText({
    model: provider(guarded).chatModel(model),
    prompt: "Weather in Paris, please.",
    tools: tools(called),
    stopWhen: stepCountIs(3),
  });
  return { called, text: result.text };
}

async function stream(model: ScenarioName, guarded: boolean) {
  const called: unknown[] = [];
  const result = streamText({
    model: provider(guarded).chatModel(model),
    prompt: "Weather in Paris, please.",
    tools: tools(called),
    stopWhen: stepCountIs(3),
  });
  return { called, text: await result.text };
}

describe.each(MALFORMED)("the AI SDK, %s arguments", (name) => {
  const expected = (SCENARIOS[name] as Scenario).expected;

  it("generateText: the tool runs on the repaired arguments, and the second step is accepted", async () => {
    expect(await generate(name, true)).toEqual({ called: [expected], text: "Done: sunny" });
  });

  it("streamText: the same, from the stream", async () => {
    expect(await stream(name, true)).toEqual({ called: [expected], text: "Done: sunny" });
  });

  it("raw, the tool never runs on what the model meant", async () => {
    const raw = await generate(name, false);
    const streamed = await stream(name, false);
    if (name === "empty") {
      // The AI SDK reads empty input as {} itself: the one case it handles without help.
      expect(raw.called).toEqual([expected]);
      expect(streamed.called).toEqual([expected]);
    } else {
      expect(raw.called).toEqual([]);
      expect(streamed.called).toEqual([]);
    }
  });
});

describe("the AI SDK, a call cut by a length stop", () => {
  it("never reaches the tool, whole or streamed", async () => {
    expect((await generate("truncated", true)).called).toEqual([]);
    expect((await stream("truncated", true)).called).toEqual([]);
  });
});
