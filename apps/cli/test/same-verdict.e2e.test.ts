import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runChatTool } from "../../playground/src/chat-tool.js";
import { DEFAULT_RUN_REPAIRS } from "../src/input/option-values.js";
import { fixtures, root, run, tempDir } from "./helpers.js";

// One record engine for every door: the command line and the playground read the same files through the same
// formats and give the same verdict, issue by issue, on every record (a call awaiting its result is one warning,
// tool_result_pending, at both doors).
const repo = join(root, "..", "..");
const corpus = [
  join(fixtures, "doors/repros.jsonl"),
  join(repo, "packages/openai/test/formats/__fixtures__/chat-requests.jsonl"),
  join(repo, "packages/openai/test/formats/__fixtures__/responses-requests.jsonl"),
  join(repo, "packages/openai/test/formats/__fixtures__/ollama-chat-tools.json"),
  join(repo, "packages/gemini/test/__fixtures__/google-requests.jsonl"),
  join(repo, "packages/bedrock/test/__fixtures__/converse-requests.jsonl"),
  join(repo, "packages/cohere/test/__fixtures__/cohere-requests.jsonl"),
  join(repo, "packages/anthropic/test/__fixtures__/messages-requests.jsonl"),
  join(repo, "packages/anthropic/test/__fixtures__/claude-code-edge-cases.jsonl"),
  join(repo, "packages/datasets/test/__fixtures__/hermes-function-calling-v1-card.jsonl"),
  join(repo, "packages/datasets/test/__fixtures__/reason_tool_use_demo_50.jsonl"),
  join(repo, "packages/datasets/test/__fixtures__/glaive_toolcall_en_demo.json"),
  join(repo, "packages/ai-sdk/test/__fixtures__/saved/chat-store-ui-messages.json"),
  join(repo, "packages/ai-sdk/test/__fixtures__/saved/chat-store-v4-messages.json"),
  join(repo, "packages/ai-sdk/test/__fixtures__/saved/response-model-messages.json"),
  join(repo, "packages/langchain/test/__fixtures__/saved/chat-history-stored.json"),
  join(repo, "packages/langchain/test/__fixtures__/saved/langgraph-thread-state.json"),
];

interface Found {
  code: string;
  severity: string;
  place?: string;
  refusedBy?: readonly string[];
}
const key = (found: Found) =>
  `${found.severity} ${found.code} @ ${found.place ?? ""} by ${(found.refusedBy ?? []).join(",")}`;

async function cliVerdicts(file: string, provider: string): Promise<Map<string, string[]>> {
  const result = await run([
    "check",
    file,
    "--json",
    ...(provider === "any" ? [] : ["--provider", provider]),
  ]);
  const report = JSON.parse(result.out) as {
    findings: Array<{ line?: number; record?: number; issues: Found[] }>;
  };
  const out = new Map<string, string[]>();
  for (const finding of report.findings) {
    // A single document is listed even when clean; the page lists records with issues.
    if (finding.issues.length === 0) continue;
    const where =
      finding.record !== undefined
        ? `[${finding.record}]`
        : finding.line !== undefined
          ? `line ${finding.line}`
          : "";
    out.set(where, finding.issues.map(key).sort());
  }
  return out;
}

function pageVerdicts(file: string, provider: string): Map<string, string[]> {
  const report = runChatTool({ chat: readFileSync(file, "utf8"), format: "auto", provider });
  if (!report.ok) throw new Error(report.error);
  const out = new Map<string, string[]>();
  for (const record of report.records) {
    const issues = [
      ...record.formatIssues.map(key),
      ...record.conversations.flatMap((conversation) => conversation.issues.map(key)),
    ];
    // The command line lists records with issues; clean ones are counted.
    if (issues.length > 0) out.set(record.label ?? "", issues.sort());
  }
  return out;
}

describe("the command line and the playground give the same verdict on the same record", () => {
  for (const provider of ["any", "anthropic", "openai-chat"]) {
    it.each(corpus.map((file) => [file.slice(repo.length + 1), file]))(
      `%s, provider ${provider}`,
      async (_, file) => {
        const page = pageVerdicts(file, provider);
        const cli = await cliVerdicts(file, provider);
        expect(Object.fromEntries(page)).toEqual(Object.fromEntries(cli));
      },
    );
  }

  it("a format named that does not fit, while another claims the file, is refused naming that one", async () => {
    const file = join(repo, "packages/gemini/test/__fixtures__/google-requests.jsonl");
    const result = await run(["check", file, "--json", "--format", "openai-chat"]);
    const report = JSON.parse(result.out) as { files: Array<{ error?: { code: string; message: string } }> };
    expect(report.files[0]?.error?.code).toBe("input_format_unknown");
    expect(report.files[0]?.error?.message).toContain("named openai-chat, but it is gemini-contents");
    expect(report.files[0]?.error?.message).toContain("read it with --format gemini-contents");
    expect(result.code).toBe(2);
  });

  it("the bundled session comes out repaired alike: the page runs what `toolcall` with no command runs", async () => {
    const file = join(root, "examples", "poisoned-session.json");
    const work = await tempDir();
    const out = join(work, "fixed.json");
    const result = await run(["repair", file, "-o", out, "--repair", DEFAULT_RUN_REPAIRS.join(",")]);
    expect(result.code === 0 || result.code === 1, result.err).toBe(true);
    const page = runChatTool({ chat: readFileSync(file, "utf8"), format: "auto", provider: "any" });
    if (!page.ok) throw new Error(page.error);
    const repaired = page.records[0]?.repaired;
    expect(repaired?.ok).toBe(true);
    expect(repaired?.ok && repaired.text).toBe(readFileSync(out, "utf8"));
    // Gemma 4's leaked quote markers among them (call_d1): repaired at both doors.
    const gemmaCall = (text: string) =>
      (
        JSON.parse(text) as {
          messages: Array<{ tool_calls?: Array<{ id: string; function: { arguments: string } }> }>;
        }
      ).messages
        .flatMap((message) => message.tool_calls ?? [])
        .find((call) => call.id === "call_d1")?.function.arguments;
    expect(gemmaCall(readFileSync(file, "utf8"))).toContain("<|");
    expect(JSON.parse(gemmaCall(readFileSync(out, "utf8")) ?? "")).toMatchObject({ date: "2023-09-18" });
  });

  it("a call awaiting its result is a pending warning at both doors", async () => {
    const file = join(fixtures, "doors/repros.jsonl");
    const page = pageVerdicts(file, "any").get("line 4") ?? [];
    expect(page.filter((found) => found.includes("tool_result_"))).toEqual([
      "warning tool_result_pending @ messages[1].tool_calls[0] by ",
    ]);
    expect((await cliVerdicts(file, "any")).get("line 4")).toEqual(page);
  });
});
