import { describe, expect, it } from "vitest";
import type { ConversationFormat } from "../conversation-format.js";
import type { ChatMessage } from "../types.js";
import { createRecordEngine } from "./record-engine.js";

/**
 * A format reading `{calls: [{name, args}]}` as one answer of expected calls, with or without results expected (the
 * shape of a benchmark's answer file; the real ones live in @toolcall/datasets and @toolcall/gemini).
 */
function expectedCalls(expectsResults: boolean | undefined): ConversationFormat {
  return {
    id: "expected-calls",
    name: "expected calls",
    expected: '{"calls": […]}',
    unit: "record",
    matches: (value) => typeof value === "object" && value !== null && "calls" in value,
    read(value) {
      const calls = (value as { calls: Array<{ name: string; args: string }> }).calls;
      const message: ChatMessage = {
        role: "assistant",
        content: null,
        tool_calls: calls.map((call, index) => ({
          id: `answer@${index}`,
          type: "function",
          function: { name: call.name, arguments: call.args },
        })),
      };
      return {
        conversations: [
          { messages: [message], answer: true, ...(expectsResults !== undefined ? { expectsResults } : {}) },
        ],
        issues: [],
        write: () => ({ ok: true, value }),
      };
    },
  };
}

describe("record engine: calls no result is expected for", () => {
  const record = {
    calls: [
      { name: "area", args: '{"base": 10}' },
      { name: "area", args: '{"base": 3}' },
    ],
  };

  it("says nothing about results when the format declares none are expected", () => {
    const engine = createRecordEngine({ providers: { mode: "errors" } });
    expect(engine.check(expectedCalls(false), record).issues).toEqual([]);
    expect(engine.repair(expectedCalls(false), record)).toMatchObject({ changes: [], remaining: [] });
  });

  it("reports each call as pending otherwise (a model's answer whose tools run next)", () => {
    for (const format of [expectedCalls(true), expectedCalls(undefined)]) {
      const codes = createRecordEngine()
        .check(format, record)
        .issues.map((issue) => issue.code);
      expect(codes).toEqual(["tool_result_pending", "tool_result_pending"]);
    }
  });

  it("still reports what is wrong with the calls themselves", () => {
    const broken = { calls: [{ name: "area", args: '{"base": 10' }] };
    const codes = createRecordEngine()
      .check(expectedCalls(false), broken)
      .issues.map((issue) => issue.code);
    expect(codes.length).toBeGreaterThan(0);
    expect(codes.every((code) => code.startsWith("arguments_"))).toBe(true);
    expect(codes).not.toContain("tool_result_pending");
  });
});

describe("record engine: hostile messages", () => {
  /** A bare list of chat messages, written back as the repaired list. */
  const list: ConversationFormat = {
    id: "list",
    name: "list",
    expected: "[…]",
    unit: "record",
    matches: Array.isArray,
    read: (value) => ({
      conversations: [{ messages: value as ChatMessage[] }],
      issues: [],
      write: (replacements) => ({ ok: true, value: replacements[0] ?? value }),
    }),
  };

  it("repairs beside a message whose fields throw when read, and never throws itself", () => {
    for (const field of ["tool_calls", "role", "content"]) {
      const hostile = { role: "assistant", content: null } as Record<string, unknown>;
      Object.defineProperty(hostile, field, {
        enumerable: true,
        get() {
          throw new Error("boom");
        },
      });
      const messages = [{ role: "user", content: "hi" }, hostile, { role: "assistant", content: "" }];
      const engine = createRecordEngine();
      expect(() => engine.check(list, messages)).not.toThrow();
      expect(() => engine.repair(list, messages)).not.toThrow();
    }
  });
});
