import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import Anthropic from "@anthropic-ai/sdk";
import { coreRepairs } from "@toolcall/core";
import { gemma4 } from "@toolcall/gemma-recovery";
import { qwen3Coder } from "@toolcall/model-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { guardAnthropic, type MessagesStreamReport, type ToolcallReport } from "../src/index.js";
import { type MessageShape, sseOf } from "./messages-sse.js";

// guardAnthropic({ contentCalls, splitMergedCalls }) with the SDK's own `messages.stream()` and `finalMessage()`,
// against a loopback server answering as an Anthropic-compatible server (vLLM's /v1/messages, LiteLLM) does when
// its tool parser leaves the model's native calls in a text block: the event sequence of Anthropic's streaming
// documentation, the text in small `text_delta` pieces, the body written a few bytes at a time. Texts: Qwen3-Coder
// XML (a look-alike of what the model writes), Gemma 4 native calls (recorded vLLM traffic, @toolcall/gemma-recovery's
// fixture); a tool_use block whose input is two objects merged (what servers that stream several calls at one index
// send).

const QWEN_CALL =
  "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>";
const GEMMA = readFileSync(
  join(import.meta.dirname, "../../gemma-recovery/test/__fixtures__/vllm-gemma4-native-call-in-content.sse"),
)
  .toString("utf8")
  .split("\n")
  .filter((line) => line.startsWith("data: {"))
  .map((line) => JSON.parse(line.slice(6)).choices[0]?.delta?.content ?? "")
  .join("");

const message = (content: Record<string, unknown>[], stop: string): MessageShape => ({
  id: "msg_01XFDUDYJgAACzvnptvVoYEL",
  model: "qwen3-coder",
  content,
  stop_reason: stop,
});
const every = (step: number) => Array.from({ length: 400 }, (_, at) => at * step);

const ANSWERS: Record<string, { sse: string; bytes: number }> = {
  qwen: {
    sse: sseOf({
      message: message([{ type: "text", text: `Let me check.\n${QWEN_CALL}\nOne moment.` }], "end_turn"),
      cuts: every(3),
    }),
    bytes: 7,
  },
  gemma: {
    sse: sseOf({ message: message([{ type: "text", text: GEMMA }], "end_turn"), cuts: every(5) }),
    bytes: 11,
  },
  merged: {
    sse: sseOf({
      message: message(
        [
          { type: "text", text: "Both cities." },
          { type: "tool_use", id: "toolu_01T1x1fJ34qAmk2tNTrN7Up1", name: "get_weather", input: {} },
          { type: "text", text: "Done." },
        ],
        "tool_use",
      ),
      inputs: { 1: '{"city": "Paris"}{"city": "Rome"}' },
      cuts: every(4),
    }),
    bytes: 13,
  },
  // Lone surrogates around the call (JSON carries them as \u escapes), the text cut inside a surrogate pair too.
  surrogates: {
    sse: sseOf({
      message: message(
        [{ type: "text", text: `\ud800 \ud83d\ude00 before${QWEN_CALL}after \udfff` }],
        "end_turn",
      ),
      cuts: [1, 4, 5, 6, 30],
    }),
    bytes: 5,
  },
  // Every byte its own write: the call's marker is cut at every place.
  bytewise: {
    sse: sseOf({ message: message([{ type: "text", text: `Sure.${QWEN_CALL}` }], "end_turn") }),
    bytes: 1,
  },
};

let server: Server;
let baseURL: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (piece) => {
      body += piece;
    });
    request.on("end", async () => {
      const { model } = JSON.parse(body) as { model: string };
      const answer = ANSWERS[model] as { sse: string; bytes: number };
      response.writeHead(200, { "content-type": "text/event-stream; charset=utf-8" });
      const bytes = Buffer.from(answer.sse, "utf8");
      for (let at = 0; at < bytes.length; at += answer.bytes)
        response.write(bytes.subarray(at, at + answer.bytes));
      response.end();
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

function client(seen: { reports: ToolcallReport[]; repairs: MessagesStreamReport[] }) {
  return guardAnthropic(new Anthropic({ apiKey: "test", baseURL, maxRetries: 0 }), {
    repairs: coreRepairs,
    contentCalls: [qwen3Coder, gemma4],
    splitMergedCalls: true,
    onRepair: (report) => seen.repairs.push(report),
    onReport: (report) => seen.reports.push(report),
  });
}

describe("guardAnthropic({ contentCalls, splitMergedCalls }) on streamed answers, through @anthropic-ai/sdk", () => {
  it("turns a Qwen3-Coder call in a streamed text block into a tool_use block, text around it kept", async () => {
    const seen = { reports: [] as ToolcallReport[], repairs: [] as MessagesStreamReport[] };
    const final = await client(seen).messages.stream(params("qwen")).finalMessage();
    expect(final.content).toMatchObject([
      { type: "text", text: "Let me check." },
      { type: "tool_use", name: "get_weather", input: { city: "Paris", days: 3 } },
      { type: "text", text: "\nOne moment." },
    ]);
    const use = final.content[1];
    const id = use?.type === "tool_use" ? use.id : "";
    expect(id).toMatch(/^toolu_[A-Za-z0-9]{24}$/);
    expect(final.stop_reason).toBe("tool_use");
    expect(seen.repairs).toEqual([
      { kind: "content_call", index: 1, toolUseId: id, name: "get_weather", syntax: "qwen3-coder" },
    ]);
    expect(seen.reports).toEqual([
      {
        calls: [
          {
            id,
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
    const seen = { reports: [] as ToolcallReport[], repairs: [] as MessagesStreamReport[] };
    const final = await client(seen).messages.stream(params("gemma")).finalMessage();
    expect(final.content.filter((block) => block.type === "tool_use")).toHaveLength(1);
    expect(final.stop_reason).toBe("tool_use");
    expect(seen.reports[0]?.calls?.[0]).toMatchObject({ status: "recovered", syntax: "gemma4" });
  });

  it("splits merged tool_use input into two blocks and moves the text after them up", async () => {
    const seen = { reports: [] as ToolcallReport[], repairs: [] as MessagesStreamReport[] };
    const stream = client(seen).messages.stream(params("merged"));
    const indexes: number[] = [];
    stream.on("streamEvent", (event) => {
      if (event.type === "content_block_start") indexes.push(event.index);
    });
    const final = await stream.finalMessage();
    expect(final.content).toEqual([
      { type: "text", text: "Both cities." },
      {
        type: "tool_use",
        id: "toolu_01T1x1fJ34qAmk2tNTrN7Up1",
        name: "get_weather",
        input: { city: "Paris" },
      },
      {
        type: "tool_use",
        id: "toolu_01T1x1fJ34qAmk2tNTrN7Up1_2",
        name: "get_weather",
        input: { city: "Rome" },
      },
      { type: "text", text: "Done." },
    ]);
    expect(indexes).toEqual([0, 1, 2, 3]);
    expect(seen.reports[0]?.calls?.[0]).toMatchObject({
      id: "toolu_01T1x1fJ34qAmk2tNTrN7Up1",
      split: ["toolu_01T1x1fJ34qAmk2tNTrN7Up1", "toolu_01T1x1fJ34qAmk2tNTrN7Up1_2"],
    });
  });

  it("keeps lone surrogates and split surrogate pairs in the text around a call", async () => {
    const seen = { reports: [] as ToolcallReport[], repairs: [] as MessagesStreamReport[] };
    const final = await client(seen).messages.stream(params("surrogates")).finalMessage();
    expect(final.content).toMatchObject([
      { type: "text", text: "\ud800 \ud83d\ude00 before" },
      { type: "tool_use", name: "get_weather", input: { city: "Paris", days: 3 } },
      { type: "text", text: "after \udfff" },
    ]);
  });

  it("reads a call whose body came one byte at a time", async () => {
    const seen = { reports: [] as ToolcallReport[], repairs: [] as MessagesStreamReport[] };
    const final = await client(seen).messages.stream(params("bytewise")).finalMessage();
    expect(final.content).toMatchObject([
      { type: "text", text: "Sure." },
      { type: "tool_use", name: "get_weather", input: { city: "Paris", days: 3 } },
    ]);
  });
});
