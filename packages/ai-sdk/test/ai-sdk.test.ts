import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { coreRepairs, createJsonrepairRepair } from "@toolcall/core";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import * as latest from "ai";
import * as first from "ai-6.0.0";
import { jsonrepair } from "jsonrepair";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toolcallMiddleware, toolcallRepair } from "../src/index.js";
import {
  ARGUMENTS_ERROR,
  dashScopeError,
  type LoopbackServer,
  MALFORMED,
  SCENARIOS,
  type Scenario,
  type ScenarioName,
  startLoopbackServer,
  TOOL_SCHEMA,
} from "./loopback-server.js";

// The real `ai` 6 with `@ai-sdk/openai-compatible` 2 against the loopback DashScope: multi-step tool loops
// (`stopWhen: stepCountIs(3)`), whole and streamed, with the middleware, with the repair function, with both, and
// with neither; on both ends of the peer range, ai 6.0.0 and 6.0.325.

const SDKS = { "6.0.325": latest, "6.0.0": first as unknown as typeof latest };

const repairs = [...coreRepairs, gemmaQuoteMarkers];

let server: LoopbackServer;
beforeAll(async () => {
  server = await startLoopbackServer();
});
afterAll(async () => {
  await server.close();
});

type Mode = "raw" | "middleware" | "repair" | "both";

function modelFor(sdk: typeof latest, name: string, mode: Mode, rules = repairs) {
  const base = createOpenAICompatible({
    name: "dashscope",
    baseURL: server.baseURL,
    apiKey: "test-key",
  }).chatModel(name);
  if (mode === "raw" || mode === "repair") return base;
  return sdk.wrapLanguageModel({ model: base, middleware: toolcallMiddleware({ repairs: rules }) });
}

function settingsFor(sdk: typeof latest, name: string, mode: Mode, called: unknown[], rules = repairs) {
  return {
    model: modelFor(sdk, name, mode, rules),
    prompt: "Weather in San Francisco?",
    tools: {
      weather: sdk.tool({
        description: "The weather in a city",
        inputSchema: sdk.jsonSchema<{ location: string }>(TOOL_SCHEMA as never),
        execute: async (input: { location: string }) => {
          called.push(input);
          return "sunny";
        },
      }),
    },
    stopWhen: sdk.stepCountIs(3),
    ...(mode === "repair" || mode === "both"
      ? { experimental_repairToolCall: toolcallRepair({ repairs: rules }) }
      : {}),
  };
}

type Kind = "generate" | "stream";

async function run(sdk: typeof latest, kind: Kind, name: ScenarioName, mode: Mode, rules = repairs) {
  const called: unknown[] = [];
  const from = server.requests.length;
  const settings = settingsFor(sdk, name, mode, called, rules);
  let text: string | undefined;
  let content: Array<{
    type: string;
    invalid?: boolean;
    input?: unknown;
    providerMetadata?: Record<string, unknown>;
  }> = [];
  let error: unknown;
  try {
    if (kind === "generate") {
      const result = await sdk.generateText(settings);
      text = result.text;
      content = result.steps[0]?.content ?? [];
    } else {
      const result = sdk.streamText({
        ...settings,
        onError: ({ error: failure }) => {
          error = failure;
        },
      });
      text = await result.text;
      content = (await result.steps)[0]?.content ?? [];
    }
  } catch (failure) {
    error ??= failure;
  }
  const call = content.find((part) => part.type === "tool-call");
  const requests = server.requests.slice(from);
  return {
    called,
    text,
    statuses: requests.map((request) => request.status),
    requests,
    call,
    toolcall: call?.providerMetadata?.toolcall,
    error,
  };
}

const replayedArguments = (requests: Awaited<ReturnType<typeof run>>["requests"]) =>
  requests[1]?.body.messages?.find((message) => message.role === "assistant")?.tool_calls?.[0]?.function
    ?.arguments;

describe.each(
  Object.keys(SDKS).flatMap((version) =>
    (["generate", "stream"] as const).map((kind) => [version, kind] as const),
  ),
)("ai %s, %sText against the loopback DashScope", (version, kind) => {
  const sdk = SDKS[version as keyof typeof SDKS];

  it("a clean recorded call runs, with or without the package, and nothing is reported", async () => {
    for (const mode of ["raw", "middleware", "both"] as const) {
      const result = await run(sdk, kind, "clean", mode);
      expect(result.called).toEqual([SCENARIOS.clean.expected]);
      expect(result.text).toBe("Done: sunny");
      expect(result.statuses).toEqual([200, 200]);
      expect(result.toolcall).toBeUndefined();
    }
  });

  describe.each(MALFORMED)("%s arguments", (name) => {
    const expected = (SCENARIOS[name] as Scenario).expected;

    it("raw: the tool never runs on what the model meant; the SDK replays it as {} or the provider refuses it", async () => {
      const result = await run(sdk, kind, name, "raw");
      expect(result.called).toEqual([]);
      if (version === "6.0.0") {
        // ai 6.0.0 replays a call it could not parse as the model's text, a JSON string on the wire: the strict
        // provider refuses every later step (vercel/ai #13892).
        expect(result.statuses).toEqual([200, 400]);
        expect(result.requests[1]?.error).toBe(ARGUMENTS_ERROR);
        expect(result.error).toMatchObject({
          statusCode: 400,
          responseBody: dashScopeError(ARGUMENTS_ERROR),
        });
      } else {
        // Later versions replay it as {}: accepted, but what the model wrote is gone.
        expect(result.statuses).toEqual([200, 200]);
        expect(replayedArguments(result.requests)).toBe("{}");
      }
    });

    it.each(["middleware", "repair", "both"] as const)(
      "%s: the tool runs on the repaired input; the replay is accepted",
      async (mode) => {
        const result = await run(sdk, kind, name, mode);
        expect(result.called).toEqual([expected]);
        expect(result.text).toBe("Done: sunny");
        expect(result.statuses).toEqual([200, 200]);
        expect(JSON.parse(replayedArguments(result.requests) as string)).toEqual(expected);
        expect(result.toolcall).toMatchObject({
          status: "repaired",
          usable: true,
          raw: SCENARIOS[name].arguments,
        });
      },
    );
  });

  describe("a call cut by a length stop", () => {
    it.each(["middleware", "both"] as const)(
      "%s: never reaches the tool; the next step is accepted",
      async (mode) => {
        const result = await run(sdk, kind, "truncated", mode);
        expect(result.called).toEqual([]);
        expect(result.statuses).toEqual([200, 200]);
        // Replayed as the model wrote it, under _raw_arguments (R4): nothing lost, nothing a strict provider refuses.
        expect(replayedArguments(result.requests)).toBe(
          version === "6.0.0" ? JSON.stringify({ _raw_arguments: SCENARIOS.truncated.arguments }) : "{}",
        );
      },
    );

    it("repair function alone: never reaches the tool", async () => {
      const result = await run(sdk, kind, "truncated", "repair");
      expect(result.called).toEqual([]);
      expect(result.statuses).toEqual(version === "6.0.0" ? [200, 400] : [200, 200]);
    });

    it("the middleware marks it; the repair function then leaves it, even with jsonrepair named", async () => {
      const aggressive = [...repairs, createJsonrepairRepair(jsonrepair)];
      const result = await run(sdk, kind, "truncated", "both", aggressive);
      expect(result.called).toEqual([]);
      expect(result.call?.invalid).toBe(true);
      expect(result.toolcall).toMatchObject({
        status: "truncated",
        usable: false,
        issue: "arguments_truncated",
      });
    });

    it("without the middleware, jsonrepair named does not complete it either: the text ends inside a value", async () => {
      const aggressive = [...repairs, createJsonrepairRepair(jsonrepair)];
      const result = await run(sdk, kind, "truncated", "repair", aggressive);
      // Before truncation was decided ahead of any completion, jsonrepair made this `{ location: "San Fr" }`, and
      // ai 6.0.0 ran the tool on it.
      expect(result.call?.input).not.toEqual({ location: "San Fr" });
      expect(result.called).toEqual([]);
    });
  });
});
