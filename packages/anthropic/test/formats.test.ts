import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { WILD_ARGUMENTS } from "@toolcall/conformance";
import { expectConversationFormat, expectFormatLossless } from "@toolcall/conformance/vitest";
import {
  coreRepairs,
  createRecordEngine,
  type SanitizeOptions,
  sanitizeHistory,
  validateHistory,
} from "@toolcall/core";
import type { ConversationFormat, FormatIssue } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anthropicFormats, anthropicMessagesFormat, claudeCodeFormat } from "../src/index.js";

// The conversation-format contract (@toolcall/conformance) on one record, sanitized by core.
const checkRoundTrip = (
  format: ConversationFormat,
  value: unknown,
  options: SanitizeOptions = { repairs: coreRepairs },
) => expectConversationFormat(format, value, { sanitize: sanitizeHistory, options });
const asData = (value: unknown): unknown => JSON.parse(JSON.stringify(value)); // as a file holds it

const fixtures = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const jsonl = (name: string): unknown[] =>
  readFileSync(join(fixtures, name), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));

function found(format: typeof anthropicMessagesFormat, value: unknown, severity = "error"): string[] {
  const reading = format.read(value);
  return [
    ...reading.issues.filter((i: FormatIssue) => i.severity === severity).map((i) => i.code),
    ...reading.conversations.flatMap((c) =>
      validateHistory(c.messages, {
        ...(c.tools ? { tools: c.tools } : {}),
        finishReason: c.finishReason ?? null,
        pendingCalls: "pending",
        repairs: coreRepairs,
      })
        .filter((i) => i.severity === severity)
        .map((i) => i.code),
    ),
  ];
}

describe("the format-author lossless check (@toolcall/conformance) on every real file", () => {
  const engine = createRecordEngine();
  it.each(["messages-requests.jsonl", "messages-responses.jsonl"])(
    "%s, each record, and its tool inputs as wild text",
    (name) => {
      for (const value of jsonl(name)) {
        expectFormatLossless(anthropicMessagesFormat, value, { repair: engine.repair });
        for (const text of WILD_ARGUMENTS) {
          const wild = JSON.parse(JSON.stringify(value), (key, item) => (key === "input" ? text : item));
          expectFormatLossless(anthropicMessagesFormat, wild, { repair: engine.repair });
        }
      }
    },
  );
  it.each(["claude-code-session.jsonl", "claude-code-representative.jsonl", "claude-code-edge-cases.jsonl"])(
    "%s, a session",
    (name) => {
      // claude-code-edge-cases.jsonl holds a line whose `content` key is misspelled: once lost by every rewrite.
      expectFormatLossless(claudeCodeFormat, jsonl(name), { repair: engine.repair });
    },
  );

  it("a message without content is kept when another is repaired (it was dropped with the rewrite)", () => {
    const request = {
      model: "claude-sonnet-4",
      max_tokens: 100,
      messages: [
        { role: "user", contenst: "misspelled" },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: '{"a": 1,}' }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] },
      ],
    };
    const repaired = expectFormatLossless(anthropicMessagesFormat, request, { repair: engine.repair });
    const written = repaired.value as typeof request;
    expect(written.messages).toHaveLength(3);
    expect(written.messages[0]).toBe(request.messages[0]);
    expect(repaired.changes.length).toBeGreaterThan(0);
    expect(written.messages[1]).not.toBe(request.messages[1]);
  });
});

describe("recorded Anthropic traffic", () => {
  it("request bodies: detected, read whole, written back untouched; the only errors are calls to a tool found by search", () => {
    const requests = jsonl("messages-requests.jsonl");
    expect(requests).toHaveLength(75);
    const errors: string[] = [];
    for (const request of requests) {
      expect(anthropicFormats.find((f) => f.unit === "record" && f.matches(request))).toBe(
        anthropicMessagesFormat,
      );
      errors.push(...found(anthropicMessagesFormat, request));
      expect(checkRoundTrip(anthropicMessagesFormat, request).changes).toBe(0);
    }
    // pydantic-ai's tool search: the model calls search_tools, which the request's tools list does not hold; the API
    // answered 200 each time. A rule knows this call as unknown_tool; no provider is known to refuse it in a history.
    expect(new Set(errors)).toEqual(new Set(["unknown_tool"]));
  });

  it("responses: answers whose tool_use blocks await their results (pending, never missing)", () => {
    let pending = 0;
    for (const response of jsonl("messages-responses.jsonl")) {
      expect(anthropicMessagesFormat.matches(response)).toBe(true);
      expect(found(anthropicMessagesFormat, response)).toEqual([]);
      pending += found(anthropicMessagesFormat, response, "warning").filter(
        (c) => c === "tool_result_pending",
      ).length;
      expect(checkRoundTrip(anthropicMessagesFormat, response).changes).toBe(0);
    }
    expect(pending).toBeGreaterThan(20);
  });

  it("Claude Code transcripts: detected, calls paired with their results across lines, nothing to repair", () => {
    for (const name of ["claude-code-session.jsonl", "claude-code-representative.jsonl"]) {
      const lines = jsonl(name);
      expect(anthropicFormats.find((f) => f.unit === "session" && f.matches(lines))).toBe(claudeCodeFormat);
      const reading = claudeCodeFormat.read(lines);
      expect(reading.issues).toEqual([]);
      expect(validateHistory(reading.conversations[0]?.messages ?? [])).toEqual([]);
      expect(checkRoundTrip(claudeCodeFormat, lines).changes).toBe(0);
    }
  });

  it("a transcript's broken lines are found: a misspelled content key, a block that is a string, the calls they leave unanswered", () => {
    const lines = jsonl("claude-code-edge-cases.jsonl");
    const reading = claudeCodeFormat.read(lines);
    expect(reading.issues.map((i) => [i.code, i.place])).toEqual([
      ["block_invalid", "record 18 (message.content[0])"],
    ]);
    const conversation = reading.conversations[0];
    const issues = validateHistory(conversation?.messages ?? []).map(
      (i) => `${i.code} @ ${conversation?.placeOf?.(i.path)}`,
    );
    expect(issues).toEqual([
      "content_missing @ record 10 (message)",
      "tool_result_missing @ record 9 (message.content[1])",
      "tool_result_missing @ record 17 (message.content[0])",
    ]);
  });
});

const request = (messages: unknown[]) => ({
  model: "claude-sonnet-4-5",
  max_tokens: 1024,
  tools: [
    { name: "get_weather", input_schema: { type: "object", properties: { city: { type: "string" } } } },
  ],
  messages,
});
const toolUse = (id: string, input: unknown) => ({ type: "tool_use", id, name: "get_weather", input });
const toolResult = (id: string, content: unknown = "sunny") => ({
  type: "tool_result",
  tool_use_id: id,
  content,
});

describe("repairs written back as blocks", () => {
  it("a string input (what AI SDK replays for a call that failed to parse) becomes an object; nothing else moves", () => {
    const messages = [
      { role: "user", content: "weather?" },
      {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "…", signature: "sig" },
          toolUse("toolu_1", '{"city": "Paris"}'),
        ],
      },
      { role: "user", content: [toolResult("toolu_1")], cache: "kept" },
    ];
    expect(found(anthropicMessagesFormat, request(messages))).toEqual(["arguments_not_object"]);
    const { value, changes } = checkRoundTrip(anthropicMessagesFormat, request(messages));
    expect(changes).toBe(1);
    const out = value as { messages: Array<{ content: unknown[] }> };
    expect(out.messages[0]).toBe(messages[0]);
    expect(out.messages[2]).toBe(messages[2]);
    expect(out.messages[1]?.content[0]).toBe((messages[1] as { content: unknown[] }).content[0]);
    expect(asData(out.messages[1]?.content[1])).toEqual(toolUse("toolu_1", { city: "Paris" }));
  });

  it("a missing tool_result is synthesized first in the next user message, before its text", () => {
    const messages = [
      { role: "user", content: "weather in two cities?" },
      {
        role: "assistant",
        content: [toolUse("toolu_1", { city: "Paris" }), toolUse("toolu_2", { city: "Rome" })],
      },
      { role: "user", content: [toolResult("toolu_1"), { type: "text", text: "and hurry" }] },
      { role: "assistant", content: [{ type: "text", text: "Sunny in Paris." }] },
    ];
    expect(found(anthropicMessagesFormat, messages)).toEqual(["tool_result_missing"]);
    const { value } = checkRoundTrip(anthropicMessagesFormat, messages);
    const out = asData(value) as Array<{ content: Array<{ type: string; tool_use_id?: string }> }>;
    expect(out[2]?.content.map((b) => `${b.type}:${b.tool_use_id ?? ""}`)).toEqual([
      "tool_result:toolu_1",
      "tool_result:toolu_2",
      "text:",
    ]);
  });

  it("an orphan tool_result is dropped; a user message left without blocks goes with it", () => {
    const messages = [
      { role: "user", content: [toolResult("toolu_gone")] },
      { role: "user", content: "hello" },
    ];
    const { value } = checkRoundTrip(anthropicMessagesFormat, messages);
    expect(value).toEqual([messages[1]]);
  });

  it("Claude Code: a call dropped with its result removes the result's line and relinks the next line to its parent", () => {
    const line = (uuid: string, parentUuid: string | null, type: string, message: unknown) => ({
      parentUuid,
      isSidechain: false,
      sessionId: "s",
      type,
      message,
      uuid,
      timestamp: "2026-01-01T00:00:00Z",
    });
    const lines = [
      line("u1", null, "user", { role: "user", content: "go" }),
      line("a1", "u1", "assistant", {
        id: "msg_1",
        role: "assistant",
        content: [{ type: "text", text: "ok" }],
      }),
      line("a2", "a1", "assistant", {
        id: "msg_1",
        role: "assistant",
        content: [toolUse("toolu_1", "not an object")],
      }),
      line("u2", "a2", "user", { role: "user", content: [toolResult("toolu_1")] }),
      line("a3", "u2", "assistant", {
        id: "msg_2",
        role: "assistant",
        content: [{ type: "text", text: "done" }],
      }),
    ];
    const { value } = checkRoundTrip(claudeCodeFormat, lines, { repairs: coreRepairs, policy: "drop" });
    const out = value as Array<{ uuid: string; parentUuid: string | null }>;
    expect(out.map((l) => `${l.uuid}<-${l.parentUuid}`)).toEqual(["u1<-null", "a1<-u1", "a3<-a1"]);
    expect(out[0]).toBe(lines[0]);
    expect(out[1]).toBe(lines[1]);
  });

  it("Claude Code saved while a tool ran: pending by default; synthesized into a new last line when asked", () => {
    const lines = [
      {
        type: "user",
        uuid: "u1",
        parentUuid: null,
        sessionId: "s",
        message: { role: "user", content: "go" },
      },
      {
        type: "assistant",
        uuid: "a1",
        parentUuid: "u1",
        sessionId: "s",
        message: { id: "m", role: "assistant", content: [toolUse("toolu_1", {})] },
      },
    ];
    expect(checkRoundTrip(claudeCodeFormat, lines, { pendingCalls: "keep" }).changes).toBe(0);
    const { value } = checkRoundTrip(claudeCodeFormat, lines, { pendingCalls: "synthesize" });
    const out = value as Array<Record<string, unknown>>;
    expect(out).toHaveLength(3);
    expect(out[2]).toMatchObject({ type: "user", parentUuid: "a1", sessionId: "s" });
  });
});

describe("generated message lists", () => {
  it("read, repair, write and read again give the repaired history; untouched lists stay the same object", () => {
    const ids = fc.constantFrom("toolu_1", "toolu_2", "toolu_3");
    const input = fc.oneof(
      fc.constant({ city: "Paris" }),
      fc.constant({}),
      fc.constant('{"city": "Paris"}'),
      fc.constant("{oops"),
      fc.constant([1, 2]),
      fc.constant(null),
    );
    const assistant = fc.record({
      role: fc.constant("assistant"),
      content: fc.array(
        fc.oneof(
          fc.record({ type: fc.constant("text"), text: fc.constantFrom("ok", "let me check") }),
          fc.record({ type: fc.constant("tool_use"), id: ids, name: fc.constant("get_weather"), input }),
          fc.record({
            type: fc.constant("thinking"),
            thinking: fc.constant("hm"),
            signature: fc.constant("s"),
          }),
        ),
        { minLength: 1, maxLength: 3 },
      ),
    });
    const user = fc.record({
      role: fc.constant("user"),
      content: fc.oneof(
        fc.constant("hi"),
        fc.array(
          fc.oneof(
            fc.record({
              type: fc.constant("tool_result"),
              tool_use_id: ids,
              content: fc.constantFrom("ok", ""),
            }),
            fc.record({ type: fc.constant("text"), text: fc.constant("more") }),
          ),
          { minLength: 1, maxLength: 3 },
        ),
      ),
    });
    fc.assert(
      fc.property(
        fc.array(fc.oneof(assistant, user), { minLength: 1, maxLength: 6 }),
        fc.constantFrom("preserve", "drop", "empty"),
        fc.constantFrom("synthesize", "drop-call"),
        (messages, policy, missingResult) => {
          const hasBlocks = messages.some(
            (m) => Array.isArray(m.content) && m.content.some((b) => b.type !== "text"),
          );
          fc.pre(hasBlocks);
          checkRoundTrip(anthropicMessagesFormat, messages, {
            repairs: coreRepairs,
            policy: policy as "preserve",
            missingResult: missingResult as "synthesize",
          });
        },
      ),
      { numRuns: 500 },
    );
  });
});
