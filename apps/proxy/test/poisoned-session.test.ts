import { coreRepairs } from "@toolcall/core";
import { chatMessagesToResponsesInput, sanitizeChatMessages } from "@toolcall/openai";
import OpenAI, { BadRequestError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { poisonedSession } from "../../../packages/openai/test/poisoned-session.js";
import { strictProvider } from "../../../packages/openai/test/strict-provider.js";
import { type RunningProxy, startProxy } from "./start-proxy.js";
import { type FakeUpstream, startUpstream } from "./upstream.js";

let strict: FakeUpstream;
let proxy: RunningProxy;

beforeAll(async () => {
  // The strict provider the openai package's tests judge it with: 400 for any stored call whose arguments are not
  // a JSON object, and for broken call/result pairing.
  strict = await startUpstream((request, response) =>
    strictProvider({ method: request.method, url: request.url, body: request.json }, response),
  );
  proxy = await startProxy({ upstream: strict.url });
});
afterAll(async () => {
  await proxy.close();
  await strict.close();
});

const client = (baseURL: string) => new OpenAI({ baseURL, apiKey: "test-key", maxRetries: 0 });

describe("a poisoned 20-turn session against a strict upstream", () => {
  it("fails directly and succeeds through the proxy (Chat Completions)", async () => {
    const messages = poisonedSession();
    await expect(
      client(`${strict.url}/v1`).chat.completions.create({ model: "strict", messages }),
    ).rejects.toBeInstanceOf(BadRequestError);
    const completion = await client(proxy.baseURL).chat.completions.create({ model: "strict", messages });
    expect(completion.choices[0]?.message.content).toBe("Accepted.");
    const line = proxy.logs.find((l) => l.route === "chat.completions" && l.status === 200);
    expect(line?.repairs).toBeUndefined();
    expect(Object.keys(line?.history as object).sort()).toEqual([
      "arguments_canonicalized",
      "arguments_raw_preserved",
      "call_split",
      "result_dropped_orphan",
      "result_synthesized",
    ]);
  });

  it("fails directly and succeeds through the proxy (Responses API)", async () => {
    const { input } = chatMessagesToResponsesInput(poisonedSession());
    await expect(
      client(`${strict.url}/v1`).responses.create({ model: "strict", input }),
    ).rejects.toBeInstanceOf(BadRequestError);
    const response = await client(proxy.baseURL).responses.create({ model: "strict", input });
    expect(response.output_text).toBe("Accepted.");
  });

  it("sends a clean history byte for byte", async () => {
    const body = JSON.stringify({
      model: "strict",
      messages: [
        { role: "user", content: "Weather?" },
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "a", type: "function", function: { name: "w", arguments: '{"city":  "Paris"}' } },
          ],
        },
        { role: "tool", tool_call_id: "a", content: "sunny" },
      ],
    });
    const response = await fetch(`${proxy.baseURL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    });
    expect(response.status).toBe(200);
    expect(strict.requests.at(-1)?.body).toBe(body);
  });

  it("sanitizes with the history policy and missing-result choice it was started with", async () => {
    const dropping = await startProxy({
      upstream: strict.url,
      historyPolicy: "drop",
      missingResult: "drop-call",
    });
    try {
      const messages = poisonedSession();
      const completion = await client(dropping.baseURL).chat.completions.create({
        model: "strict",
        messages,
      });
      expect(completion.choices[0]?.message.content).toBe("Accepted.");
      const sent = JSON.parse(strict.requests.at(-1)?.body as string).messages;
      const sanitize = { policy: "drop", missingResult: "drop-call" } as const;
      expect(sent).toEqual(sanitizeChatMessages(messages, { repairs: coreRepairs, sanitize }).messages);
      // Not what the defaults (preserve, synthesize) send: the options reached the sanitizer.
      expect(sent).not.toEqual(sanitizeChatMessages(messages, { repairs: coreRepairs }).messages);
    } finally {
      await dropping.close();
    }
  });
});
