import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { validateHistory } from "@toolcall/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bedrockConverseFormat, sanitizeBedrockConverse, TOOL_CONFIG_MISSING } from "../src/index.js";
import { type FakeBedrock, startFakeBedrock } from "./fake-bedrock.js";

// Real HTTP to a loopback Bedrock: each poisoned request is refused with a text core predicted for the
// bedrock-converse profile, and the body sanitizeBedrockConverse writes back is accepted.

type Request = { messages: Array<{ role: string; content: Array<Record<string, unknown>> }> } & Record<
  string,
  unknown
>;
const fixtures = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const requests = () =>
  readFileSync(join(fixtures, "converse-requests.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Request);

let fake: FakeBedrock;
beforeAll(async () => {
  fake = await startFakeBedrock();
});
afterAll(async () => {
  await fake.close();
});

async function send(body: unknown): Promise<{ status: number; message?: string }> {
  const response = await fetch(`${fake.url}/model/us.amazon.nova-micro-v1:0/converse`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { message?: string };
  return { status: response.status, ...(answer.message === undefined ? {} : { message: answer.message }) };
}

/** Every text core predicts Bedrock answers this body with. */
function predicted(body: Request): string[] {
  const messages = bedrockConverseFormat.read(body).conversations[0]?.messages ?? [];
  const texts = validateHistory(messages, { provider: "bedrock-converse" }).map((issue) => issue.message);
  return body.toolConfig === undefined ? [TOOL_CONFIG_MISSING, ...texts] : texts;
}

const poisons: Array<[string, (request: Request) => void]> = [
  ["a blank text block beside the toolUse", (r) => r.messages[1]?.content.splice(0, 1, { text: "  " })],
  [
    "a toolUseId with a slash, in the call and its result",
    (r) => {
      (r.messages[1]?.content[1]?.toolUse as Record<string, unknown>).toolUseId = "tooluse/1";
      (r.messages[2]?.content[0]?.toolResult as Record<string, unknown>).toolUseId = "tooluse/1";
    },
  ],
  [
    "an input kept as Python-literal text",
    (r) => {
      (r.messages[1]?.content[1]?.toolUse as Record<string, unknown>).input = "{'country': 'France'}";
    },
  ],
  ["a toolResult that was lost", (r) => r.messages[2]?.content.splice(0, 1, { text: "go on" })],
  ["tool blocks without toolConfig", (r) => delete r.toolConfig],
];

describe("a loopback Bedrock, reached over HTTP", () => {
  it("accepts the recorded request as it is", async () => {
    expect(await send(requests()[1])).toEqual({ status: 200 });
  });

  it.each(poisons)("%s: refused in words core predicted; accepted once sanitized", async (_, poison) => {
    const request = requests()[1] as Request;
    poison(request);
    const refused = await send(request);
    expect(refused.status).toBe(400);
    expect(predicted(request)).toContain(refused.message);
    const repaired = sanitizeBedrockConverse(request);
    if (request.toolConfig === undefined) {
      // The request's own key: reported in Bedrock's words, not invented by a repair.
      expect(repaired.remaining.map((issue) => issue.code)).toContain("tool_config_missing");
      return;
    }
    expect(repaired.value).toBeDefined();
    expect(await send(repaired.value)).toEqual({ status: 200 });
    expect(predicted(repaired.value as Request)).toEqual([]);
  });
});
