import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { WILD_ARGUMENTS } from "@toolcall/conformance";
import { expectConversationFormat, expectFormatLossless } from "@toolcall/conformance/vitest";
import { createRecordEngine, sanitizeHistory } from "@toolcall/core";
import { createFormatRegistry } from "@toolcall/core/kit";
import { openaiFormats } from "@toolcall/openai";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  cohereChatFormat,
  cohereFormats,
  sanitizeCohereChat,
  TEXT_BESIDE_CALLS,
  validateCohereChat,
} from "../src/index.js";

type Message = Record<string, unknown> & { role: string };
type Request = { messages: Message[] } & Record<string, unknown>;

const fixtures = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const lines = readFileSync(join(fixtures, "cohere-requests.jsonl"), "utf8")
  .split("\n")
  .filter((line) => line.trim() !== "");
const requests = () => lines.map((line) => JSON.parse(line) as Request);
const engine = createRecordEngine();

describe("Cohere v2 Chat, on recorded requests Cohere answered 200 (command-a-03-2025, command-r)", () => {
  it("are detected ahead of OpenAI Chat, read with every tool message paired, and clean for core and Cohere's profile", () => {
    const registry = createFormatRegistry([...openaiFormats, ...cohereFormats]);
    for (const request of requests()) {
      expect(registry.detect(request, "record")).toMatchObject({
        certainty: "certain",
        format: { id: "cohere-chat" },
      });
      const messages = cohereChatFormat.read(request).conversations[0]?.messages ?? [];
      const calls = messages.flatMap((m) => (m.tool_calls ?? []) as Array<{ id: string }>).map((c) => c.id);
      const results = messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id);
      expect(calls.length).toBeGreaterThan(0);
      expect(results).toEqual(calls);
      expect(engine.check(cohereChatFormat, request).issues).toEqual([]);
      expect(validateCohereChat(request).issues).toEqual([]);
      expect(sanitizeCohereChat(request).value).toBeUndefined();
    }
    // The same messages without anything of Cohere's are OpenAI Chat.
    const plain = { messages: [{ role: "user", content: "hi" }] };
    expect(registry.detect(plain, "record")?.format.id).toBe("openai-chat");
  });

  it("read then write with no change gives the same record (the same object, so the same bytes)", () => {
    for (const [i, request] of requests().entries()) {
      const reading = cohereChatFormat.read(request);
      const written = reading.write([[...(reading.conversations[0]?.messages ?? [])]]);
      expect(written.ok && written.value).toBe(request);
      expect(JSON.stringify(written.ok ? written.value : undefined)).toBe(
        JSON.stringify(JSON.parse(lines[i] ?? "")),
      );
    }
  });

  it("keeps its promises as a conversation format (the conformance suite's round trip, sanitized)", () => {
    for (const request of requests())
      expectConversationFormat(cohereChatFormat, request, { sanitize: sanitizeHistory });
  });

  it("keeps what it reads; a repair loses nothing it does not name, wild arguments too (the format-author check)", () => {
    for (const request of requests())
      expectFormatLossless(cohereChatFormat, request, { repair: engine.repair });
    for (const text of WILD_ARGUMENTS) {
      const request = requests()[0] as Request;
      for (const message of request.messages)
        for (const call of (message as { tool_calls?: Array<{ function: { arguments: unknown } }> })
          .tool_calls ?? [])
          call.function.arguments = text;
      expectFormatLossless(cohereChatFormat, request, { repair: engine.repair });
    }
  });

  it("a call whose tool message was stripped is refused in Cohere's words, and answered with tool_plan kept", () => {
    const request = requests()[0] as Request;
    const last = request.messages.length - 1;
    expect(request.messages[last]?.role).toBe("tool");
    request.messages.splice(last, 1, { role: "user", content: "and then?" });
    const found = validateCohereChat(request).issues;
    expect(found.map((issue) => [issue.code, issue.place])).toContainEqual([
      "tool_result_missing",
      `messages[${last - 1}].tool_calls[0]`,
    ]);
    expect(found.find((issue) => issue.code === "tool_result_missing")?.refusedBy).toEqual(["cohere"]);
    const repaired = sanitizeCohereChat(request);
    expect(repaired.changes.map((change) => change.rule)).toEqual(["result_synthesized"]);
    const written = repaired.value as Request;
    expect(written.messages[last - 1]).toBe(request.messages[last - 1]);
    expect(written.messages[last - 1]?.tool_plan).toBe("I will search for the winner of the Premier League.");
    expect(written.messages[last]).toEqual({
      role: "tool",
      tool_call_id: "web_search_dc3vx28xjsfw",
      content: "[no result was recorded for this tool call]",
    });
    expect(written.model).toBe("command-a-03-2025");
    expect(repaired.remaining).toEqual([]);
  });

  it("text content beside calls is reported in Cohere's words (the text belongs in tool_plan)", () => {
    const request = requests()[2] as Request;
    const assistant = request.messages[1] as Message;
    assistant.content = assistant.tool_plan;
    delete assistant.tool_plan;
    expect(cohereChatFormat.matches(request)).toBe(true);
    const found = validateCohereChat(request).issues.filter((issue) => issue.code === "text_beside_calls");
    expect(found).toEqual([
      expect.objectContaining({
        scope: "record",
        severity: "error",
        place: "messages[1].content",
        message: `cohere 400: ${JSON.stringify(TEXT_BESIDE_CALLS.replace("{place}", "messages[1].content[0]"))}`,
      }),
    ]);
  });

  it("a repaired call's arguments stay JSON text, as Cohere takes them; every other message is the same object", () => {
    const request = requests()[1] as Request;
    const calls = request.messages.flatMap(
      (m) => (m.tool_calls ?? []) as Array<{ function: { arguments: string } }>,
    );
    const call = calls[0] as { function: { arguments: string } };
    const text = call.function.arguments;
    call.function.arguments = text.replace(/"/g, "'");
    const repaired = engine.repair(cohereChatFormat, request);
    expect(repaired.changes.map((change) => change.rule)).toEqual(["arguments_canonicalized"]);
    const written = repaired.value as Request;
    const writtenCall = written.messages.flatMap(
      (m) => (m.tool_calls ?? []) as Array<{ function: { arguments: unknown } }>,
    )[0];
    expect(JSON.parse(writtenCall?.function.arguments as string)).toEqual(JSON.parse(text));
    expect(written.messages[0]).toBe(request.messages[0]);
  });
});

const args = fc.oneof(
  fc
    .dictionary(fc.constantFrom("a", "b"), fc.jsonValue({ maxDepth: 2 }))
    .map((value) => JSON.stringify(value)),
  fc.constantFrom("", "{'a': 1}", "[1]", '```json\n{"a":1}\n```', "{", "null"),
);
const turn = fc
  .tuple(
    fc.array(fc.constantFrom("web_search_1", "f_2", "x"), { minLength: 1, maxLength: 3 }),
    fc.array(args, { minLength: 3, maxLength: 3 }),
    fc.boolean(),
  )
  .map(([ids, texts, answered]) => [
    {
      role: "assistant",
      tool_calls: ids.map((id, k) => ({
        id,
        type: "function",
        function: { name: "f", arguments: texts[k] },
      })),
      tool_plan: "I will call f.",
    },
    ...(answered
      ? ids.map((id) => ({
          role: "tool",
          tool_call_id: id,
          content: [{ type: "document", document: { data: { output: "5" } } }],
        }))
      : [{ role: "user", content: "go on" }]),
  ]);
const request = fc.array(turn, { minLength: 1, maxLength: 3 }).map((turns) => ({
  model: "command-a-03-2025",
  messages: [{ role: "user", content: "go" }, ...turns.flat()],
  stream: false,
}));

describe("properties (any Cohere request)", () => {
  it("read then write with no change gives the same object; a repair never touches its input, and repairing what it wrote changes nothing", () => {
    const cohere = createRecordEngine({ provider: "cohere" });
    let written = 0;
    fc.assert(
      fc.property(request, (value) => {
        const bytes = JSON.stringify(value);
        const reading = cohereChatFormat.read(value);
        const same = reading.write([[...(reading.conversations[0]?.messages ?? [])]]);
        expect(same.ok && same.value).toBe(value);
        for (const repairing of [engine, cohere]) {
          const repaired = repairing.repair(cohereChatFormat, value);
          // Undo is the input: the engine wrote a new record and left every byte of the old one as it was.
          expect(JSON.stringify(value)).toBe(bytes);
          if (repaired.value === undefined) continue;
          written++;
          expect(cohereChatFormat.matches(repaired.value)).toBe(true);
          expect(repairing.repair(cohereChatFormat, repaired.value).changes).toEqual([]);
        }
      }),
      { numRuns: 300 },
    );
    expect(written).toBeGreaterThan(100);
  });

  it("never throws (any value)", () => {
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const reading = cohereChatFormat.read(value);
        expect(typeof reading.write(reading.conversations.map((c) => [...c.messages])).ok).toBe("boolean");
        cohereChatFormat.matches(value);
        sanitizeCohereChat(value);
        validateCohereChat(value);
      }),
      { numRuns: 500 },
    );
  });
});
