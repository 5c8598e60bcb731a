import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ProviderId, sanitizeHistory, validateHistory } from "../src/index.js";
import { anthropicMessage, checkAnthropic } from "./fake-providers/anthropic-fake.js";
import { checkDeepseek } from "./fake-providers/deepseek-fake.js";
import { chatCompletion, type FakeProvider, startFakeProvider } from "./fake-providers/fake-server.js";
import { checkMistral } from "./fake-providers/mistral-fake.js";
import { poisonedSession } from "./fake-providers/poisoned-session.js";
import { toAnthropic } from "./fake-providers/to-anthropic.js";

// Three strict providers with different rules, each a loopback server answering as the provider does, reached
// through the real SDKs. The poisoned session is refused raw, with one of the texts core predicts for that
// provider, and accepted once `sanitizeHistory({ provider })` made it one that provider takes.

type Sender = (messages: Array<Record<string, unknown>>) => Promise<unknown>;

const fakes: Record<string, FakeProvider> = {};
const senders: Record<string, Sender> = {};

beforeAll(async () => {
  const accept = (body: unknown) => chatCompletion((body as { model?: unknown }).model);
  fakes.mistral = await startFakeProvider({ check: checkMistral, accept });
  fakes.deepseek = await startFakeProvider({ check: checkDeepseek, accept });
  fakes.anthropic = await startFakeProvider({
    check: checkAnthropic,
    accept: (body) => anthropicMessage((body as { model?: unknown }).model),
  });
  const openai = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: "test-key", maxRetries: 0 });
  const mistral = openai(fakes.mistral.url);
  const deepseek = openai(fakes.deepseek.url);
  const anthropic = new Anthropic({ baseURL: fakes.anthropic.url, apiKey: "test-key", maxRetries: 0 });
  senders.mistral = (messages) =>
    mistral.chat.completions.create({ model: "devstral-medium-2512", messages: messages as never });
  senders["deepseek-v4-thinking"] = (messages) =>
    deepseek.chat.completions.create({ model: "deepseek-v4-pro", messages: messages as never });
  senders.anthropic = (messages) => {
    const { system, messages: converted } = toAnthropic(messages);
    return anthropic.messages.create({
      model: "claude-opus-4-8",
      max_tokens: 64,
      system,
      messages: converted,
    });
  };
});

afterAll(async () => {
  await Promise.all(Object.values(fakes).map((fake) => fake.close()));
});

const cases: Array<{ provider: ProviderId; fake: string }> = [
  { provider: "mistral", fake: "mistral" },
  { provider: "deepseek-v4-thinking", fake: "deepseek" },
  { provider: "anthropic", fake: "anthropic" },
];

describe.each(cases)("a strict $provider", ({ provider, fake }) => {
  it("refuses the poisoned 20-turn session, in words core predicted", async () => {
    const session = poisonedSession();
    expect(session.filter((m) => m.role === "user")).toHaveLength(22);
    const server = fakes[fake] as FakeProvider;
    const send = senders[provider] as Sender;
    const before = server.exchanges.length;
    const error = await send(session).then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(provider === "anthropic" ? Anthropic.APIError : OpenAI.APIError);
    expect((error as { status?: number }).status).toBe(400);
    const answered = server.exchanges[before];
    expect(answered?.status).toBe(400);
    const predicted = validateHistory(session, { provider });
    expect(predicted.length).toBeGreaterThan(0);
    // The fake's literal body is the one core's issue carries.
    expect(predicted.map((issue) => issue.body)).toContainEqual(answered?.response);
  });

  it("accepts it after sanitizeHistory({ provider }), with every change recorded", async () => {
    const session = poisonedSession();
    const frozen = structuredClone(session);
    const { messages, changes } = sanitizeHistory(session, { provider });
    expect(session).toEqual(frozen);
    expect(validateHistory(messages, { provider })).toEqual([]);
    const server = fakes[fake] as FakeProvider;
    const before = server.exchanges.length;
    const answer = await (senders[provider] as Sender)(messages as Array<Record<string, unknown>>);
    expect(server.exchanges[before]?.status).toBe(200);
    expect(answer).toBeTruthy();
    expect(changes.length).toBeGreaterThan(10);
    for (const change of changes) expect(change.messageIndex).toBeLessThan(session.length);
  });
});

describe("the changes that made the session acceptable", () => {
  it("keep what the model emitted: Mistral's ids map back, each call still there", () => {
    const session = poisonedSession();
    const { messages, changes } = sanitizeHistory(session, { provider: "mistral" });
    const calls = (list: readonly unknown[]) =>
      list.flatMap(
        (m) => ((m as { tool_calls?: Array<{ id: string }> }).tool_calls ?? []) as Array<{ id: string }>,
      );
    // Every call is still there; a call that held two merged is two calls now.
    const splits = changes.filter((c) => c.rule === "call_split");
    const added = splits.reduce((sum, c) => sum + (c.after as unknown[]).length - 1, 0);
    expect(splits.length).toBeGreaterThan(0);
    expect(calls(messages)).toHaveLength(calls(session).length + added);
    const remapped = changes.filter((c) => c.rule === "call_id_remapped");
    expect(remapped.length).toBeGreaterThan(0);
    for (const change of remapped) {
      expect(change.after).toMatch(/^[a-zA-Z0-9]{9}$/);
      expect(typeof change.before).toBe("string");
    }
    const bridges = changes.filter((c) => c.rule === "message_inserted");
    expect(bridges.length).toBeGreaterThan(0);
  });

  it("keep reasoning: DeepSeek's missing reasoning is filled, never dropped", () => {
    const session = poisonedSession();
    const { messages, changes } = sanitizeHistory(session, { provider: "deepseek-v4-thinking" });
    const kept = messages.filter(
      (m) =>
        typeof (m as { reasoning_content?: unknown }).reasoning_content === "string" &&
        (m as { reasoning_content: string }).reasoning_content !== "",
    );
    expect(kept).toHaveLength(session.filter((m) => typeof m.reasoning_content === "string").length);
    expect(changes.some((c) => c.rule === "reasoning_filled")).toBe(true);
  });
});
