import { coreRepairs } from "@toolcall/core";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import OpenAI, { BadRequestError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatMessagesToResponsesInput, guardOpenAI, type RepairReport } from "../src/index.js";
import {
  ask,
  completionCalls,
  consume,
  repairedCompletions,
  repairedResponsesStream,
  responsesStreamCalls,
  tools,
} from "./chat-calls.js";
import { poisonedSession } from "./poisoned-session.js";
import { replay, startServer, type TestServer } from "./server.js";
import { strictProvider } from "./strict-provider.js";

let recorded: TestServer;
let strict: TestServer;

beforeAll(async () => {
  // The model name picks the recording; `piece` sets the size of the socket writes.
  recorded = await startServer((request, response) => {
    if (request.method === "GET") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify({ object: "list", data: [] }));
      return;
    }
    const body = request.body as { model: string; metadata?: { piece?: string } };
    return replay(response, body.model, { piece: Number(body.metadata?.piece ?? 0) });
  });
  strict = await startServer(strictProvider);
});
afterAll(async () => {
  await recorded.close();
  await strict.close();
});

function clients(options: Parameters<typeof guardOpenAI>[1] = {}) {
  const raw = new OpenAI({ baseURL: recorded.baseURL, apiKey: "test-key", maxRetries: 0 });
  const reports: RepairReport[] = [];
  const guarded = guardOpenAI(raw, {
    repairs: coreRepairs,
    ...options,
    onRepair: (report) => reports.push(report),
  });
  return { raw, guarded, reports };
}

describe("guardOpenAI, Chat Completions, whole responses", () => {
  it("repairs each recorded malformation and reports it", async () => {
    const { raw, guarded, reports } = clients();
    for (const [model, expected] of repairedCompletions) {
      expect(await completionCalls(guarded, model), model).toEqual(expected);
      expect(await completionCalls(raw, model), model).not.toEqual(expected);
    }
    expect(reports.map((r) => (r.kind === "arguments" ? [r.status, r.repairs] : r.kind))).toEqual([
      ["empty", []],
      ["null_literal", []],
      ["double_encoded", []],
      ["repaired", ["python-literal"]],
      ["invalid", []],
      ["repaired", ["markdown-fence"]],
      ["repaired", ["repeated-object"]],
    ]);
  });

  it("takes the Gemma repair as a plug-in", async () => {
    const title = "Resolución de 28 de julio de 2023";
    const plain = clients();
    expect(await completionCalls(plain.guarded, "chat-gemma-leak.json")).toEqual([
      '{"query": "BOE"}',
      '{"date": "<|\\"|"2023-09-18<|\\", "title": "<|Resolución de 28 de julio de 2023<|"}',
    ]);
    const gemma = clients({ repairs: [...coreRepairs, gemmaQuoteMarkers] });
    expect(await completionCalls(gemma.guarded, "chat-gemma-leak.json")).toEqual([
      '{"query": "BOE"}',
      JSON.stringify({ date: "2023-09-18", title }),
    ]);
    expect(gemma.reports).toMatchObject([
      { status: "repaired", repairs: ["gemma-quote-markers"], toolCallId: "chatcmpl-tool-7" },
    ]);
  });

  it("never repairs a call cut by a length stop", async () => {
    const { guarded, reports } = clients();
    const [text] = await completionCalls(guarded, "chat-length-stop.json");
    // The model's own text: a fresh answer never turns a cut call into one that parses.
    expect(text).toBe('{"path": "notes.md", "content": "# Notes\\n\\nThe first');
    expect(reports).toMatchObject([{ status: "truncated", issues: [{ code: "arguments_truncated" }] }]);
  });

  it("keeps the SDK's promise: withResponse() gives the repaired data and the HTTP response", async () => {
    const { guarded } = clients();
    const { data, response, request_id } = await guarded.chat.completions
      .create({ model: "chat-null-arguments.json", messages: ask, tools })
      .withResponse();
    expect(data.choices[0]?.message.tool_calls?.[0]).toMatchObject({ function: { arguments: "{}" } });
    expect(response.status).toBe(200);
    expect(request_id).toBeNull();
  });

  it("leaves the client it wraps unchanged", async () => {
    const { raw, guarded } = clients();
    expect(raw.chat.completions).not.toBe(guarded.chat.completions);
    expect(await completionCalls(raw, "chat-null-arguments.json")).toEqual(["null"]);
    expect(guarded.baseURL).toBe(raw.baseURL);
    expect(
      await guarded.models.list().then(
        () => "listed",
        (error: Error) => error.constructor.name,
      ),
    ).toBe("listed");
  });
});

describe("guardOpenAI, Chat Completions, streams", () => {
  const stream = (client: OpenAI, model: string, piece = 0) =>
    client.chat.completions.create({
      model,
      messages: ask,
      tools,
      stream: true,
      metadata: { piece: String(piece) },
    });

  it("passes content through and hands on each call whole and repaired", async () => {
    const { raw, guarded } = clients();
    for (const piece of [0, 7]) {
      const result = await consume(await stream(guarded, "chat-stream-parallel.sse", piece));
      expect(result.content).toBe("Checking both cities.");
      expect(result.calls).toEqual([
        { id: "call_p1", name: "get_weather", arguments: '{"city": "Paris", "unit": "c"}' },
        { id: "call_p2", name: "get_weather", arguments: '{"city":"Rome","unit":"c"}' },
      ]);
      expect(result.finish).toBe("tool_calls");
    }
    expect((await consume(await stream(raw, "chat-stream-parallel.sse"))).calls[1]?.arguments).toBe(
      "{'city': 'Rome', 'unit': 'c'}",
    );
  });

  it("does not append a final frame that repeats the arguments", async () => {
    const { raw, guarded } = clients();
    const args = '{"query": "weather in Zürich", "days": 3}';
    expect(
      (await consume(await stream(guarded, "chat-stream-repeated-final.sse", 5))).calls[0]?.arguments,
    ).toBe(args);
    expect((await consume(await stream(raw, "chat-stream-repeated-final.sse"))).calls[0]?.arguments).toBe(
      args + args,
    );
  });

  it("marks a length stop truncated and never repairs it", async () => {
    const { guarded, reports } = clients();
    const result = await consume(await stream(guarded, "chat-stream-length.sse"));
    expect(result.finish).toBe("length");
    expect(result.calls[0]?.arguments).toBe('{"path": "notes.md", "content": "# Notes\\n\\nThe first');
    expect(reports).toMatchObject([{ source: "stream", status: "truncated" }]);
  });

  it("survives deltas split inside multi-byte characters", async () => {
    const { guarded } = clients();
    for (const piece of [1, 2, 3, 5]) {
      const result = await consume(await stream(guarded, "chat-stream-multibyte.sse", piece));
      expect(result.content).toBe("天気を調べます 🌦️ ok");
      expect(result.calls.map((c) => c.arguments)).toEqual([
        '{"text": "naïve café — 東京 😀", "to": "ja"}',
        '{"text":"Ελληνικά"}',
      ]);
    }
  });

  it("recovers Gemma markers in a stream with the plug-in repair", async () => {
    const { guarded } = clients({ repairs: [gemmaQuoteMarkers] });
    const result = await consume(await stream(guarded, "chat-stream-gemma-leak.sse", 3));
    expect(JSON.parse(result.calls[0]?.arguments ?? "")).toEqual({
      date: "2023-09-18",
      title: "Resolución de 28 de julio de 2023",
    });
  });

  it("keeps the SDK's Stream: controller and tee() still work", async () => {
    const { guarded } = clients();
    const result = await stream(guarded, "chat-stream-parallel.sse");
    expect(result.controller).toBeInstanceOf(AbortController);
    const [left, right] = result.tee();
    expect((await consume(left)).calls).toEqual((await consume(right)).calls);
  });
});

describe("guardOpenAI, Responses API", () => {
  it("repairs function calls of a whole response", async () => {
    const { guarded } = clients();
    const response = await guarded.responses.create({ model: "responses-function-calls.json", input: "Go." });
    expect(
      response.output.flatMap((item) => (item.type === "function_call" ? [item.arguments] : [])),
    ).toEqual(["{}", '{"city":"Rome"}', '{"city":"Oslo"}']);
    expect(response.output_text).toBe("Looking both up.");
  });

  it("repairs a streamed response: one delta per call, done events and the final response agree", async () => {
    const { guarded } = clients();
    expect(await responsesStreamCalls(guarded, "responses-stream.sse")).toEqual(repairedResponsesStream);
  });
});

describe("a poisoned 20-turn session against a strict provider", () => {
  const strictClients = () => {
    const raw = new OpenAI({ baseURL: strict.baseURL, apiKey: "test-key", maxRetries: 0 });
    const reports: RepairReport[] = [];
    return {
      raw,
      reports,
      guarded: guardOpenAI(raw, { repairs: coreRepairs, onRepair: (r) => reports.push(r) }),
    };
  };

  it("fails unguarded and passes guarded, through Chat Completions", async () => {
    const { raw, guarded, reports } = strictClients();
    const messages = poisonedSession();
    const before = JSON.stringify(messages);
    await expect(raw.chat.completions.create({ model: "strict", messages })).rejects.toBeInstanceOf(
      BadRequestError,
    );
    const completion = await guarded.chat.completions.create({ model: "strict", messages });
    expect(completion.choices[0]?.message.content).toBe("Accepted.");
    expect(JSON.stringify(messages)).toBe(before);
    expect(reports.every((r) => r.kind === "history")).toBe(true);
    expect(new Set(reports.map((r) => r.kind === "history" && r.change.rule))).toEqual(
      new Set([
        "arguments_canonicalized",
        "arguments_raw_preserved",
        "call_split",
        "result_dropped_orphan",
        "result_synthesized",
      ]),
    );
  });

  it("fails unguarded and passes guarded, through the Responses API", async () => {
    const { raw, guarded } = strictClients();
    const { input } = chatMessagesToResponsesInput(poisonedSession());
    await expect(raw.responses.create({ model: "strict", input })).rejects.toBeInstanceOf(BadRequestError);
    const response = await guarded.responses.create({ model: "strict", input });
    expect(response.output_text).toBe("Accepted.");
  });
});
