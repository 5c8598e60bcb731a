import { coreRepairs } from "@toolcall/core";
import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { sanitizeModelMessages } from "./sanitize-model-messages.js";

const result = (id: string, value: string) => ({
  type: "tool-result" as const,
  toolCallId: id,
  toolName: "weather",
  output: { type: "text" as const, value },
});

// What a chat app saves: calls the SDK could not parse kept as the model's text or its parsed non-object, a call
// whose result never came (the tab closed), a result whose call was trimmed away.
const poisoned: ModelMessage[] = [
  { role: "user", content: "Weather in Paris, Lyon, Nice?" },
  {
    role: "assistant",
    content: [
      { type: "text", text: "Checking." },
      { type: "tool-call", toolCallId: "a", toolName: "weather", input: "{'city': 'Paris'}" },
      { type: "tool-call", toolCallId: "b", toolName: "weather", input: [1, 2] },
      { type: "tool-call", toolCallId: "c", toolName: "weather", input: { city: "Nice" } },
    ],
  },
  { role: "tool", content: [result("a", "sunny"), result("b", "error"), result("zz", "orphan")] },
  { role: "user", content: "And tomorrow?" },
];

describe("sanitizeModelMessages", () => {
  it("repairs, preserves, pairs; keeps every message that needed nothing", () => {
    const frozen = structuredClone(poisoned);
    const { messages, changes } = sanitizeModelMessages(poisoned, { repairs: coreRepairs });
    expect(poisoned).toEqual(frozen);
    expect(messages).toEqual([
      poisoned[0],
      {
        role: "assistant",
        content: [
          { type: "text", text: "Checking." },
          { type: "tool-call", toolCallId: "a", toolName: "weather", input: { city: "Paris" } },
          { type: "tool-call", toolCallId: "b", toolName: "weather", input: { _raw_arguments: [1, 2] } },
          { type: "tool-call", toolCallId: "c", toolName: "weather", input: { city: "Nice" } },
        ],
      },
      { role: "tool", content: [result("a", "sunny"), result("b", "error")] },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c",
            toolName: "weather",
            output: { type: "text", value: "[no result was recorded for this tool call]" },
          },
        ],
      },
      poisoned[3],
    ]);
    expect(messages[0]).toBe(poisoned[0]);
    expect(messages[4]).toBe(poisoned[3]);
    expect(changes.map(({ rule, messageIndex, toolCallId }) => ({ rule, messageIndex, toolCallId }))).toEqual(
      [
        { rule: "arguments_canonicalized", messageIndex: 1, toolCallId: "a" },
        { rule: "arguments_raw_preserved", messageIndex: 1, toolCallId: "b" },
        { rule: "result_dropped_orphan", messageIndex: 2, toolCallId: "zz" },
        { rule: "result_synthesized", messageIndex: 1, toolCallId: "c" },
      ],
    );
    expect(changes[0]?.before).toBe("{'city': 'Paris'}");
  });

  it("returns the input itself when nothing needs fixing, and is idempotent", () => {
    const { messages } = sanitizeModelMessages(poisoned, { repairs: coreRepairs });
    const again = sanitizeModelMessages(messages, { repairs: coreRepairs });
    expect(again.messages).toBe(messages);
    expect(again.changes).toEqual([]);
  });

  it("records change values without the package's links", () => {
    const { changes } = sanitizeModelMessages([{ role: "tool", content: [result("x", "orphan")] }]);
    expect(changes[0]?.before).toEqual({ role: "tool", tool_call_id: "x", content: "orphan" });
    expect(Object.getOwnPropertySymbols(changes[0]?.before)).toEqual([]);
  });
});
