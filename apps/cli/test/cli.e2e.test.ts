import { existsSync, readFileSync, statSync } from "node:fs";
import { chmod, mkdir, readdir, readFile, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { copyFixtures, expectGolden, fixtures, root, run, tempDir } from "./helpers.js";

const FIXTURES = ["mixed.jsonl", "tabs-crlf.json", "four-spaces.json"];
let dir: string;

beforeAll(async () => {
  dir = await tempDir();
  await copyFixtures(dir, FIXTURES);
});

describe("help and version", () => {
  it("toolcall --help lists every command with examples", async () => {
    const result = await run(["--help"]);
    expect(result.code).toBe(0);
    for (const word of ["check", "repair", "conformance", "render", "probe", "roundtrip", "Examples:"])
      expect(result.out).toContain(word);
  });

  it.each(["check", "repair", "undo", "formats", "providers", "conformance", "render", "probe", "roundtrip"])(
    "toolcall %s --help explains itself",
    async (command) => {
      const result = await run([command, "--help"]);
      expect(result.code).toBe(0);
      expect(result.out).toContain(`toolcall ${command}`);
      if (command !== "formats") expect(result.out).toMatch(/Examples?:/);
    },
  );

  it("--version prints the package version", async () => {
    const result = await run(["--version"]);
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
    expect(result.code).toBe(0);
    expect(result.out).toBe(`${manifest.version}\n`);
  });

  it("an unknown command or option is a usage error (exit 2)", async () => {
    expect((await run(["frobnicate"])).code).toBe(2);
    const result = await run(["check", "--frobnicate", "x.json"]);
    expect(result.code).toBe(2);
    expect(result.err).toContain("toolcall check --help");
  });
});

describe("the embedded default: toolcall with no arguments", () => {
  it("diagnoses the bundled poisoned session, repairs it into a temp directory of its own, and the repair checks clean", async () => {
    const tmp = await tempDir();
    const result = await run([], { cwd: tmp, env: { TMPDIR: tmp } });
    expect(result.code).toBe(0);
    expect(result.out).toMatch(/12 errors: arguments_invalid_json \(rejected by anthropic, [^)]*\); /);
    for (const code of [
      "arguments_invalid_json",
      "arguments_not_object",
      "arguments_empty",
      "tool_result_orphan",
      "tool_result_missing",
    ]) {
      expect(result.out).toContain(code);
    }
    expect(result.out).toContain("0 errors, 2 warnings: no rule of core's is broken");
    const [directory] = (await readdir(tmp)).filter((name) => name.startsWith("toolcall-"));
    const written = join(tmp, directory as string, "poisoned-session.repaired.json");
    expect(result.out).toContain(`Written to ${written}`);
    const check = await run(["check", written], { cwd: tmp });
    expect(check.code).toBe(0);
    // Nothing the model emitted is lost: the truncated call is kept under _raw_arguments.
    expect(readFileSync(written, "utf8")).toContain(
      '{\\"_raw_arguments\\":\\"{\\\\\\"city\\\\\\": \\\\\\"Tokyo\\\\\\", \\\\\\"unit\\\\\\": \\"}',
    );
  });

  it("toolcall FILE runs the same on a given file, each run in a new directory, with a journal that undoes it", async () => {
    const tmp = await tempDir();
    await copyFixtures(tmp, ["four-spaces.json"]);
    const first = await run(["four-spaces.json"], { cwd: tmp, env: { TMPDIR: tmp } });
    const second = await run(["four-spaces.json"], { cwd: tmp, env: { TMPDIR: tmp } });
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    const directories = (await readdir(tmp)).filter((name) => name.startsWith("toolcall-"));
    expect(directories).toHaveLength(2);
    for (const directory of directories) {
      expect((await readdir(join(tmp, directory))).sort()).toEqual([
        "four-spaces.journal.jsonl",
        "four-spaces.repaired.json",
      ]);
    }
    const [directory] = directories;
    const undone = await run(
      [
        "undo",
        join(tmp, directory as string, "four-spaces.repaired.json"),
        "--journal",
        join(tmp, directory as string, "four-spaces.journal.jsonl"),
        "-o",
        "back.json",
      ],
      { cwd: tmp },
    );
    expect(undone.code).toBe(0);
    expect(
      readFileSync(join(tmp, "back.json")).equals(readFileSync(join(fixtures, "four-spaces.json"))),
    ).toBe(true);
  });
});

describe("check", () => {
  it("reports every issue with its place, a verdict per conversation and a summary by code (golden)", async () => {
    const result = await run(["check", "mixed.jsonl"], { cwd: dir });
    expect(result.code).toBe(1);
    expectGolden("mixed.check.txt", result.stdout);
    expect(result.stderr.length).toBe(0);
  });

  it("--json gives one JSON document for machines (golden)", async () => {
    const result = await run(["check", "mixed.jsonl", "tabs-crlf.json", "--json"], { cwd: dir });
    expect(result.code).toBe(1);
    expectGolden("mixed.check.json", result.stdout);
    const report = JSON.parse(result.out);
    expect(report.summary.byCode).toMatchObject({
      line_invalid_json: 1,
      line_format_unknown: 1,
      tool_result_orphan: 1,
      tool_result_pending: 1,
    });
    expect(report.summary.withErrors).toBe(6);
    const broken = report.findings.find((finding: { line?: number }) => finding.line === 3);
    expect(broken).toMatchObject({
      file: "mixed.jsonl",
      line: 3,
      verdict: "unreadable",
      issues: [{ code: "line_invalid_json" }],
    });
  });

  it("exit 0 for a clean file, also with warnings only", async () => {
    const clean = join(dir, "clean.json");
    await writeFile(
      clean,
      JSON.stringify([
        { role: "user", content: "hi" },
        { role: "assistant", content: "hello" },
      ]),
    );
    const result = await run(["check", "clean.json"], { cwd: dir });
    expect(result.code).toBe(0);
    expect(result.out).toContain("clean.json: 1 conversation (openai-chat), 1 clean");
    const warned = join(dir, "warned.json");
    await writeFile(
      warned,
      JSON.stringify([
        {
          role: "assistant",
          content: null,
          tool_calls: [
            { id: "a", type: "function", function: { name: "f", arguments: '{"_raw_arguments":"x"}' } },
          ],
        },
        { role: "tool", tool_call_id: "a", content: "ok" },
      ]),
    );
    const warnedResult = await run(["check", "warned.json"], { cwd: dir });
    expect(warnedResult.code).toBe(0);
    expect(warnedResult.out).toContain("arguments_raw_sentinel");
  });

  it("exit 2 for a file that cannot be read, after checking the others", async () => {
    const result = await run(["check", "missing.json", "four-spaces.json"], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.out).toContain("input_unreadable");
    expect(result.out).toContain("no such file or directory");
    expect(result.out).toContain("four-spaces.json: 1 conversation (openai-chat), 1 with errors");
  });

  it("--quiet prints nothing; the exit code tells", async () => {
    const result = await run(["check", "--quiet", "mixed.jsonl"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout.length + result.stderr.length).toBe(0);
  });

  it("colors only when asked for (a pipe is not a terminal), never with NO_COLOR", async () => {
    const plain = await run(["check", "four-spaces.json"], { cwd: dir });
    expect(plain.out).not.toContain("\x1b[");
    const forced = await run(["check", "four-spaces.json"], { cwd: dir, env: { FORCE_COLOR: "1" } });
    expect(forced.out).toContain("\x1b[31m");
    const refused = await run(["check", "four-spaces.json"], {
      cwd: dir,
      env: { FORCE_COLOR: "1", NO_COLOR: "1" },
    });
    expect(refused.out).not.toContain("\x1b[");
  });

  it("reads standard input with -", async () => {
    const result = await run(["check", "-", "--json"], {
      cwd: dir,
      input: readFileSync(join(fixtures, "mixed.jsonl")),
    });
    expect(result.code).toBe(1);
    const report = JSON.parse(result.out);
    expect(report.files[0]).toMatchObject({
      file: "-",
      framing: "jsonl",
      formats: ["openai-chat"],
      conversations: 6,
      unreadableLines: 2,
    });
  });
});

describe("repair", () => {
  it("JSONL: byte-exact output, unchanged lines identical, a broken line passed through with its number (golden)", async () => {
    const result = await run(["repair", "mixed.jsonl", "-o", "mixed.out.jsonl"], { cwd: dir });
    expect(result.code).toBe(1); // written, but lines were passed through unread
    const output = await readFile(join(dir, "mixed.out.jsonl"));
    expectGolden("mixed.repaired.jsonl", output);
    expectGolden("mixed.repair.txt", result.stdout);
    const inputLines = readFileSync(join(fixtures, "mixed.jsonl")).toString("latin1").split("\n");
    const outputLines = output.toString("latin1").split("\n");
    expect(outputLines.length).toBe(inputLines.length);
    for (const number of [1, 3, 4, 8]) expect(outputLines[number - 1]).toBe(inputLines[number - 1]);
    expect(result.out).toContain("mixed.jsonl:3  passed through unchanged  line_invalid_json");
  });

  it("JSON documents keep their indentation, line endings and final newline (golden)", async () => {
    for (const name of ["tabs-crlf.json", "four-spaces.json"]) {
      const out = name.replace(".json", ".out.json");
      const result = await run(["repair", name, "-o", out], { cwd: dir });
      expect(result.code).toBe(0);
      expectGolden(name.replace(".json", ".repaired.json"), await readFile(join(dir, out)));
    }
  });

  it("--json reports every change with its before and after values", async () => {
    const result = await run(["repair", "tabs-crlf.json", "-o", "t.json", "--json"], { cwd: dir });
    expect(result.code).toBe(0);
    const report = JSON.parse(result.out);
    expect(report.summary.byRule).toEqual({ arguments_canonicalized: 2, result_synthesized: 1 });
    expect(report.findings[0].changes[1]).toMatchObject({
      rule: "arguments_canonicalized",
      callId: "g2",
      repairs: ["template-suffix"],
      before: "{}</tool_call>",
      after: "{}",
    });
  });

  it("pipes: - reads standard input, -o - writes standard output, the report goes to standard error", async () => {
    const input = readFileSync(join(fixtures, "mixed.jsonl"));
    const result = await run(["repair", "-", "-o", "-"], { cwd: dir, input });
    expect(result.code).toBe(1);
    expectGolden("mixed.repaired.jsonl", result.stdout);
    expect(result.err).toContain("-:3  passed through unchanged");
    const quiet = await run(["repair", "-", "-o", "-", "--quiet"], { cwd: dir, input });
    expect(quiet.stderr.length).toBe(0);
    expectGolden("mixed.repaired.jsonl", quiet.stdout);
  });

  it("never overwrites its input without --in-place", async () => {
    const before = await readFile(join(dir, "four-spaces.json"));
    const result = await run(["repair", "four-spaces.json", "-o", "four-spaces.json"], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.out).toContain("output_is_input");
    expect((await readFile(join(dir, "four-spaces.json"))).equals(before)).toBe(true);
    expect((await run(["repair", "four-spaces.json"], { cwd: dir })).code).toBe(2);
  });

  it("--in-place replaces the file and keeps the original as FILE.bak, and never overwrites a backup", async () => {
    const work = await tempDir();
    await copyFixtures(work, ["four-spaces.json"]);
    const original = await readFile(join(work, "four-spaces.json"));
    await chmod(join(work, "four-spaces.json"), 0o640);
    const result = await run(["repair", "four-spaces.json", "--in-place"], { cwd: work });
    expect(result.code).toBe(0);
    expect((await readFile(join(work, "four-spaces.json.bak"))).equals(original)).toBe(true);
    expectGolden("four-spaces.repaired.json", await readFile(join(work, "four-spaces.json")));
    expect((await stat(join(work, "four-spaces.json"))).mode & 0o777).toBe(0o640);
    // A second run would replace the backup: refused, and nothing changes.
    await writeFile(join(work, "four-spaces.json"), original);
    const again = await run(["repair", "four-spaces.json", "--in-place"], { cwd: work });
    expect(again.code).toBe(2);
    expect(again.out).toContain("backup_exists");
    expect((await readFile(join(work, "four-spaces.json"))).equals(original)).toBe(true);
    const suffixed = await run(["repair", "four-spaces.json", "--in-place", "--backup-suffix", ".orig"], {
      cwd: work,
    });
    expect(suffixed.code).toBe(0);
    expect((await readFile(join(work, "four-spaces.json.orig"))).equals(original)).toBe(true);
    expect((await readdir(work)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("--in-place leaves a file that needs nothing untouched, without a backup", async () => {
    const work = await tempDir();
    const path = join(work, "clean.jsonl");
    await writeFile(path, '[{"role":"user","content":"hi"}]\n');
    // A time long past: any rewrite would move it, however fast it came.
    await utimes(path, new Date("2020-01-01T00:00:00Z"), new Date("2020-01-01T00:00:00Z"));
    const mtime = statSync(path).mtimeMs;
    const result = await run(["repair", "clean.jsonl", "--in-place"], { cwd: work });
    expect(result.code).toBe(0);
    expect(result.out).toContain("nothing needed a change");
    expect(statSync(path).mtimeMs).toBe(mtime);
    expect(existsSync(`${path}.bak`)).toBe(false);
  });

  it("policies and repairs come from flags", async () => {
    const session = join(dir, "policies.json");
    await writeFile(
      session,
      `${JSON.stringify(
        [
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "a", type: "function", function: { name: "f", arguments: "{city: 'Paris'}" } },
              { id: "b", type: "function", function: { name: "g", arguments: '{"x": 1}' } },
            ],
          },
          { role: "tool", tool_call_id: "a", content: "result a" },
        ],
        null,
        2,
      )}\n`,
    );
    const rules = async (...flags: string[]) => {
      const result = await run(["repair", "policies.json", "-o", "-", "--json", ...flags], { cwd: dir });
      expect(result.code).toBe(0);
      const report = JSON.parse(result.err);
      return { report, output: JSON.parse(result.out) };
    };
    // Call b, last, still awaits its result: pending, left alone unless --pending says otherwise.
    expect((await rules()).report.summary.byRule).toEqual({ arguments_raw_preserved: 1 });
    expect((await rules("--pending", "synthesize")).report.summary.byRule).toEqual({
      arguments_raw_preserved: 1,
      result_synthesized: 1,
    });
    expect((await rules("--policy", "drop")).report.summary.byRule).toEqual({
      call_dropped: 1,
      result_dropped_with_call: 1,
    });
    const emptied = await rules("--policy", "empty", "--pending", "drop-call");
    expect(emptied.report.summary.byRule).toEqual({
      arguments_emptied: 1,
      result_note_prepended: 1,
      call_dropped_missing_result: 1,
    });
    expect(emptied.output[1].content).toMatch(/^\[the arguments of this tool call were malformed/);
    const repaired = await rules("--repair", "jsonrepair");
    expect(repaired.report.findings[0].changes[0]).toMatchObject({
      repairs: ["jsonrepair"],
      after: '{"city":"Paris"}',
    });
    const synthetic = await rules("--synthetic-result", "lost", "--pending", "synthesize");
    expect(synthetic.output[2]).toEqual({ role: "tool", tool_call_id: "b", content: "lost" });
    const none = await rules("--repair", "none");
    expect(none.report.summary.byRule.arguments_raw_preserved).toBe(1);
  });

  it("gemma-quote-markers comes from @toolcall/gemma-recovery", async () => {
    const session = join(dir, "gemma.jsonl");
    const args = '{"date": "<|\\"|"2023-09-18<|\\", "title": "<|Resolución de 28 de julio de 2023<|"}';
    await writeFile(
      session,
      `${JSON.stringify([
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "a", type: "function", function: { name: "search", arguments: args } }],
        },
        { role: "tool", tool_call_id: "a", content: "found" },
      ])}\n`,
    );
    const result = await run(["repair", "gemma.jsonl", "-o", "-", "--repair", "gemma-quote-markers"], {
      cwd: dir,
    });
    expect(result.code).toBe(0);
    const [line] = JSON.parse(`[${result.out.trim()}]`);
    expect(JSON.parse(line[0].tool_calls[0].function.arguments)).toEqual({
      date: "2023-09-18",
      title: "Resolución de 28 de julio de 2023",
    });
  });

  it("usage errors exit 2 and write nothing", async () => {
    for (const args of [
      ["repair", "mixed.jsonl"],
      ["repair", "mixed.jsonl", "-o", "x.jsonl", "--repair", "magic"],
      ["repair", "mixed.jsonl", "-o", "x.jsonl", "--policy", "guess"],
      ["repair", "mixed.jsonl", "-o", "x.jsonl", "--missing-result", "ignore"],
      ["repair", "mixed.jsonl", "-o", "x.jsonl", "--pending", "later"],
      ["repair", "mixed.jsonl", "-o", "x.jsonl", "--format", "yaml"],
      ["repair", "mixed.jsonl", "-o", "x.jsonl", "--max-line-bytes", "600MB"],
      ["repair", "mixed.jsonl", "-o", "x.jsonl", "--journal", "mixed.jsonl"],
      ["repair", "mixed.jsonl", "four-spaces.json", "-o", "x.jsonl"],
      ["repair", "-", "--in-place"],
    ]) {
      const result = await run(args, { cwd: dir });
      expect(result.code, args.join(" ")).toBe(2);
      expect(result.err).toMatch(/toolcall repair: /);
    }
    expect(existsSync(join(dir, "x.jsonl"))).toBe(false);
  });
});

describe("provider profiles", () => {
  it("toolcall providers lists core's profiles; with ids, each constraint in the provider's own words", async () => {
    const list = await run(["providers"]);
    expect(list.code).toBe(0);
    expect(list.out).toMatch(/^mistral +Mistral API .*: \d+ constraints \(/m);
    expect(list.out).toMatch(/^anthropic +Anthropic Messages/m);
    const mistral = await run(["providers", "mistral"]);
    expect(mistral.code).toBe(0);
    expect(mistral.out).toContain(
      '400  "Tool call id was {id} but must be a-z, A-Z, 0-9, with a length of 9."',
    );
    const json = JSON.parse((await run(["providers", "--json"])).out) as { providers: Array<{ id: string }> };
    expect(json.providers.map((profile) => profile.id)).toContain("openai-chat");
    const unknown = await run(["providers", "nobody"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain('no provider profile "nobody"');
  });

  it("check names, for each error, the profiles that reject it; --provider adds what they reject that core does not", async () => {
    const plain = JSON.parse((await run(["check", join(dir, "mixed.jsonl"), "--json"])).out) as {
      findings: Array<{
        line?: number;
        issues: Array<{ code: string; refusedBy?: string[]; answers?: unknown[] }>;
      }>;
    };
    const orphan = plain.findings.find((f) => f.line === 6)?.issues[0];
    expect(orphan?.code).toBe("tool_result_orphan");
    expect(orphan?.refusedBy).toEqual(expect.arrayContaining(["openai-chat", "anthropic", "mistral"]));
    // A call id no rule of core's objects to is nobody's business without --provider.
    expect(plain.findings.find((f) => f.line === 1)).toBeUndefined();
    const result = await run(["check", join(dir, "mixed.jsonl"), "--json", "--provider", "mistral"]);
    expect(result.code).toBe(1);
    const named = JSON.parse(result.out) as typeof plain;
    const first = named.findings.find((f) => f.line === 1)?.issues ?? [];
    expect(first.map((i) => i.code)).toEqual(["tool_call_id_invalid"]);
    expect(first[0]?.refusedBy).toEqual(["mistral"]);
    expect(first[0]?.answers).toEqual([
      {
        provider: "mistral",
        status: 400,
        message: "Tool call id was c1 but must be a-z, A-Z, 0-9, with a length of 9.",
      },
    ]);
    // A call still awaiting its result is pending, not "missing" for the provider: no request sends it so.
    const pending = named.findings.find((f) => f.line === 2)?.issues.map((i) => i.code) ?? [];
    expect(pending).toContain("tool_result_pending");
    expect(pending).not.toContain("tool_result_missing");
  });

  it("repair --provider makes each history one the provider accepts, and check --provider then finds nothing", async () => {
    const out = join(dir, "for-mistral.jsonl");
    const journal = join(dir, "for-mistral.journal");
    const repaired = await run([
      "repair",
      join(dir, "mixed.jsonl"),
      "-o",
      out,
      "--provider",
      "mistral",
      "--journal",
      journal,
    ]);
    // Exit 1: two lines of the fixture cannot be read and pass through.
    expect(repaired.code).toBe(1);
    expect(repaired.out).toContain('call_id_remapped  "c1" -> "0000000c1"');
    const checked = JSON.parse((await run(["check", out, "--json", "--provider", "mistral"])).out) as {
      findings: Array<{ issues: Array<{ severity: string; code: string }> }>;
    };
    const errors = checked.findings.flatMap((f) =>
      f.issues.filter((i) => i.severity === "error").map((i) => i.code),
    );
    expect(errors.sort()).toEqual(["line_format_unknown", "line_invalid_json"]);
    const restored = join(dir, "from-mistral.jsonl");
    expect((await run(["undo", out, "--journal", journal, "-o", restored])).code).toBe(0);
    expect(readFileSync(restored).equals(readFileSync(join(dir, "mixed.jsonl")))).toBe(true);
  });

  it("--provider takes known ids (check: several, or all; repair: one)", async () => {
    const unknown = await run(["check", join(dir, "mixed.jsonl"), "--provider", "nobody"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("--provider is one of openai-chat");
    const all = await run(["check", join(dir, "mixed.jsonl"), "--provider", "all", "--summary"]);
    expect(all.code).toBe(1);
    expect(all.out).toContain("tool_call_id_invalid");
    const several = await run([
      "check",
      join(dir, "mixed.jsonl"),
      "--provider",
      "mistral,anthropic",
      "--quiet",
    ]);
    expect(several.code).toBe(1);
    const two = await run(["repair", join(dir, "mixed.jsonl"), "-o", "-", "--provider", "all"]);
    expect(two.code).toBe(2);
    expect(two.err).toContain("--provider names one profile here");
  });
});

describe("conformance", () => {
  it("runs the suite against a module's implementation: N passed, N failed, N skipped", async () => {
    const work = await tempDir();
    const core = pathToFileURL(
      join(root, "node_modules", "@toolcall", "core", "dist", "conformance-implementation.js"),
    ).href;
    await writeFile(
      join(work, "good.mjs"),
      `export { coreImplementation as implementation } from ${JSON.stringify(core)};\n`,
    );
    await writeFile(
      join(work, "bad.mjs"),
      `import { coreImplementation } from ${JSON.stringify(core)};\nexport default { ...coreImplementation, encode: () => "{}" };\n`,
    );
    const good = await run(["conformance", "--implementation", "./good.mjs"], { cwd: work });
    expect(good.code).toBe(0);
    const totals = /^(\d+) passed, 0 failed, (\d+) skipped$/m.exec(good.out);
    expect(totals).not.toBeNull();
    const bad = await run(["conformance", "--implementation", "bad.mjs"], { cwd: work });
    expect(bad.code).toBe(1);
    expect(bad.out).toMatch(/^FAIL r2-encode-/m);
    expect(bad.out).toMatch(/^\d+ passed, [1-9]\d* failed, \d+ skipped$/m);
    const failing = bad.out
      .split("\n")
      .filter((line) => line.startsWith("FAIL "))
      .map((line) => line.slice(5));
    const skipped = await run(
      ["conformance", "--implementation", "bad.mjs", ...failing.flatMap((id) => ["--skip", id])],
      { cwd: work },
    );
    expect(skipped.code).toBe(0);
    const named = await run(
      ["conformance", "--implementation", "good.mjs", "--export", "implementation", "--rules", "R1"],
      { cwd: work },
    );
    expect(named.code).toBe(0);
    const missing = await run(["conformance", "--implementation", "./nothing.mjs"], { cwd: work });
    expect(missing.code).toBe(2);
  });
});

describe("outputs that already exist", () => {
  it("an existing output is replaced whole, keeping its mode", async () => {
    const work = await tempDir();
    await copyFixtures(work, ["tabs-crlf.json"]);
    await mkdir(join(work, "out"));
    const out = join(work, "out", "r.json");
    await writeFile(out, "old");
    await chmod(out, 0o600);
    const result = await run(["repair", "tabs-crlf.json", "-o", "out/r.json"], { cwd: work });
    expect(result.code).toBe(0);
    expectGolden("tabs-crlf.repaired.json", await readFile(out));
    expect((await stat(out)).mode & 0o777).toBe(0o600);
    expect(await readdir(join(work, "out"))).toEqual(["r.json"]);
  });
});
