import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { run, tempDir } from "./helpers.js";

let dir: string;

const conversation = (args: string) => [
  { role: "user", content: "go" },
  {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: args } }],
  },
  { role: "tool", tool_call_id: "a", content: "done" },
];
const line = (args: string) => `${JSON.stringify(conversation(args))}\n`;

async function repairTo(name: string, input: Buffer | string, args: string[] = []) {
  await writeFile(join(dir, name), input);
  const out = `${name}.out`;
  const result = await run(["repair", name, "-o", out, "--json", ...args], { cwd: dir });
  const output = existsSync(join(dir, out)) ? await readFile(join(dir, out)) : undefined;
  return { result, output, report: result.out === "" ? undefined : JSON.parse(result.out) };
}

beforeAll(async () => {
  dir = await tempDir();
});

describe("hostile inputs", () => {
  it("a huge line (24 MB of arguments) is checked and repaired", async () => {
    const big = `{"text": "${"x".repeat(24_000_000)}"}</tool_call>`;
    const { result, output } = await repairTo("huge.jsonl", `${line(big)}${line("{}")}`);
    expect(result.code).toBe(0);
    const [first, second] = (output as Buffer).toString("utf8").split("\n");
    expect(JSON.parse(first as string)[1].tool_calls[0].function.arguments).toBe(
      `{"text":"${"x".repeat(24_000_000)}"}`,
    );
    expect(second).toBe(line("{}").trimEnd());
  });

  it("a line longer than --max-line-bytes is reported with its number and passed through byte for byte", async () => {
    const long = line("x".repeat(5000));
    const input = `${line("{}")}${long}${line("")}`;
    const { result, output, report } = await repairTo("long.jsonl", input, ["--max-line-bytes", "1000"]);
    expect(result.code).toBe(1);
    expect((output as Buffer).toString("utf8").split("\n")[1]).toBe(long.trimEnd());
    expect(report.findings[0]).toMatchObject({
      line: 2,
      kind: "passed_through",
      issue: { code: "line_too_long" },
    });
    const check = await run(["check", "long.jsonl", "--max-line-bytes", "1000"], { cwd: dir });
    expect(check.code).toBe(1);
    expect(check.out).toContain("long.jsonl:2");
    expect(check.out).toContain("line_too_long");
  });

  it("a file that is not JSON: exit 2, nothing written", async () => {
    const { result, output } = await repairTo(
      "prose.txt",
      "Dear diary,\ntoday the model emitted {broken json\n",
    );
    expect(result.code).toBe(2);
    expect(output).toBeUndefined();
    expect(JSON.parse(result.out).files[0].error.code).toBe("input_not_json");
    const check = await run(["check", "prose.txt"], { cwd: dir });
    expect(check.code).toBe(2);
    expect(check.out).toContain("input_not_json");
  });

  it("a pretty JSON document that is cut off: exit 2 with the line and column", async () => {
    await writeFile(join(dir, "cut.json"), '{\n  "messages": [\n    {"role": "user"');
    const check = await run(["check", "cut.json"], { cwd: dir });
    expect(check.code).toBe(2);
    expect(check.out).toMatch(/input_not_json.*line 3, column/);
  });

  it.each([
    ["empty", ""],
    ["blank", "\n  \n\t\n"],
  ])("an %s file holds no conversation and no issue: exit 0, output identical", async (name, input) => {
    const { result, output } = await repairTo(`${name}.jsonl`, input);
    expect(result.code).toBe(0);
    expect((output as Buffer).toString("utf8")).toBe(input);
    const check = await run(["check", `${name}.jsonl`], { cwd: dir });
    expect(check.code).toBe(0);
    expect(check.out).toContain("0 conversations");
  });

  it.each([
    ["number", "42\n"],
    ["string", '"hello"'],
    ["null", "null"],
    ["object", '{"model": "x"}'],
  ])(
    "JSON in no known format (%s): one line naming what was expected, input_format_unknown, exit 2, nothing written",
    async (name, input) => {
      const { result, output } = await repairTo(`scalar-${name}.json`, input);
      expect(result.code).toBe(2);
      expect(output).toBeUndefined();
      const check = await run(["check", `scalar-${name}.json`, "--json"], { cwd: dir });
      expect(check.code).toBe(2);
      const { error } = JSON.parse(check.out).files[0];
      expect(error.code).toBe("input_format_unknown");
      expect(error.message).toContain(
        "expected one of: openai-chat-completion, cohere-chat, ai-sdk-ui-messages, ai-sdk-ui-messages-v4, ai-sdk-model-messages",
      );
      expect(JSON.parse(check.out).findings).toHaveLength(1);
    },
  );

  it("JSONL in which no line is a record: one input_format_unknown, not a report per line", async () => {
    await writeFile(join(dir, "numbers.jsonl"), "1\n2\n3\n");
    const check = await run(["check", "numbers.jsonl", "--json"], { cwd: dir });
    expect(check.code).toBe(2);
    const report = JSON.parse(check.out);
    expect(report.findings.map((f: { issues: Array<{ code: string }> }) => f.issues[0]?.code)).toEqual([
      "input_format_unknown",
    ]);
  });

  it("a JSON array of conversations is read record by record, each finding naming its record", async () => {
    const records = [
      { messages: [{ role: "user", content: "hi" }] },
      { messages: conversation("") },
      { messages: [{ content: "no role" }, { role: "bogus", content: "?" }] },
    ];
    await writeFile(join(dir, "dataset.json"), `${JSON.stringify(records, null, 2)}\n`);
    const check = await run(["check", "dataset.json", "--json"], { cwd: dir });
    expect(check.code).toBe(1);
    const report = JSON.parse(check.out);
    expect(report.files[0]).toMatchObject({ framing: "json", records: 3, clean: 1, withErrors: 2 });
    expect(
      report.findings.map((f: { record: number; issues: Array<{ code: string }> }) => [
        f.record,
        f.issues.map((i) => i.code),
      ]),
    ).toEqual([
      [1, ["arguments_empty"]],
      [2, ["role_missing", "role_unknown"]],
    ]);
    // Repair rewrites record 1 alone; the others keep their bytes and the file its layout.
    const { result, output } = await repairTo("dataset.json", `${JSON.stringify(records, null, 2)}\n`);
    expect(result.code).toBe(1); // record 2's roles stay wrong: no rule guesses a role
    const expected = JSON.stringify(
      [
        records[0],
        {
          messages: [
            records[1]?.messages[0],
            {
              ...conversation("")[1],
              tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: "{}" } }],
            },
            records[1]?.messages[2],
          ],
        },
        records[2],
      ],
      null,
      2,
    );
    expect((output as Buffer).toString("utf8")).toBe(`${expected}\n`);
  });

  it("invalid UTF-8 in a JSONL line: reported as line_invalid_utf8 and passed through byte for byte", async () => {
    const bad = Buffer.from([
      0x5b, 0x7b, 0x22, 0x72, 0x6f, 0x6c, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x5d, 0x0a,
    ]);
    const input = Buffer.concat([Buffer.from(line("")), bad, Buffer.from(line("null"))]);
    const { result, output, report } = await repairTo("latin.jsonl", input);
    expect(result.code).toBe(1);
    const lines = (output as Buffer).subarray(0).toString("latin1").split("\n");
    expect(Buffer.from(`${lines[1]}\n`, "latin1").equals(bad)).toBe(true);
    expect(
      report.findings.map((finding: { line: number; kind: string }) => [finding.line, finding.kind]),
    ).toEqual([
      [1, "changed"],
      [2, "passed_through"],
      [3, "changed"],
    ]);
    expect(report.findings[1].issue.code).toBe("line_invalid_utf8");
  });

  it("invalid UTF-8 in a JSON document: input_invalid_utf8, exit 2, nothing written", async () => {
    const input = Buffer.concat([
      Buffer.from('[\n  {"role": "user", "content": "'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}\n]\n'),
    ]);
    const { result, output } = await repairTo("latin.json", input);
    expect(result.code).toBe(2);
    expect(output).toBeUndefined();
    expect(JSON.parse(result.out).files[0].error.code).toBe("input_invalid_utf8");
  });

  it("nesting 100,000 deep is a line_invalid_json, not a crash", async () => {
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}\n`;
    const { result, output, report } = await repairTo("deep.jsonl", `${line("{}")}${deep}`);
    expect(result.code).toBe(1);
    expect((output as Buffer).toString("utf8")).toBe(`${line("{}")}${deep}`);
    expect(report.findings[0]).toMatchObject({
      line: 2,
      issue: { code: "line_invalid_json", message: "nesting deeper than 1000" },
    });
  });

  it("deep arguments inside a conversation are decoded as invalid, never a stack overflow", async () => {
    const deepArgs = `${"[".repeat(50_000)}${"]".repeat(50_000)}`;
    const { result, report } = await repairTo("deep-args.jsonl", line(deepArgs));
    expect(result.code).toBe(0);
    expect(report.findings[0].changes[0]).toMatchObject({
      rule: "arguments_raw_preserved",
      status: "invalid",
    });
  });

  it("a byte-order mark and __proto__ keys survive a repair", async () => {
    const input = `\uFEFF${JSON.stringify({ __proto__x: 1, messages: conversation("") }).replace("__proto__x", "__proto__")}\n`;
    const { result, output } = await repairTo("bom.jsonl", input);
    expect(result.code).toBe(0);
    const text = (output as Buffer).toString("utf8");
    expect(text.startsWith('\uFEFF{"__proto__":1,"messages":')).toBe(true);
    expect(text).toContain('"arguments":"{}"');
  });

  it("a directory or a missing file is unreadable: exit 2", async () => {
    await mkdir(join(dir, "folder"), { recursive: true });
    for (const target of ["folder", "nowhere.jsonl"]) {
      const check = await run(["check", target, "--json"], { cwd: dir });
      expect(check.code).toBe(2);
      expect(JSON.parse(check.out).files[0].error.code).toBe("input_unreadable");
      const repair = await run(["repair", target, "-o", "x.out"], { cwd: dir });
      expect(repair.code).toBe(2);
    }
    expect(existsSync(join(dir, "x.out"))).toBe(false);
  });
});

describe("format detection", () => {
  it("JSONL whose first line is broken is still JSONL (the second line is a conversation)", async () => {
    const input = `{"messages": [{"role": "user", "content": "cut\n${line("")}`;
    const { result, output, report } = await repairTo("first-broken.jsonl", input);
    expect(result.code).toBe(1);
    expect(report.files[0].framing).toBe("jsonl");
    expect((output as Buffer).toString("utf8").split("\n")[0]).toBe(
      '{"messages": [{"role": "user", "content": "cut',
    );
  });

  it("a one-line JSON document is JSONL with one line; a pretty one is a document", async () => {
    await writeFile(join(dir, "one.json"), JSON.stringify(conversation("")));
    await writeFile(join(dir, "pretty.json"), JSON.stringify(conversation(""), null, 2));
    const one = JSON.parse((await run(["check", "one.json", "--json"], { cwd: dir })).out);
    const pretty = JSON.parse((await run(["check", "pretty.json", "--json"], { cwd: dir })).out);
    expect(one.files[0].framing).toBe("jsonl");
    expect(one.findings[0].line).toBe(1);
    expect(pretty.files[0].framing).toBe("json");
    expect(pretty.findings[0].line).toBeUndefined();
  });
});
