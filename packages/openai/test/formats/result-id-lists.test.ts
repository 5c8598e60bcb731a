import { createRecordEngine } from "@toolcall/core";
import { describe, expect, it } from "vitest";
import { openaiChatFormat } from "../../src/index.js";

// A history in SWE-agent's shape (its function-calling agents store `tool_call_ids`, a list, on each observation),
// written here after the history entries of its trajectories: `agent`, `message_type`, `thought`, `action` kept.
const history = () => [
  { role: "system", content: "You are a helpful assistant.", agent: "main", message_type: "system_prompt" },
  { role: "user", content: "Fix the failing test.", agent: "main", message_type: "observation" },
  {
    role: "assistant",
    content: "Let me look at both files.",
    thought: "Let me look at both files.",
    action: "cat a.py\ncat b.py",
    agent: "main",
    message_type: "action",
    tool_calls: [
      { id: "call_a", type: "function", function: { name: "bash", arguments: '{"command": "cat a.py"}' } },
      { id: "call_b", type: "function", function: { name: "bash", arguments: '{"command": "cat b.py"}' } },
    ],
  },
  {
    role: "tool",
    content: "OBSERVATION:\nprint(1)",
    agent: "main",
    message_type: "observation",
    tool_call_ids: ["call_a", "call_b"],
  },
  { role: "assistant", content: "Done.", agent: "main", message_type: "action" },
];
const engine = createRecordEngine();

describe("tool results listing their calls (tool_call_ids, SWE-agent)", () => {
  it("one result listing two ids answers both calls: no orphan, nothing missing, nothing added", () => {
    const record = { messages: history() };
    const view = openaiChatFormat.read(record).conversations[0]?.messages ?? [];
    expect(view.filter((m) => m.role === "tool").map((m) => m.tool_call_id)).toEqual(["call_a", "call_b"]);
    expect(engine.check(openaiChatFormat, record).issues).toEqual([]);
    const repaired = engine.repair(openaiChatFormat, record);
    expect(repaired.changes).toEqual([]);
    expect(repaired.value).toBeUndefined();
  });

  it("a repair elsewhere writes the result back as the one message it was, the same object", () => {
    const messages = history();
    const calls = messages[2]?.tool_calls as Array<{ function: { arguments: string } }>;
    (calls[0] as { function: { arguments: string } }).function.arguments =
      '```json\n{"command": "cat a.py"}\n```';
    const record = { messages };
    const repaired = engine.repair(openaiChatFormat, record);
    expect(repaired.changes.map((change) => change.rule)).toEqual(["arguments_canonicalized"]);
    const written = (repaired.value as { messages: unknown[] }).messages;
    expect(written).toHaveLength(5);
    expect(written[3]).toBe(messages[3]);
    expect(engine.check(openaiChatFormat, repaired.value).issues).toEqual([]);
  });

  it("a bare list of messages reads the same way", () => {
    expect(engine.check(openaiChatFormat, history()).issues).toEqual([]);
  });
});
