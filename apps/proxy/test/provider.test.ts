import OpenAI, { APIError } from "openai";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseProxyArgs } from "../src/index.js";
import { type RunningProxy, startProxy } from "./start-proxy.js";
import { type FakeUpstream, startUpstream } from "./upstream.js";

/**
 * A strict fake of Mistral's chat API (La Plateforme, and vLLM serving Mistral models through mistral_common): its
 * own checks, written here from the provider's documented behaviour, answering with the provider's literal 400
 * bodies (../shared/notes/providers.md: opencode #1680, zed #37021).
 */
function mistralRejection(messages: Array<Record<string, unknown>>): object | undefined {
  for (const [i, message] of messages.entries()) {
    const ids: string[] = [];
    for (const call of (message.tool_calls as Array<{ id: string }> | undefined) ?? []) ids.push(call.id);
    if (message.role === "tool") ids.push(message.tool_call_id as string);
    for (const id of ids)
      if (!/^[a-zA-Z0-9]{9}$/.test(id))
        return {
          object: "error",
          message: `Tool call id was ${id} but must be a-z, A-Z, 0-9, with a length of 9.`,
          type: "invalid_function_call",
          param: null,
          code: "3280",
        };
    const previous = messages[i - 1];
    if (message.role === "user" && previous?.role === "tool")
      return {
        object: "error",
        message: "Unexpected role 'user' after role 'tool'",
        type: "invalid_request_message_order",
        param: null,
        code: "3230",
      };
  }
  return undefined;
}

let upstream: FakeUpstream;
let raw: RunningProxy;
let mistral: RunningProxy;

beforeAll(async () => {
  upstream = await startUpstream((request, response) => {
    const body = request.json as { messages: Array<Record<string, unknown>> };
    const rejection = mistralRejection(body.messages);
    if (rejection !== undefined) {
      response.writeHead(400, { "content-type": "application/json" });
      response.end(JSON.stringify(rejection));
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({
        id: "cmpl-1",
        object: "chat.completion",
        created: 1,
        model: "mistral-medium-latest",
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: "Done." },
            finish_reason: "stop",
            logprobs: null,
          },
        ],
      }),
    );
  });
  raw = await startProxy({ upstream: upstream.url });
  const parsed = parseProxyArgs({ argv: ["--upstream", upstream.url, "--provider", "mistral"], env: {} });
  if (!parsed.ok || !("command" in parsed)) throw new Error("expected a command");
  mistral = await startProxy({ ...parsed.command.options, upstream: upstream.url });
});
afterAll(async () => {
  await raw.close();
  await mistral.close();
  await upstream.close();
});

/** A session as an OpenAI-shaped agent stores it: OpenAI's call ids, a user turn right after a tool result. */
function session(turns: number): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [
    { role: "system", content: "You are a helpful assistant." },
  ];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ role: "user", content: `What is the weather in city ${turn}?` });
    const id = `call_PTLP8xhu3uwZk4l3nlnr${String(turn).padStart(4, "0")}`;
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: [
        { id, type: "function", function: { name: "get_weather", arguments: `{"city":"c${turn}"}` } },
      ],
    });
    messages.push({ role: "tool", tool_call_id: id, content: `sunny ${turn}` });
  }
  messages.push({ role: "user", content: "Thanks. And tomorrow?" });
  return messages;
}

const client = (baseURL: string) => new OpenAI({ baseURL, apiKey: "k", maxRetries: 0 });

describe("--provider: histories made acceptable to that provider before forwarding", () => {
  it("without it, the strict provider answers its literal 400 through the SDK", async () => {
    const error = await client(raw.baseURL)
      .chat.completions.create({ model: "mistral-medium-latest", messages: session(20) })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(400);
    expect((error as APIError).message).toContain(
      "Tool call id was call_PTLP8xhu3uwZk4l3nlnr0000 but must be a-z, A-Z, 0-9, with a length of 9.",
    );
  });

  it("with --provider mistral, the 20-turn session is accepted; ids stay paired and every call is kept", async () => {
    const before = upstream.requests.length;
    const completion = await client(mistral.baseURL).chat.completions.create({
      model: "mistral-medium-latest",
      messages: session(20),
    });
    expect(completion.choices[0]?.message.content).toBe("Done.");
    const sent = (
      (upstream.requests[before]?.json ?? { messages: [] }) as { messages: Array<Record<string, unknown>> }
    ).messages;
    expect(mistralRejection(sent)).toBeUndefined();
    const calls = sent.flatMap(
      (m) => (m.tool_calls as Array<{ id: string; function: unknown }> | undefined) ?? [],
    );
    expect(calls.map((c) => c.function)).toEqual(
      session(20).flatMap((m) =>
        m.role === "assistant"
          ? (m.tool_calls ?? []).map((c) => ("function" in c ? c.function : undefined))
          : [],
      ),
    );
    const results = sent.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
    expect(results).toEqual(calls.map((c) => c.id));
    expect(new Set(results).size).toBe(20);
  });

  it("refuses an unknown provider id with the list of known ones", () => {
    expect(parseProxyArgs({ argv: ["--upstream", "http://h", "--provider", "nope"], env: {} })).toMatchObject(
      {
        ok: false,
        error: expect.stringContaining("mistral"),
      },
    );
  });
});
