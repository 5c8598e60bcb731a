import { readFileSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { root, run, tempDir } from "./helpers.js";

// The command line on real public files no one on this project wrote (sources and licenses in each folder's README).
const repo = join(root, "..", "..");
const openai = join(repo, "packages/openai/test/formats/__fixtures__");
const anthropic = join(repo, "packages/anthropic/test/__fixtures__");
const datasets = join(repo, "packages/datasets/test/__fixtures__");

interface Finding {
  line?: number;
  record?: number;
  format?: string;
  verdict: string;
  issues: Array<{ code: string; severity: string; refusedBy?: string[]; place?: string }>;
}

async function checkJson(file: string, ...flags: string[]) {
  const result = await run(["check", file, "--json", ...flags]);
  return {
    code: result.code,
    report: JSON.parse(result.out) as {
      findings: Finding[];
      files: Array<Record<string, unknown>>;
      summary: Record<string, unknown>;
    },
  };
}

let dir: string;
beforeAll(async () => {
  dir = await tempDir();
});

describe("recorded provider traffic (pydantic-ai's VCR cassettes): every history here was answered HTTP 200", () => {
  it.each([
    ["openai-chat", join(openai, "chat-requests.jsonl")],
    ["openai-responses", join(openai, "responses-requests.jsonl")],
    ["anthropic-messages", join(anthropic, "messages-requests.jsonl")],
    ["bedrock-converse", join(repo, "packages/bedrock/test/__fixtures__/converse-requests.jsonl")],
  ])("%s requests: no verdict claims a refusal the provider did not give", async (format, file) => {
    const { report } = await checkJson(file);
    expect(report.files[0]?.formats).toEqual([format]);
    const refused = report.findings.flatMap((f) => f.issues.filter((i) => (i.refusedBy ?? []).length > 0));
    expect(refused).toEqual([]);
  });

  it.each([
    ["openai-chat", join(openai, "chat-requests.jsonl")],
    ["openai-responses", join(openai, "responses-requests.jsonl")],
    ["anthropic", join(anthropic, "messages-requests.jsonl")],
    ["bedrock-converse", join(repo, "packages/bedrock/test/__fixtures__/converse-requests.jsonl")],
    ["cohere", join(repo, "packages/cohere/test/__fixtures__/cohere-requests.jsonl")],
  ])(
    "--provider %s: the profile of the provider that answered 200 rejects none of its requests",
    async (provider, file) => {
      const { report } = await checkJson(file, "--provider", provider);
      const rejected = report.findings.flatMap((f) =>
        f.issues.filter((i) => (i.refusedBy ?? []).includes(provider)),
      );
      expect(rejected).toEqual([]);
    },
  );

  it.each([
    ["bedrock-converse", join(repo, "packages/bedrock/test/__fixtures__/converse-requests.jsonl")],
    ["cohere-chat", join(repo, "packages/cohere/test/__fixtures__/cohere-requests.jsonl")],
  ])(
    "%s requests (langchain-cohere's cassettes for Cohere): detected, named by --format, clean",
    async (format, file) => {
      for (const flags of [[], ["--format", format]]) {
        const { code, report } = await checkJson(file, ...flags);
        expect(report.files[0]?.formats).toEqual([format]);
        expect(report.findings.flatMap((f) => f.issues)).toEqual([]);
        expect(code).toBe(0);
      }
    },
  );

  it("a file of chat.completion responses is read as responses: each call pending, no error", async () => {
    const { code, report } = await checkJson(join(openai, "chat-completions.jsonl"));
    expect(report.files[0]).toMatchObject({ formats: ["openai-chat-completion"], records: 55 });
    const codes = new Set(report.findings.flatMap((f) => f.issues.map((i) => i.code)));
    // Gemini's OpenAI-compatible endpoint answered one call without an id: that is found; nothing else is an error.
    expect([...codes].sort()).toEqual(["id_missing", "tool_result_pending"]);
    expect(code).toBe(1);
  });

  it("a recorded stream (server-sent events) is read as a chunk log, and repair leaves it byte for byte", async () => {
    const file = join(openai, "chat-stream-parallel.sse");
    const { code, report } = await checkJson(file);
    expect(code).toBe(0);
    expect(report.files[0]).toMatchObject({ framing: "sse", formats: ["openai-chat-chunks"] });
    const out = join(dir, "stream.sse");
    expect((await run(["repair", file, "-o", out])).code).toBe(0);
    expect((await readFile(out)).equals(readFileSync(file))).toBe(true);
  });
});

describe("agent sessions", () => {
  it("a Codex CLI session and Claude Code transcripts are read whole and found clean", async () => {
    for (const [file, format] of [
      [join(openai, "codex-rollout.jsonl"), "codex-rollout"],
      [join(anthropic, "claude-code-session.jsonl"), "claude-code"],
      [join(anthropic, "claude-code-representative.jsonl"), "claude-code"],
    ] as const) {
      const { code, report } = await checkJson(file);
      expect(report.files[0], file).toMatchObject({ framing: "session", formats: [format], withErrors: 0 });
      expect(code).toBe(0);
    }
  });

  it("a broken transcript: every defect found at its record, and repair cannot invent a content key", async () => {
    const { code, report } = await checkJson(join(anthropic, "claude-code-edge-cases.jsonl"));
    expect(code).toBe(1);
    const places = report.findings.flatMap((f) => f.issues.map((i) => `${i.code} ${i.place}`));
    expect(places).toContain("block_invalid record 18 (message.content[0])");
    expect(places).toContain("content_missing record 10 (message)");
  });
});

describe("fine-tuning data sets", () => {
  it("LLaMA-Factory's 274-message v1 file: every result paired, repair deletes nothing and exits 0", async () => {
    const file = join(datasets, "reason_tool_use_demo_50.jsonl");
    const check = await checkJson(file);
    expect(check.code).toBe(0);
    expect(check.report.summary).toMatchObject({ records: 50, withErrors: 0 });
    const out = join(dir, "reason.jsonl");
    const repaired = await run(["repair", file, "-o", out, "--json"]);
    expect(repaired.code).toBe(0);
    expect(JSON.parse(repaired.out).summary.changes).toBe(0);
    expect((await readFile(out)).equals(readFileSync(file))).toBe(true);
  });

  it("glaive's ShareGPT array: 300 conversations, the one real defect found at its place", async () => {
    const { code, report } = await checkJson(join(datasets, "glaive_toolcall_en_demo.json"));
    expect(code).toBe(1);
    expect(report.files[0]).toMatchObject({
      framing: "json",
      formats: ["sharegpt"],
      records: 300,
      withErrors: 1,
    });
    expect(report.findings).toEqual([
      expect.objectContaining({
        record: 259,
        issues: [expect.objectContaining({ code: "arguments_schema", place: "conversations[3]" })],
      }),
    ]);
  });

  it("Hermes: the card's broken call is found and read (literal \\n around it, Python quotes), never dropped", async () => {
    const file = join(datasets, "hermes-function-calling-v1-card.jsonl");
    const out = join(dir, "hermes.jsonl");
    const repaired = await run(["repair", file, "-o", out, "--json"]);
    const report = JSON.parse(repaired.out);
    expect(report.summary.byRule).toEqual({ arguments_canonicalized: 1 });
    expect(report.findings[0].changes[0].repairs).toEqual(["literal-escapes", "python-literal"]);
    const line = (await readFile(out, "utf8")).split("\n")[1] as string;
    const value = JSON.parse(line).conversations[2].value as string;
    expect(value).toMatch(
      /^<tool_call>\n\{"name": "ExpertQAExtractor", "arguments": \{"arguments": \{"queries": \[/,
    );
    // Every query the model wrote is still there.
    expect(value.match(/\?"/g)).toHaveLength(3);
  });
});

describe("what the issue saw accepted", () => {
  it("a message without a role and a role no API has are errors, not accepted", async () => {
    await writeFile(join(dir, "norole.json"), '[{"content":"hi"}]');
    await writeFile(join(dir, "bogus.json"), '[{"role":"bogus","content":"hi"}]');
    const norole = await checkJson(join(dir, "norole.json"));
    const bogus = await checkJson(join(dir, "bogus.json"));
    expect(norole.code).toBe(1);
    expect(norole.report.findings[0]?.issues.map((i) => i.code)).toEqual(["role_missing"]);
    expect(bogus.code).toBe(1);
    expect(bogus.report.findings[0]?.issues.map((i) => i.code)).toEqual(["role_unknown"]);
  });

  it("a ShareGPT array with a speaker no format has is read, not waved through", async () => {
    await writeFile(
      join(dir, "sharegpt.json"),
      JSON.stringify([
        {
          conversations: [
            { from: "human", value: "hi" },
            { from: "bogus", value: "?" },
          ],
        },
      ]),
    );
    const { code, report } = await checkJson(join(dir, "sharegpt.json"));
    expect(code).toBe(1);
    expect(report.findings[0]?.issues).toEqual([
      expect.objectContaining({ code: "role_unknown", place: "conversations[1].from" }),
    ]);
  });

  it("--format reads a file as the named format; a file that is not in it gets its issues, not a guess", async () => {
    const { report } = await checkJson(
      join(datasets, "glaive_toolcall_en_demo.json"),
      "--format",
      "sharegpt",
    );
    expect(report.files[0]).toMatchObject({ formats: ["sharegpt"], records: 300 });
  });
});
