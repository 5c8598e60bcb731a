import { createRecordEngine } from "@toolcall/core";
import { describe, expect, it } from "vitest";
import { anthropicMessagesFormat } from "../src/index.js";

// A history in the shape Cline and Roo Code save (`api_conversation_history.json`): Anthropic messages whose calls are
// `tool_use` blocks and whose results are text blocks headed `[tool for 'x'] Result:`, written here after the
// results their tools push (`[read_file for 'path'] Result:` then the output).
const history = () => [
  { role: "user", content: [{ type: "text", text: "<task>\nFix the typo in README.md\n</task>" }] },
  {
    role: "assistant",
    content: [
      { type: "text", text: "I will read the file first." },
      { type: "tool_use", id: "toolu_01", name: "read_file", input: { path: "README.md" } },
      { type: "tool_use", id: "toolu_02", name: "list_files", input: { path: "." } },
    ],
  },
  {
    role: "user",
    content: [
      { type: "text", text: "[read_file for 'README.md'] Result:" },
      { type: "text", text: "<file><path>README.md</path>\n<content>\n1 | # Helo\n</content></file>" },
      { type: "text", text: "[list_files for '.'] Result:\nREADME.md\nsrc/" },
      { type: "text", text: "<environment_details>\n# Current Time\n</environment_details>" },
    ],
  },
  { role: "assistant", content: [{ type: "text", text: "The heading says Helo; it should say Hello." }] },
];
const engine = createRecordEngine();

describe("Cline's results kept as text blocks", () => {
  it("answer their calls by name and order: nothing missing, nothing added, the record untouched", () => {
    const record = history();
    const messages = anthropicMessagesFormat.read(record).conversations[0]?.messages ?? [];
    expect(messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id)).toEqual([
      "toolu_01",
      "toolu_02",
    ]);
    // The text that is no result (environment details) stays the user's.
    expect(messages.at(-2)).toMatchObject({ role: "user" });
    expect(engine.check(anthropicMessagesFormat, record).issues).toEqual([]);
    const repaired = engine.repair(anthropicMessagesFormat, record);
    expect(repaired.changes).toEqual([]);
    expect(repaired.value).toBeUndefined();
  });

  it("a header naming no call of the turn before stays text, and that call is reported missing", () => {
    const record = history();
    const user = record[2] as { content: Array<{ type: string; text: string }> };
    (user.content[2] as { text: string }).text = "[search_files for 'x'] Result:\nnone";
    const issues = engine.check(anthropicMessagesFormat, record).issues;
    expect(issues.map((issue) => [issue.code, issue.callId])).toEqual([["tool_result_missing", "toolu_02"]]);
  });
});
