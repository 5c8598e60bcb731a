import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { coreRepairs } from "@toolcall/core";
import { gemma4 } from "@toolcall/gemma-recovery";
import { qwen3Coder } from "@toolcall/model-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardAnthropic, guardAnthropicFetch, type ToolcallReport } from "../src/index.js";

// guardAnthropic({ contentCalls }) against a loopback server answering as an Anthropic-compatible server (vLLM's
// /v1/messages, LiteLLM) does when its tool parser leaves the model's native calls in a text block: Qwen3-Coder XML
// (a look-alike of the text the model writes) and Gemma 4 native calls (the text of recorded vLLM traffic,
// @toolcall/gemma-recovery's fixture). The answer is a whole Messages API message.

const QWEN =
  "Let me check.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>";
const GEMMA = readFileSync(
  join(import.meta.dirname, "../../gemma-recovery/test/__fixtures__/vllm-gemma4-native-call-in-content.sse"),
)
  .toString("utf8")
  .split("\n")
  .filter((line) => line.startsWith("data: {"))
  .map((line) => JSON.parse(line.slice(6)).choices[0]?.delta?.content ?? "")
  .join("");
const THOUGHT = "<|channel>thought\nThe user only greets.\n<channel|>Hello! How can I help?";
const TEXTS: Record<string, string> = {
  qwen: QWEN,
  gemma: GEMMA,
  plain: "It is sunny in Paris.",
  thought: THOUGHT,
};

const messageOf = (text: string) => ({
  id: "msg_01XFDUDYJgAACzvnptvVoYEL",
  type: "message",
  role: "assistant",
  model: "qwen3-coder",
  content: [{ type: "text", text }],
  stop_reason: "end_turn",
  stop_sequence: null,
  usage: { input_tokens: 12, output_tokens: 40 },
});

let server: Server;
let baseURL: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (piece) => {
      body += piece;
    });
    request.on("end", () => {
      const { model } = JSON.parse(body) as { model: string };
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(messageOf(TEXTS[model] ?? "")));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const params = (model: string) => ({
  model,
  max_tokens: 1024,
  messages: [{ role: "user" as const, content: "What is the weather?" }],
  tools: [
    {
      name: "get_weather",
      input_schema: {
        type: "object" as const,
        properties: { city: { type: "string" }, days: { type: "integer" } },
      },
    },
  ],
});

function client(reports: ToolcallReport[]) {
  return guardAnthropic(new Anthropic({ apiKey: "test", baseURL, maxRetries: 0 }), {
    repairs: coreRepairs,
    contentCalls: [qwen3Coder, gemma4],
    onReport: (report) => reports.push(report),
  });
}

describe("guardAnthropic({ contentCalls }) on whole answers, through @anthropic-ai/sdk", () => {
  it("turns a Qwen3-Coder call left in a text block into a tool_use block with a fresh id", async () => {
    const reports: ToolcallReport[] = [];
    const message = await client(reports).messages.create(params("qwen"));
    expect(message.content[0]).toEqual({ type: "text", text: "Let me check." });
    const use = message.content[1];
    expect(use).toMatchObject({ type: "tool_use", name: "get_weather", input: { city: "Paris", days: 3 } });
    expect(use?.type === "tool_use" ? use.id : "").toMatch(/^toolu_[A-Za-z0-9]{24}$/);
    expect(message.stop_reason).toBe("tool_use");
    expect(reports).toEqual([
      {
        calls: [
          {
            id: use?.type === "tool_use" ? use.id : "",
            name: "get_weather",
            status: "recovered",
            repairs: ["content-call"],
            usable: true,
            syntax: "qwen3-coder",
          },
        ],
      },
    ]);
  });

  it("turns a Gemma 4 call of recorded vLLM text into a tool_use block", async () => {
    const reports: ToolcallReport[] = [];
    const message = await client(reports).messages.create(params("gemma"));
    const uses = message.content.filter((block) => block.type === "tool_use");
    expect(uses).toHaveLength(1);
    expect(reports[0]?.calls?.[0]).toMatchObject({ status: "recovered", syntax: "gemma4" });
    expect(message.stop_reason).toBe("tool_use");
  });

  it("gives two recovered calls different ids", async () => {
    const guarded = guardAnthropicFetch({ contentCalls: [qwen3Coder] });
    const ids = new Set<string>();
    for (let round = 0; round < 2; round++) {
      const response = await guarded(`${baseURL}/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(params("qwen")),
      });
      const header = JSON.parse(response.headers.get("x-toolcall-repairs") ?? "{}") as ToolcallReport;
      const body = (await response.json()) as { content: { id?: string }[] };
      expect(header.calls?.[0]?.id).toBe(body.content[1]?.id);
      ids.add(body.content[1]?.id ?? "");
    }
    expect(ids.size).toBe(2);
  });

  it("hands a text without calls on byte for byte, with no report", async () => {
    const reports: ToolcallReport[] = [];
    const guarded = guardAnthropicFetch({
      contentCalls: [qwen3Coder, gemma4],
      onReport: (report) => reports.push(report),
    });
    const response = await guarded(`${baseURL}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(params("plain")),
    });
    expect(await response.text()).toBe(JSON.stringify(messageOf(TEXTS.plain as string)));
    expect(response.headers.get("x-toolcall-repairs")).toBeNull();
    expect(reports).toEqual([]);
  });

  it("makes a Gemma 4 thought a thinking block even without a call, stop_reason unchanged", async () => {
    const reports: ToolcallReport[] = [];
    const message = await client(reports).messages.create(params("thought"));
    expect(message.content).toEqual([
      { type: "thinking", thinking: "The user only greets.", signature: "" },
      { type: "text", text: "Hello! How can I help?" },
    ]);
    expect(message.stop_reason).toBe("end_turn");
    expect(reports).toEqual([]);
  });

  it("leaves the text alone without contentCalls", async () => {
    const guarded = guardAnthropic(new Anthropic({ apiKey: "test", baseURL, maxRetries: 0 }), {
      repairs: coreRepairs,
    });
    const message = await guarded.messages.create(params("qwen"));
    expect(message.content).toEqual([{ type: "text", text: QWEN }]);
  });

  it("refuses contentCalls: 'auto' without a chat template at construction", () => {
    expect(() => guardAnthropicFetch({ contentCalls: "auto" })).toThrow(/chat_template_missing/);
  });
});
