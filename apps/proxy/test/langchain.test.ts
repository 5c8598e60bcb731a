import type { AIMessageChunk } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningProxy, startProxy } from "./start-proxy.js";
import { type FakeUpstream, recordedUpstream } from "./upstream.js";

let upstream: FakeUpstream;
let proxy: RunningProxy;

beforeAll(async () => {
  upstream = await recordedUpstream();
  proxy = await startProxy({ upstream: upstream.url });
});
afterAll(async () => {
  await proxy.close();
  await upstream.close();
});

const chat = (baseURL: string, model: string, piece = 0) =>
  new ChatOpenAI({
    model,
    apiKey: "test-key",
    maxRetries: 0,
    configuration: { baseURL },
    modelKwargs: { metadata: { piece: String(piece) } },
  });

describe("LangChain's ChatOpenAI through the proxy", () => {
  it("gets parsed tool calls where the direct route gets invalid ones (invoke)", async () => {
    const direct = await chat(`${upstream.url}/v1`, "chat-parallel.json").invoke("Weather in three cities?");
    expect(direct.invalid_tool_calls?.length ?? 0).toBeGreaterThan(0);

    const message = await chat(proxy.baseURL, "chat-parallel.json").invoke("Weather in three cities?");
    expect(message.invalid_tool_calls ?? []).toEqual([]);
    expect(message.tool_calls?.map((call) => [call.name, call.args])).toEqual([
      ["get_weather", { city: "Paris" }],
      ["get_weather", { city: "Rome" }],
      ["get_weather", { city: "Oslo" }],
    ]);
  });

  it("gets empty and null arguments as {} (invoke)", async () => {
    for (const model of ["chat-empty-arguments.json", "chat-null-arguments.json"]) {
      const message = await chat(proxy.baseURL, model).invoke("Go.");
      expect(
        message.tool_calls?.map((call) => call.args),
        model,
      ).toEqual([{}]);
    }
  });

  it("streams content and gets whole, repaired tool calls (stream)", async () => {
    for (const piece of [0, 7]) {
      let merged: AIMessageChunk | undefined;
      let contentChunks = 0;
      for await (const chunk of await chat(proxy.baseURL, "chat-stream-parallel.sse", piece).stream("Go.")) {
        if (typeof chunk.content === "string" && chunk.content !== "") contentChunks++;
        merged = merged === undefined ? chunk : merged.concat(chunk);
      }
      expect(contentChunks).toBeGreaterThan(1);
      expect(merged?.content).toBe("Checking both cities.");
      expect(merged?.invalid_tool_calls ?? []).toEqual([]);
      expect(merged?.tool_calls?.map((call) => [call.id, call.args])).toEqual([
        ["call_p1", { city: "Paris", unit: "c" }],
        ["call_p2", { city: "Rome", unit: "c" }],
      ]);
    }
  });

  it("streams a vLLM Hermes repeated final frame as one call (stream)", async () => {
    let merged: AIMessageChunk | undefined;
    for await (const chunk of await chat(proxy.baseURL, "chat-stream-repeated-final.sse", 5).stream("Go."))
      merged = merged === undefined ? chunk : merged.concat(chunk);
    expect(merged?.tool_calls?.map((call) => call.args)).toEqual([{ query: "weather in Zürich", days: 3 }]);
  });
});
