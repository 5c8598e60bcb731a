import { coreRepairs } from "@toolcall/core";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ask,
  completionCalls,
  consume,
  repairedCompletions,
  repairedResponsesStream,
  responsesStreamCalls,
  tools,
} from "../../../packages/openai/test/chat-calls.js";
import { gemmaContentCalls, parseProxyArgs, qwenContentCalls } from "../src/index.js";
import { type RunningProxy, startProxy } from "./start-proxy.js";
import { type FakeUpstream, fixture, recordedUpstream, startUpstream } from "./upstream.js";

let upstream: FakeUpstream;
let proxy: RunningProxy;
let gemmaProxy: RunningProxy;

beforeAll(async () => {
  upstream = await recordedUpstream();
  proxy = await startProxy({ upstream: upstream.url });
  gemmaProxy = await startProxy({
    upstream: upstream.url,
    repairs: [...coreRepairs, gemmaQuoteMarkers],
    contentCalls: [gemmaContentCalls],
  });
});
afterAll(async () => {
  await proxy.close();
  await gemmaProxy.close();
  await upstream.close();
});

const client = (baseURL: string) => new OpenAI({ baseURL, apiKey: "test-key", maxRetries: 0 });

const stream = (openai: OpenAI, model: string, piece = 0) =>
  openai.chat.completions.create({
    model,
    messages: ask,
    tools,
    stream: true,
    metadata: { piece: String(piece) },
  });

describe("the openai SDK through the proxy, whole responses", () => {
  it("gets every recorded malformation repaired, where the direct route gets it broken", async () => {
    for (const [model, expected] of repairedCompletions) {
      expect(await completionCalls(client(proxy.baseURL), model), model).toEqual(expected);
      expect(await completionCalls(client(`${upstream.url}/v1`), model), model).not.toEqual(expected);
    }
    const repairs = proxy.logs
      .filter((line) => line.route === "chat.completions")
      .map((line) => line.repairs);
    expect(repairs).toContainEqual({ "python-literal": 1, invalid: 1 });
    expect(repairs).toContainEqual({ "markdown-fence": 1, "repeated-object": 1 });
  });

  it("recovers leaked Gemma markers with the gemma-quote-markers repair", async () => {
    expect(await completionCalls(client(gemmaProxy.baseURL), "chat-gemma-leak.json")).toEqual([
      '{"query": "BOE"}',
      JSON.stringify({ date: "2023-09-18", title: "Resolución de 28 de julio de 2023" }),
    ]);
  });

  it("cleans Gemma's markers before core's repairs, as `--repair core,gemma-quote-markers` asks", async () => {
    // A comma and a brace inside a marker-quoted string are data: a trailing-comma pass before the markers are
    // cleaned would see them outside any string and delete the comma.
    const leaked = '{"q": "<|\\"|"x,}<|\\", "n": 1}';
    const completion = {
      id: "chatcmpl-order",
      object: "chat.completion",
      created: 1775000000,
      model: "gemma",
      choices: [
        {
          index: 0,
          message: {
            role: "assistant",
            content: null,
            tool_calls: [{ id: "c1", type: "function", function: { name: "search", arguments: leaked } }],
          },
          finish_reason: "tool_calls",
          logprobs: null,
        },
      ],
    };
    const gemmaUpstream = await startUpstream((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(JSON.stringify(completion));
    });
    const parsed = parseProxyArgs({
      argv: ["--upstream", gemmaUpstream.url, "--repair", "core,gemma-quote-markers"],
      env: {},
    });
    if (!parsed.ok || !("command" in parsed)) throw new Error("the flags did not parse");
    const via = await startProxy({ ...parsed.command.options, upstream: gemmaUpstream.url });
    try {
      const [text] = await completionCalls(client(via.baseURL), "gemma");
      expect(JSON.parse(text as string)).toEqual({ q: "x,}", n: 1 });
      expect(via.logs.find((line) => line.route === "chat.completions")?.repairs).toEqual({
        "gemma-quote-markers": 1,
      });
    } finally {
      await via.close();
      await gemmaUpstream.close();
    }
  });

  it("says what it repaired: the x-toolcall-repairs header, and the comment that ends a stream", async () => {
    const { response } = await client(proxy.baseURL)
      .chat.completions.create({ model: "chat-parallel.json", messages: ask, tools })
      .withResponse();
    expect(JSON.parse(response.headers.get("x-toolcall-repairs") ?? "{}")).toMatchObject({
      calls: [
        { status: "repaired", repairs: ["markdown-fence"], usable: true },
        { status: "repaired", repairs: ["repeated-object"], usable: true },
      ],
    });
    const streamed = await fetch(`${proxy.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "chat-stream-parallel.sse", messages: ask, tools, stream: true }),
    });
    const text = await streamed.text();
    const comment = text.split("\n\n").find((event) => event.startsWith(": x-toolcall-repairs "));
    expect(JSON.parse(comment?.slice(": x-toolcall-repairs ".length) ?? "{}")).toMatchObject({
      calls: [{ id: "call_p2", status: "repaired", repairs: ["python-literal"] }],
    });
    expect(text.endsWith(`${comment}\n\ndata: [DONE]\n\n`)).toBe(true);
  });

  it("never repairs a call cut by a length stop: it keeps the model's own text", async () => {
    const [text] = await completionCalls(client(proxy.baseURL), "chat-length-stop.json");
    expect(text).toBe('{"path": "notes.md", "content": "# Notes\\n\\nThe first');
  });

  it("keeps the upstream's bytes when nothing needs repair", async () => {
    const clean = JSON.stringify(
      {
        id: "chatcmpl-clean",
        object: "chat.completion",
        created: 1775000000,
        model: "m",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: null,
              tool_calls: [
                {
                  id: "c1",
                  type: "function",
                  function: { name: "f", arguments: '{ "big": 12345678901234567890, "x": 1.0 }' },
                },
              ],
            },
            finish_reason: "tool_calls",
            logprobs: null,
          },
        ],
      },
      null,
      1,
    );
    const cleanUpstream = await startUpstream((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(clean);
    });
    const via = await startProxy({ upstream: cleanUpstream.url });
    try {
      const post = (base: string, model: string) =>
        fetch(`${base}/chat/completions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ model }),
        }).then((r) => r.text());
      expect(await post(via.baseURL, "m")).toBe(clean);
      // A body of another shape on this route passes as it came.
      expect(await post(proxy.baseURL, "responses-function-calls.json")).toBe(
        fixture("responses-function-calls.json").toString("utf8"),
      );
    } finally {
      await via.close();
      await cleanUpstream.close();
    }
  });

  it("repairs Responses API function calls", async () => {
    const response = await client(proxy.baseURL).responses.create({
      model: "responses-function-calls.json",
      input: "Go.",
    });
    expect(
      response.output.flatMap((item) => (item.type === "function_call" ? [item.arguments] : [])),
    ).toEqual(["{}", '{"city":"Rome"}', '{"city":"Oslo"}']);
    expect(response.output_text).toBe("Looking both up.");
  });

  it("recovers Gemma native calls left in content when --content-calls gemma is on", async () => {
    // The whole text of the recorded native-call stream, as a non-streaming vLLM answer carries it.
    let content = "";
    for (const line of fixture("vllm-gemma4-native-call-in-content.sse").toString("utf8").split("\n")) {
      if (!line.startsWith("data: {")) continue;
      content += JSON.parse(line.slice(6)).choices[0]?.delta?.content ?? "";
    }
    const contentUpstream = await startUpstream((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: "chatcmpl-gemma",
          object: "chat.completion",
          created: 1775000000,
          model: "google/gemma-4-31B-it",
          choices: [
            { index: 0, message: { role: "assistant", content }, finish_reason: "stop", logprobs: null },
          ],
        }),
      );
    });
    const via = await startProxy({ upstream: contentUpstream.url, contentCalls: [gemmaContentCalls] });
    try {
      const { data: completion, response } = await client(via.baseURL)
        .chat.completions.create({ model: "gemma", messages: ask })
        .withResponse();
      // The recovered call is on the answer like any other repair, with the syntax it was written in.
      expect(JSON.parse(response.headers.get("x-toolcall-repairs") ?? "{}")).toEqual({
        calls: [
          {
            choice: 0,
            id: completion.choices[0]?.message.tool_calls?.[0]?.id,
            name: "patch",
            status: "recovered",
            repairs: ["content-call"],
            usable: true,
            syntax: "gemma4",
          },
        ],
      });
      const choice = completion.choices[0];
      expect(choice?.finish_reason).toBe("tool_calls");
      // The thought channel is reasoning (model-formats' gemma4 splits it, as every family splits its reasoning).
      expect(choice?.message.content).toBe("I will patch it now.");
      expect((choice?.message as { reasoning_content?: string } | undefined)?.reasoning_content).toBe(
        "The user wants the file patched.",
      );
      expect(choice?.message.tool_calls?.map((c) => (c.type === "function" ? c.function : c))).toEqual([
        {
          name: "patch",
          arguments: '{"content": "print(\'hi\')", "mode": "overwrite", "path": "/tmp/a.py"}',
        },
      ]);
      expect(via.logs.find((l) => l.route === "chat.completions")?.repairs).toEqual({
        "content-calls:gemma": 1,
      });
    } finally {
      await via.close();
      await contentUpstream.close();
    }
  });

  it("passes every other path through", async () => {
    const models = await client(proxy.baseURL).models.list();
    expect(models.data.map((m) => m.id)).toEqual(["recorded"]);
  });
});

describe("Qwen3-Coder calls left in content (--content-calls qwen)", () => {
  // What vLLM returns when its tool parser does not structure a Qwen3-Coder call: the XML stays in `content`.
  const XML =
    "Let me check.\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>";
  const qwenTools = [
    {
      type: "function" as const,
      function: {
        name: "get_weather",
        parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } },
      },
    },
  ];
  const chunkFrame = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: "q", object: "chat.completion.chunk", created: 1, model: "Qwen/Qwen3-Coder", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
  let qwenUpstream: FakeUpstream;
  let via: RunningProxy;
  beforeAll(async () => {
    qwenUpstream = await startUpstream((request, response) => {
      const body = request.json as { stream?: boolean; metadata?: { piece?: string } };
      if (body.stream) {
        const size = Number(body.metadata?.piece ?? 5);
        response.writeHead(200, { "content-type": "text/event-stream" });
        let text = chunkFrame({ role: "assistant", content: "" });
        for (let at = 0; at < XML.length; at += size)
          text += chunkFrame({ content: XML.slice(at, at + size) });
        response.end(`${text}${chunkFrame({}, "stop")}data: [DONE]\n\n`);
        return;
      }
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          id: "q",
          object: "chat.completion",
          created: 1,
          model: "Qwen/Qwen3-Coder",
          choices: [
            { index: 0, message: { role: "assistant", content: XML }, finish_reason: "stop", logprobs: null },
          ],
        }),
      );
    });
    via = await startProxy({ upstream: qwenUpstream.url, contentCalls: [qwenContentCalls] });
  });
  afterAll(async () => {
    await via.close();
    await qwenUpstream.close();
  });

  it("turns them into tool calls typed by the request's schemas (whole response)", async () => {
    const { data: completion, response } = await client(via.baseURL)
      .chat.completions.create({ model: "qwen", messages: ask, tools: qwenTools })
      .withResponse();
    expect(JSON.parse(response.headers.get("x-toolcall-repairs") ?? "{}")).toEqual({
      calls: [
        {
          choice: 0,
          id: completion.choices[0]?.message.tool_calls?.[0]?.id,
          name: "get_weather",
          status: "recovered",
          repairs: ["content-call"],
          usable: true,
          syntax: "qwen3-coder",
        },
      ],
    });
    const choice = completion.choices[0];
    expect(choice?.finish_reason).toBe("tool_calls");
    // The newline the template writes before a call is syntax, as every family of the engine reads it.
    expect(choice?.message.content).toBe("Let me check.");
    expect(choice?.message.tool_calls?.map((c) => (c.type === "function" ? c.function : c))).toEqual([
      { name: "get_weather", arguments: '{"city": "Paris", "days": 3}' },
    ]);
    // Directly, the call is only text.
    const direct = await client(`${qwenUpstream.url}/v1`).chat.completions.create({
      model: "qwen",
      messages: ask,
    });
    expect(direct.choices[0]?.message.tool_calls).toBeUndefined();
  });

  it("turns them into tool calls however the stream splits them", async () => {
    for (const piece of [1, 3, 8, 500]) {
      const result = await consume(
        await client(via.baseURL).chat.completions.create({
          model: "qwen",
          messages: ask,
          tools: qwenTools,
          stream: true,
          metadata: { piece: String(piece) },
        }),
      );
      expect(result.content, `piece ${piece}`).toBe("Let me check.");
      expect(result.calls).toMatchObject([
        { name: "get_weather", arguments: '{"city": "Paris", "days": 3}' },
      ]);
      expect(result.finish).toBe("tool_calls");
    }
  });

  it("says in the comment that ends the stream which calls it recovered, however the stream splits them", async () => {
    for (const piece of [1, 7, 500]) {
      const streamed = await fetch(`${via.baseURL}/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          model: "qwen",
          messages: ask,
          tools: qwenTools,
          stream: true,
          metadata: { piece: String(piece) },
        }),
      });
      const text = await streamed.text();
      const comment = text.split("\n\n").find((event) => event.startsWith(": x-toolcall-repairs "));
      expect(
        JSON.parse(comment?.slice(": x-toolcall-repairs ".length) ?? "{}"),
        `piece ${piece}`,
      ).toMatchObject({
        calls: [
          {
            choice: 0,
            name: "get_weather",
            status: "recovered",
            repairs: ["content-call"],
            syntax: "qwen3-coder",
          },
        ],
      });
      expect(text.endsWith(`${comment}\n\ndata: [DONE]\n\n`)).toBe(true);
    }
  });
});

describe("the openai SDK through the proxy, streams", () => {
  it("streams content through and hands on each call whole and repaired", async () => {
    for (const piece of [0, 7]) {
      const result = await consume(await stream(client(proxy.baseURL), "chat-stream-parallel.sse", piece));
      expect(result.content).toBe("Checking both cities.");
      expect(result.calls).toEqual([
        { id: "call_p1", name: "get_weather", arguments: '{"city": "Paris", "unit": "c"}' },
        { id: "call_p2", name: "get_weather", arguments: '{"city":"Rome","unit":"c"}' },
      ]);
      expect(result.finish).toBe("tool_calls");
    }
    const direct = await consume(await stream(client(`${upstream.url}/v1`), "chat-stream-parallel.sse"));
    expect(direct.calls[1]?.arguments).toBe("{'city': 'Rome', 'unit': 'c'}");
  });

  it("does not append a final frame that repeats the arguments (vLLM Hermes parser)", async () => {
    const args = '{"query": "weather in Zürich", "days": 3}';
    const via = await consume(await stream(client(proxy.baseURL), "chat-stream-repeated-final.sse", 5));
    expect(via.calls[0]?.arguments).toBe(args);
    const direct = await consume(
      await stream(client(`${upstream.url}/v1`), "chat-stream-repeated-final.sse"),
    );
    expect(direct.calls[0]?.arguments).toBe(args + args);
  });

  it("marks a streamed length stop truncated and never repairs it", async () => {
    const result = await consume(await stream(client(proxy.baseURL), "chat-stream-length.sse"));
    expect(result.finish).toBe("length");
    expect(result.calls[0]?.arguments).toBe('{"path": "notes.md", "content": "# Notes\\n\\nThe first');
  });

  it("survives socket writes split inside multi-byte characters", async () => {
    for (const piece of [1, 2, 3, 5]) {
      const result = await consume(await stream(client(proxy.baseURL), "chat-stream-multibyte.sse", piece));
      expect(result.content).toBe("天気を調べます 🌦️ ok");
      expect(result.calls.map((c) => c.arguments)).toEqual([
        '{"text": "naïve café — 東京 😀", "to": "ja"}',
        '{"text":"Ελληνικά"}',
      ]);
    }
  });

  it("recovers Gemma markers in streamed arguments", async () => {
    const result = await consume(await stream(client(gemmaProxy.baseURL), "chat-stream-gemma-leak.sse", 3));
    expect(JSON.parse(result.calls[0]?.arguments ?? "")).toEqual({
      date: "2023-09-18",
      title: "Resolución de 28 de julio de 2023",
    });
  });

  it("recovers a Gemma native call left in streamed content, however the bytes are split", async () => {
    for (const piece of [0, 1, 4, 13]) {
      const result = await consume(
        await stream(client(gemmaProxy.baseURL), "vllm-gemma4-native-call-in-content.sse", piece),
      );
      expect(result.content).toBe("I will patch it now.");
      expect(result.calls).toMatchObject([
        {
          name: "patch",
          arguments: '{"content": "print(\'hi\')", "mode": "overwrite", "path": "/tmp/a.py"}',
        },
      ]);
      expect(result.finish).toBe("tool_calls");
    }
  });

  it("repairs a streamed Responses API result: one delta per call, done events and the final response agree", async () => {
    expect(await responsesStreamCalls(client(proxy.baseURL), "responses-stream.sse")).toEqual(
      repairedResponsesStream,
    );
  });

  it("forwards each content frame as it arrives, before the upstream sends the next", async () => {
    // The upstream sends one frame, then waits until the client has seen it: a proxy that held content back
    // would never let the stream go on.
    const seen: Array<() => void> = [];
    const frame = (delta: object, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;
    const gated = await startUpstream(async (_request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      for (const word of ["one ", "two ", "three"]) {
        // In the same write as the word, the start of a tool call that the proxy holds back until it is whole:
        // the word must not wait with it.
        const call =
          word === "two "
            ? frame({
                tool_calls: [
                  { index: 0, id: "t", type: "function", function: { name: "f", arguments: '{"a":' } },
                ],
              })
            : word === "three"
              ? frame({ tool_calls: [{ index: 0, function: { arguments: "1}" } }] })
              : "";
        response.write(frame({ content: word }) + call);
        // Had the proxy held the word back, this wait would end at the test's timeout.
        await new Promise<void>((resolve) => {
          seen.push(resolve);
        });
      }
      response.end(`${frame({}, "stop")}data: [DONE]\n\n`);
    });
    const via = await startProxy({ upstream: gated.url });
    try {
      let content = "";
      for await (const chunk of await client(via.baseURL).chat.completions.create({
        model: "m",
        messages: ask,
        stream: true,
      })) {
        const text = chunk.choices[0]?.delta.content;
        if (text) {
          content += text;
          seen.shift()?.();
        }
      }
      expect(content).toBe("one two three");
      expect(via.logs.find((l) => l.route === "chat.completions")).toMatchObject({
        status: 200,
        stream: true,
      });
    } finally {
      await via.close();
      await gated.close();
    }
  });
});
