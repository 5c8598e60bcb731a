import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkFile, type FileFinding } from "../src/index.js";

// Look-alikes of what saved OpenAI Chat sessions hold (the shapes of the CLI's mixed.jsonl fixture): a clean
// conversation, arguments left in a Markdown fence, a line cut mid-string, a Python literal in place of JSON.
const call = (id: string, args: string) => ({
  role: "assistant",
  content: null,
  tool_calls: [{ id, type: "function", function: { name: "list_files", arguments: args } }],
});
const lines = [
  JSON.stringify({
    messages: [
      { role: "user", content: "hi" },
      call("c1", '{"path":"."}'),
      { role: "tool", tool_call_id: "c1", content: "a.py" },
    ],
  }),
  JSON.stringify({
    messages: [
      { role: "user", content: "files?" },
      call("c2", '```json\n{"paths":["*.py"]}\n```'),
      { role: "tool", tool_call_id: "c2", content: "[]" },
    ],
  }),
  '{"id": "s3", "messages": [{"role": "user", "content',
  JSON.stringify({
    messages: [
      { role: "user", content: "go" },
      call("c4", "{'path': True}"),
      { role: "tool", tool_call_id: "c4", content: "ok" },
    ],
  }),
];
const folder = mkdtempSync(join(tmpdir(), "toolcall-files-"));
const path = join(folder, "sessions.jsonl");
writeFileSync(path, `${lines.join("\n")}\n`);

describe("checkFile", () => {
  it("reads every line in its format and places each finding", async () => {
    const result = await checkFile({ path });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const { check } = result;
    expect(check.framing).toBe("jsonl");
    expect(check.formats).toEqual(["openai-chat"]);
    expect(check.records).toBe(3);
    expect(check.withErrors).toBe(2);
    expect(check.unreadableLines).toBe(1);
    expect(
      check.findings.map((finding) => [finding.line, finding.issues.map((issue) => issue.code)]),
    ).toEqual([
      [2, ["arguments_invalid_json"]],
      [3, ["line_invalid_json"]],
      [4, ["arguments_invalid_json"]],
    ]);
    expect(check.findings[0]?.issues[0]?.message).toContain("repairable: markdown-fence");
  });

  it("hands findings to onFinding as they are found instead of keeping them", async () => {
    const seen: FileFinding[] = [];
    const result = await checkFile({ path, onFinding: (finding) => seen.push(finding) });
    expect(result.ok && result.check.findings).toEqual([]);
    expect(seen.map((finding) => finding.line)).toEqual([2, 3, 4]);
  });

  it("checks against the providers named", async () => {
    const result = await checkFile({ path, providers: ["anthropic"] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    const refused = result.check.findings[0]?.issues[0] as { refusedBy?: string[] };
    expect(refused.refusedBy).toContain("anthropic");
  });

  it("answers with an issue, never a throw, for a missing file, an unknown format or repair", async () => {
    const missing = await checkFile({ path: join(folder, "none.jsonl") });
    expect(missing.ok === false && missing.issue.code).toBe("input_unreadable");
    const format = await checkFile({ path, format: "no-such-format" });
    expect(format.ok === false && format.issue.code).toBe("option_invalid");
    const repair = await checkFile({ path, repairs: ["no-such-repair"] });
    expect(repair.ok === false && repair.issue.code).toBe("option_invalid");
  });

  it("reads every record in the format named: a file that holds none is refused, naming the format it is", async () => {
    const result = await checkFile({ path, format: "sharegpt" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issue.code).toBe("input_format_unknown");
    expect(result.issue.message).toContain("read it with --format openai-chat");
  });
});
