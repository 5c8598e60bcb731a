import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import Anthropic from "@anthropic-ai/sdk";
import { coreRepairs } from "@toolcall/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  guardAnthropic,
  guardAnthropicFetch,
  type ToolcallReport,
  type ToolUseReport,
} from "../src/index.js";

// A loopback server answering as the Anthropic Messages API does: a streamed answer is the event sequence of
// Anthropic's streaming documentation (message_start, a text block with a ping inside, tool_use blocks whose input
// comes as input_json_delta pieces, message_delta with the stop_reason, message_stop), a look-alike with the tool
// input each scenario names; a refused request gets the API's literal error body; `overloaded` sends the documented
// mid-stream error event. With fine-grained tool streaming the API sends input pieces that are not valid JSON.

const event = (type: string, data: Record<string, unknown>) =>
  `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;

interface Scenario {
  /** Each tool_use block's input pieces. */
  blocks: string[][];
  stopReason: string;
  overloaded?: boolean;
}

const SCENARIOS: Record<string, Scenario> = {
  clean: { blocks: [["", '{"location":', ' "San Francisco, CA"}']], stopReason: "tool_use" },
  python: {
    blocks: [
      ["", "{'location': ", "'Paris'}"],
      ['{"location": ', '"Berlin"}'],
    ],
    stopReason: "tool_use",
  },
  cut: { blocks: [['{"location": "San Fra']], stopReason: "max_tokens" },
  overloaded: { blocks: [['{"location": "Oslo"}']], stopReason: "tool_use", overloaded: true },
};

function streamOf(scenario: Scenario): string {
  let text = event("message_start", {
    type: "message_start",
    message: {
      id: "msg_014p7gG3wDgGV9EUtLvnow3U",
      type: "message",
      role: "assistant",
      model: "claude-opus-4-1-20250805",
      stop_sequence: null,
      usage: { input_tokens: 472, output_tokens: 2 },
      content: [],
      stop_reason: null,
    },
  });
  text += event("content_block_start", {
    type: "content_block_start",
    index: 0,
    content_block: { type: "text", text: "" },
  });
  text += 'event: ping\ndata: {"type": "ping"}\n\n';
  text += event("content_block_delta", {
    type: "content_block_delta",
    index: 0,
    delta: { type: "text_delta", text: "Okay, let me check the weather." },
  });
  text += event("content_block_stop", { type: "content_block_stop", index: 0 });
  if (scenario.overloaded)
    return `${text}event: error\ndata: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}\n\n`;
  scenario.blocks.forEach((pieces, position) => {
    const index = position + 1;
    text += event("content_block_start", {
      type: "content_block_start",
      index,
      content_block: {
        type: "tool_use",
        id: `toolu_01T1x1fJ34qAmk2tNTrN7Up${index}`,
        name: "get_weather",
        input: {},
      },
    });
    for (const piece of pieces)
      text += event("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: piece },
      });
    text += event("content_block_stop", { type: "content_block_stop", index });
  });
  text += event("message_delta", {
    type: "message_delta",
    delta: { stop_reason: scenario.stopReason, stop_sequence: null },
    usage: { output_tokens: 89 },
  });
  return text + event("message_stop", { type: "message_stop" });
}

const ERROR_BODY =
  '{"type":"error","error":{"type":"invalid_request_error","message":"messages: roles must alternate between \\"user\\" and \\"assistant\\", but found multiple \\"user\\" roles in a row"},"request_id":"req_011CSHoEeqs5C35K2UUqR7Fy"}';

let server: Server;
let baseURL: string;
/** The last request body the server received. */
let received: { messages?: unknown[] } = {};

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (piece) => {
      body += piece;
    });
    request.on("end", () => {
      received = JSON.parse(body);
      const { model } = JSON.parse(body) as { model: string };
      const scenario = SCENARIOS[model];
      if (scenario === undefined) {
        response.writeHead(400, {
          "content-type": "application/json",
          "request-id": "req_011CSHoEeqs5C35K2UUqR7Fy",
        });
        response.end(ERROR_BODY);
        return;
      }
      response.writeHead(200, {
        "content-type": "text/event-stream; charset=utf-8",
        "cache-control": "no-cache",
      });
      // Sent in small pieces, cut anywhere, as a socket may deliver them.
      const text = streamOf(scenario);
      for (let at = 0; at < text.length; at += 37) response.write(text.slice(at, at + 37));
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function client(reports: ToolUseReport[] = []) {
  return guardAnthropic(new Anthropic({ apiKey: "test", baseURL, maxRetries: 0 }), {
    repairs: coreRepairs,
    onRepair: (report) => {
      if (report.kind === "tool_use") reports.push(report);
    },
  });
}

const params = (model: string) => ({
  model,
  max_tokens: 1024,
  messages: [{ role: "user" as const, content: "What is the weather?" }],
  tools: [
    {
      name: "get_weather",
      input_schema: { type: "object" as const, properties: { location: { type: "string" } } },
    },
  ],
});

describe("guardAnthropic over real HTTP, through @anthropic-ai/sdk", () => {
  it("hands a clean stream on byte for byte", async () => {
    const guarded = guardAnthropicFetch({ repairs: coreRepairs });
    const response = await guarded(`${baseURL}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(params("clean")),
    });
    expect(await response.text()).toBe(streamOf(SCENARIOS.clean as Scenario));
  });

  it("repairs a Python-dict tool_use input and holds the next block behind it (messages.stream)", async () => {
    const reports: ToolUseReport[] = [];
    const stream = client(reports).messages.stream(params("python"));
    const message = await stream.finalMessage();
    const inputs = message.content.flatMap((block) => (block.type === "tool_use" ? [block.input] : []));
    expect(inputs).toEqual([{ location: "Paris" }, { location: "Berlin" }]);
    expect(message.stop_reason).toBe("tool_use");
    expect(reports).toMatchObject([
      { index: 1, status: "repaired", usable: true, after: '{"location":"Paris"}' },
    ]);
  });

  it("gives raw events whose input pieces add up to the decided input (messages.create, stream: true)", async () => {
    const events = await client().messages.create({ ...params("python"), stream: true });
    const pieces = new Map<number, string>();
    const order: string[] = [];
    for await (const streamed of events) {
      if (streamed.type === "content_block_start" && streamed.content_block.type === "tool_use")
        order.push(`start ${streamed.index}`);
      if (streamed.type === "content_block_stop" && streamed.index > 0) order.push(`stop ${streamed.index}`);
      if (streamed.type === "content_block_delta" && streamed.delta.type === "input_json_delta")
        pieces.set(streamed.index, (pieces.get(streamed.index) ?? "") + streamed.delta.partial_json);
    }
    expect(JSON.parse(pieces.get(1) ?? "")).toEqual({ location: "Paris" });
    expect(JSON.parse(pieces.get(2) ?? "")).toEqual({ location: "Berlin" });
    // The second block reached the client only once the first was decided.
    expect(order).toEqual(["start 1", "stop 1", "start 2", "stop 2"]);
  });

  it("never repairs input a max_tokens stop cut: it keeps the model's text and is reported unusable", async () => {
    const reports: ToolUseReport[] = [];
    const events = await client(reports).messages.create({ ...params("cut"), stream: true });
    let input = "";
    for await (const streamed of events)
      if (streamed.type === "content_block_delta" && streamed.delta.type === "input_json_delta")
        input += streamed.delta.partial_json;
    expect(input).toBe('{"location": "San Fra');
    expect(reports).toMatchObject([{ status: "truncated", usable: false }]);
  });

  it("passes the API's error body and a mid-stream error event through as they came", async () => {
    const refused = client().messages.create({ ...params("unknown-model"), stream: true });
    await expect(refused).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    await expect(refused).rejects.toThrow(/roles must alternate/);
    const overloaded = client().messages.stream(params("overloaded"));
    await expect(overloaded.finalMessage()).rejects.toThrow(/Overloaded/);
  });

  it("takes core's ToolcallOptions: the history sanitized for the provider, one ToolcallReport told to onReport", async () => {
    const reports: ToolcallReport[] = [];
    const guarded = guardAnthropic(new Anthropic({ apiKey: "test", baseURL, maxRetries: 0 }), {
      repairs: coreRepairs,
      onReport: (report) => reports.push(report),
    });
    // A call whose result never came (a closed tab), then a new question: the API refuses that history.
    const history = [
      { role: "user" as const, content: "What is the weather?" },
      {
        role: "assistant" as const,
        content: [
          { type: "tool_use" as const, id: "toolu_01", name: "get_weather", input: { location: "Oslo" } },
        ],
      },
      { role: "user" as const, content: "And in Paris?" },
    ];
    const stream = guarded.messages.stream({ ...params("python"), messages: history });
    const message = await stream.finalMessage();
    expect(message.stop_reason).toBe("tool_use");
    const sent = JSON.stringify(received.messages);
    expect(sent).toContain('"tool_result"');
    expect(sent).toContain('"toolu_01"');
    expect(reports).toHaveLength(1);
    expect(reports[0]?.history).toBeDefined();
    expect(reports[0]?.calls).toMatchObject([{ name: "get_weather", status: "repaired", usable: true }]);
    // Sent as it is with sanitize: false.
    const plain = guardAnthropic(new Anthropic({ apiKey: "test", baseURL, maxRetries: 0 }), {
      sanitize: false,
    });
    await plain.messages.stream({ ...params("clean"), messages: history }).finalMessage();
    expect(JSON.stringify(received.messages)).not.toContain('"tool_result"');
  });

  it("refuses contentCalls: 'auto' without a chat template, at construction", () => {
    expect(() => guardAnthropicFetch({ contentCalls: "auto" })).toThrow(/chat_template_missing/);
  });
});
