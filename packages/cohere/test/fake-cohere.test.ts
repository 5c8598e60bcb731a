import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { validateHistory } from "@toolcall/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cohereChatFormat, sanitizeCohereChat, validateCohereChat } from "../src/index.js";
import { type FakeCohere, startFakeCohere } from "./fake-cohere.js";

// Real HTTP to a loopback Cohere: each poisoned request is refused with a text core (or the Cohere format) predicted,
// and the body sanitizeCohereChat writes back is accepted when the refusal is one a repair may fix.

type Message = Record<string, unknown> & { role: string };
type Request = { messages: Message[] } & Record<string, unknown>;
const fixtures = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const requests = () =>
  readFileSync(join(fixtures, "cohere-requests.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Request);

let fake: FakeCohere;
beforeAll(async () => {
  fake = await startFakeCohere();
});
afterAll(async () => {
  await fake.close();
});

async function send(body: unknown): Promise<{ status: number; message?: string }> {
  const response = await fetch(`${fake.url}/v2/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { message?: unknown };
  return {
    status: response.status,
    ...(typeof answer.message === "string" ? { message: answer.message } : {}),
  };
}

/** Every text core's cohere profile and the Cohere format predict for this body. */
function predicted(body: Request): string[] {
  const messages = cohereChatFormat.read(body).conversations[0]?.messages ?? [];
  const profile = validateHistory(messages, { provider: "cohere" }).map((issue) => issue.message);
  const shape = validateCohereChat(body)
    .issues.filter((issue) => issue.scope === "record")
    .map((issue) => JSON.parse(issue.message.slice("cohere 400: ".length)) as string);
  return [...profile, ...shape];
}

describe("a loopback Cohere, reached over HTTP", () => {
  it("accepts each recorded request as it is", async () => {
    for (const request of requests()) expect(await send(request)).toEqual({ status: 200 });
  });

  it("a stripped tool message: refused in Cohere's words, accepted once sanitized", async () => {
    const request = requests()[0] as Request;
    request.messages.splice(request.messages.length - 1, 1, { role: "user", content: "and then?" });
    const refused = await send(request);
    expect(refused.status).toBe(400);
    expect(predicted(request)).toContain(refused.message);
    const repaired = sanitizeCohereChat(request);
    expect(await send(repaired.value)).toEqual({ status: 200 });
    expect(predicted(repaired.value as Request)).toEqual([]);
  });

  it("text beside calls: refused in the words core's cohere profile predicts, accepted once sanitized", async () => {
    const request = requests()[2] as Request;
    const assistant = request.messages[1] as Message;
    assistant.content = assistant.tool_plan;
    delete assistant.tool_plan;
    const refused = await send(request);
    expect(refused.status).toBe(400);
    expect(predicted(request)).toContain(refused.message);
    const repaired = sanitizeCohereChat(request);
    expect(await send(repaired.value)).toEqual({ status: 200 });
    expect(predicted(repaired.value as Request)).toEqual([]);
  });
});
