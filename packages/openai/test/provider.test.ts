import OpenAI from "openai";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkDeepseek } from "../../core/test/fake-providers/deepseek-fake.js";
import { type FakeProvider, startChatFake } from "../../core/test/fake-providers/fake-server.js";
import { checkMistral } from "../../core/test/fake-providers/mistral-fake.js";
import { poisonedSession } from "../../core/test/fake-providers/poisoned-session.js";
import {
  guardOpenAI,
  type RepairReport,
  sanitizeChatMessages,
  sanitizeResponsesInput,
} from "../src/index.js";

// The `provider` option: requests are sanitized for that provider. Strict fakes of Mistral and DeepSeek V4 (loopback
// servers answering with the providers' literal bodies) take the poisoned session only from the guarded client.

let mistral: FakeProvider;
let deepseek: FakeProvider;

beforeAll(async () => {
  mistral = await startChatFake(checkMistral);
  deepseek = await startChatFake(checkDeepseek);
});
afterAll(async () => {
  await Promise.all([mistral.close(), deepseek.close()]);
});

const client = (fake: FakeProvider) =>
  new OpenAI({ baseURL: `${fake.url}/v1`, apiKey: "test-key", maxRetries: 0 });

describe("guardOpenAI({ provider })", () => {
  it("sends Mistral a history it accepts, and reports what it changed", async () => {
    const session = poisonedSession() as never;
    await expect(
      client(mistral).chat.completions.create({ model: "devstral-medium-2512", messages: session }),
    ).rejects.toMatchObject({ status: 400 });
    const reports: RepairReport[] = [];
    const guarded = guardOpenAI(client(mistral), { provider: "mistral", onRepair: (r) => reports.push(r) });
    const answer = await guarded.chat.completions.create({
      model: "devstral-medium-2512",
      messages: session,
    });
    expect(answer.choices[0]?.message.content).toBe("Accepted.");
    const rules = reports.map((r) => (r.kind === "history" ? r.change.rule : r.kind));
    expect(rules).toContain("call_id_remapped");
    expect(rules).toContain("message_inserted");
    const sent = mistral.exchanges.at(-1)?.request as {
      messages: Array<{ tool_calls?: Array<{ id: string }> }>;
    };
    for (const call of sent.messages.flatMap((m) => m.tool_calls ?? []))
      expect(call.id).toMatch(/^[a-zA-Z0-9]{9}$/);
  });

  it("without a provider, sends what R4 gives, which DeepSeek V4 still refuses", async () => {
    const session = poisonedSession() as never;
    const guarded = guardOpenAI(client(deepseek));
    await expect(
      guarded.chat.completions.create({ model: "deepseek-v4-pro", messages: session }),
    ).rejects.toMatchObject({
      status: 400,
    });
    expect(deepseek.exchanges.at(-1)?.response).toMatchObject({
      error: { message: "The `reasoning_content` in the thinking mode must be passed back to the API." },
    });
    const { messages } = sanitizeChatMessages(session, { provider: "deepseek-v4-thinking" });
    await expect(
      client(deepseek).chat.completions.create({ model: "deepseek-v4-pro", messages }),
    ).resolves.toMatchObject({ object: "chat.completion" });
  });
});

describe("sanitizeResponsesInput({ provider: 'openai-responses' })", () => {
  const call = (id: string | undefined): ResponseInputItem =>
    ({
      type: "function_call",
      ...(id === undefined ? {} : { id }),
      call_id: "call_1",
      name: "read_file",
      arguments: '{"path":"a.txt"}',
    }) as ResponseInputItem;
  const output: ResponseInputItem = { type: "function_call_output", call_id: "call_1", output: "hello" };
  const user: ResponseInputItem = { role: "user", content: "Read a.txt." };

  it("leaves out a stored call's item id when its reasoning item is not sent", () => {
    const input = [user, call("fc_07b2c1"), output];
    const { input: sent, changes } = sanitizeResponsesInput(input, { provider: "openai-responses" });
    expect(sent).toEqual([user, call(undefined), output]);
    expect(changes).toMatchObject([
      { rule: "item_id_removed", messageIndex: 1, toolCallId: "call_1", before: "fc_07b2c1" },
    ]);
    expect(input[1]).toEqual(call("fc_07b2c1"));
  });

  it("keeps it when the reasoning item comes with it, and the same array when nothing changes", () => {
    const reasoning = { type: "reasoning", id: "rs_07b2c1", summary: [] } as ResponseInputItem;
    const input = [user, reasoning, call("fc_07b2c1"), output];
    const result = sanitizeResponsesInput(input, { provider: "openai-responses" });
    expect(result.input).toBe(input);
    expect(result.changes).toEqual([]);
  });

  it("drops an output that answers no call, with the provider's rules as without", () => {
    const input = [user, output];
    const { input: sent, changes } = sanitizeResponsesInput(input, { provider: "openai-responses" });
    expect(sent).toEqual([user]);
    expect(changes.map((c) => c.rule)).toEqual(["result_dropped_orphan"]);
  });
});
