import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { run, tempDir } from "./helpers.js";

// Arguments as models and servers emit them (../shared/wild/payloads.json and RULES.md's pinned cases), with
// well-formed ones mixed in.
const PAYLOADS: unknown[] = [
  '{"city": "Paris"}',
  '{"category":"research"}{"category":"research"}',
  '{"a":1}{"b":2}',
  '[{"mode": "replace", "path": "config.yaml"}]',
  "null",
  '"escaped string"',
  "{invalid",
  '{"value": ',
  '"{\\"a\\":3,\\"b\\":4}"',
  "{\"paths\": ['*.py']}",
  '```json\n{"city":"paris"}\n```',
  '{"query": "what\'s the weather"}',
  '"offset</longcat_arg_key>',
  '<|tool_call>call:patch{path:<|"|>/tmp/a.py<|"|>}<tool_call|>',
  "",
  '{"file_path":NaN}',
  '{"command": "ls"}</tool_call>',
  '{"a": 1,}',
  "{'a': True, 'b': None}",
  "42",
  "   ",
  '{"n": 12345678901234567890, "f": 1.0}',
  null,
  undefined,
  { city: "Rome" },
  [1, 2],
  0,
  false,
];

interface Turn {
  calls: Array<{
    idKind: "unique" | "missing" | "repeat";
    name: string | null;
    args: unknown;
    type: "function" | "custom";
  }>;
  answered: boolean[];
  orphan: boolean;
  closing: boolean;
}

const turn: fc.Arbitrary<Turn> = fc
  .array(
    fc.record({
      idKind: fc.constantFrom("unique", "unique", "unique", "missing", "repeat"),
      name: fc.constantFrom("get_weather", "list_files", "bad name!", "", null),
      args: fc.constantFrom(...PAYLOADS),
      type: fc.constantFrom("function", "function", "function", "custom"),
    }),
    { minLength: 0, maxLength: 3 },
  )
  .chain((calls) =>
    fc.record({
      calls: fc.constant(calls),
      answered: fc.array(fc.boolean(), { minLength: calls.length, maxLength: calls.length }),
      orphan: fc.boolean(),
      closing: fc.boolean(),
    }),
  );

function buildConversation(turns: Turn[], index: number): unknown {
  const messages: unknown[] = [{ role: "system", content: "You are an agent." }];
  turns.forEach((t, turnIndex) => {
    messages.push({ role: "user", content: `request ${turnIndex}` });
    const ids: Array<string | undefined> = [];
    const calls = t.calls.map((call, k) => {
      const previous = ids[k - 1];
      const id =
        call.idKind === "missing"
          ? undefined
          : call.idKind === "repeat" && previous
            ? previous
            : `t${turnIndex}c${k}`;
      ids.push(id);
      const fn: Record<string, unknown> = {};
      if (call.name !== null) fn.name = call.name;
      if (call.args !== undefined) fn.arguments = call.args;
      return call.type === "custom"
        ? { ...(id ? { id } : {}), type: "custom", custom: { name: "grep", input: "x" } }
        : { ...(id ? { id } : {}), type: "function", function: fn };
    });
    if (calls.length > 0) messages.push({ role: "assistant", content: null, tool_calls: calls });
    t.answered.forEach((answered, k) => {
      if (answered && ids[k]) messages.push({ role: "tool", tool_call_id: ids[k], content: `result ${k}` });
    });
    if (t.orphan) messages.push({ role: "tool", tool_call_id: `gone${turnIndex}`, content: "stale" });
    if (t.closing) messages.push({ role: "assistant", content: `done ${turnIndex}` });
  });
  return index % 3 === 0 ? messages : { id: index, messages };
}

let dir: string;

beforeAll(async () => {
  dir = await tempDir();
  // A fixed seed: the same 300 conversations on every run (a failure names the line to look at).
  const samples = fc.sample(fc.array(turn, { minLength: 1, maxLength: 4 }), {
    numRuns: 300,
    seed: 20_260_707,
  });
  await writeFile(
    join(dir, "generated.jsonl"),
    samples.map((turns, i) => `${JSON.stringify(buildConversation(turns, i))}\n`).join(""),
  );
});

describe("repair, then check and repair again", () => {
  it.each([
    ["preserve", "synthesize"],
    ["preserve", "drop-call"],
    ["drop", "synthesize"],
    ["drop", "drop-call"],
    ["empty", "synthesize"],
    ["empty", "drop-call"],
  ])(
    "--policy %s --missing-result %s: the repaired file has no errors, and repairing it changes nothing",
    async (policy, missing) => {
      const flags = ["--policy", policy, "--missing-result", missing, "--repair", "core", "--quiet"];
      const once = `once-${policy}-${missing}.jsonl`;
      const twice = `twice-${policy}-${missing}.jsonl`;
      const first = await run(["repair", "generated.jsonl", "-o", once, ...flags], { cwd: dir });
      expect(first.code).toBe(0);
      const check = await run(["check", once, "--json"], { cwd: dir });
      const report = JSON.parse(check.out);
      expect(report.summary.issues.error, JSON.stringify(report.findings.slice(0, 3))).toBe(0);
      expect(report.summary.conversations).toBe(300);
      expect(check.code).toBe(0);
      const second = await run(
        ["repair", once, "-o", twice, ...flags.filter((f) => f !== "--quiet"), "--json"],
        { cwd: dir },
      );
      expect(second.code).toBe(0);
      expect(JSON.parse(second.out).summary.changes).toBe(0);
      expect((await readFile(join(dir, twice))).equals(await readFile(join(dir, once)))).toBe(true);
    },
  );

  it("the generated input does poison: most conversations break a rule before the repair", async () => {
    const check = await run(["check", "generated.jsonl", "--quiet"], { cwd: dir });
    expect(check.code).toBe(1);
    const report = JSON.parse((await run(["check", "generated.jsonl", "--json"], { cwd: dir })).out);
    expect(report.summary.withErrors).toBeGreaterThan(150);
  });
});

describe("worker threads", () => {
  it("--jobs 3 gives the same bytes, report and journal as --jobs 1, line for line in order", async () => {
    // The generated conversations, repeated (--jobs starts workers whatever the size), with lines too long to hold
    // and blank lines between them, so ordered output is tested across every kind of line and many batches.
    const lines = (await readFile(join(dir, "generated.jsonl"), "utf8")).split("\n").filter(Boolean);
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < 3_000_000; i++) {
      const line =
        i % 97 === 0
          ? ""
          : i % 199 === 0
            ? `{"cut": ${"9".repeat(3000)}`
            : (lines[i % lines.length] as string);
      parts.push(line);
      size += line.length + 1;
    }
    await writeFile(join(dir, "big.jsonl"), `${parts.join("\n")}\n`);
    const outputs: Buffer[] = [];
    const journals: Buffer[] = [];
    const reports: string[] = [];
    for (const jobs of ["1", "3"]) {
      const result = await run(
        [
          "repair",
          "big.jsonl",
          "-o",
          `big.${jobs}.jsonl`,
          "--journal",
          `big.${jobs}.journal`,
          "--json",
          "--jobs",
          jobs,
          "--max-line-bytes",
          "2000",
        ],
        { cwd: dir },
      );
      expect(result.code).toBe(1);
      reports.push(result.out.replaceAll(`big.${jobs}.`, "big.N."));
      outputs.push(await readFile(join(dir, `big.${jobs}.jsonl`)));
      journals.push(await readFile(join(dir, `big.${jobs}.journal`)));
      const check = await run(["check", "big.jsonl", "--json", "--jobs", jobs, "--max-line-bytes", "2000"], {
        cwd: dir,
      });
      reports.push(check.out);
    }
    expect(outputs[1]?.equals(outputs[0] as Buffer)).toBe(true);
    expect(journals[1]?.equals(journals[0] as Buffer)).toBe(true);
    expect(reports[2]).toBe(reports[0]);
    expect(reports[3]).toBe(reports[1]);
    const report = JSON.parse(reports[0] as string);
    expect(report.summary.changed).toBeGreaterThan(1000);
    expect(report.summary.byRule.arguments_canonicalized).toBeGreaterThan(100);
    expect(report.summary.passedThrough).toBeGreaterThan(10);
  }, 120_000);
});
