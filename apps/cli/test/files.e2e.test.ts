import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, readFileSync } from "node:fs";
import { lstat, open, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, cleanEnv, fixtures, root, run, tempDir } from "./helpers.js";

// Files as a careful Unix tool treats them: devices, FIFOs, /dev/stdout and process substitutions written where
// they are; gzip read by its magic bytes and written for .gz; a line too long to hold streamed through in bounded
// memory (peak RSS measured in the child by getrusage: a count, not a clock).

let dir: string;
beforeAll(async () => {
  dir = await tempDir("toolcall-cli-files-");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const mixed = () => readFileSync(join(fixtures, "mixed.jsonl"));
const repairedMixed = () => readFileSync(join(fixtures, "mixed.repaired.jsonl"));

function sha256(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}

/** Runs the command line with its peak resident set size (KB) measured by the preload script. */
async function runMeasured(
  args: string[],
  nodeFlags: string[] = [],
): Promise<{ code: number | null; rssKB: number; err: string }> {
  const rssFile = join(dir, `rss-${Math.random().toString(36).slice(2)}`);
  const child = spawn(
    process.execPath,
    [...nodeFlags, "--require", join(root, "test", "report-rss.cjs"), bin, ...args],
    {
      cwd: dir,
      env: cleanEnv({ TOOLCALL_TEST_RSS_FILE: rssFile }),
      stdio: ["ignore", "ignore", "pipe"],
    },
  );
  let err = "";
  child.stderr.on("data", (chunk) => {
    err += chunk;
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, rssKB: Number(await readFile(rssFile, "utf8")), err };
}

describe("outputs that are not regular files are written where they are", () => {
  it("a FIFO: written into, still a FIFO afterwards", async () => {
    const fifo = join(dir, "out.fifo");
    execFileSync("mkfifo", [fifo]);
    await writeFile(join(dir, "mixed.jsonl"), mixed());
    const reader = spawn("sh", ["-c", `cat "${fifo}" > "${join(dir, "from-fifo.jsonl")}"`]);
    const done = new Promise((resolve) => reader.on("close", resolve));
    const result = await run(["repair", "mixed.jsonl", "-o", fifo, "--quiet"], { cwd: dir });
    await done;
    expect(result.code).toBe(1); // written; two lines passed through unread
    expect((await lstat(fifo)).isFIFO()).toBe(true);
    expect((await readFile(join(dir, "from-fifo.jsonl"))).equals(repairedMixed())).toBe(true);
  });

  it("a FIFO as input is read as a stream", async () => {
    const fifo = join(dir, "in.fifo");
    execFileSync("mkfifo", [fifo]);
    const writer = spawn("sh", ["-c", `cat "${join(fixtures, "mixed.jsonl")}" > "${fifo}"`]);
    const written = new Promise((resolve) => writer.on("close", resolve));
    const result = await run(["check", fifo, "--json"], { cwd: dir });
    await written;
    expect(result.code).toBe(1);
    expect(JSON.parse(result.out).files[0]).toMatchObject({ conversations: 6, unreadableLines: 2 });
  });

  it("/dev/full: no space left on device is reported, exit 2, and the device is still a device", async () => {
    const result = await run(["repair", "mixed.jsonl", "-o", "/dev/full"], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.out).toContain("no space left on device");
    expect((await stat("/dev/full")).isCharacterDevice()).toBe(true);
    expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("/dev/stdout: the repaired bytes on standard output, the report on standard error", async () => {
    const result = await run(["repair", "mixed.jsonl", "-o", "/dev/stdout"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(result.stdout.equals(repairedMixed())).toBe(true);
    expect(result.err).toContain("mixed.jsonl:3  passed through unchanged");
  });

  it("a process substitution, -o >(gzip > out.gz): written into the pipe", async () => {
    const out = join(dir, "substituted.jsonl.gz");
    execFileSync(
      "bash",
      ["-c", `"${process.execPath}" "${bin}" repair mixed.jsonl -o >(gzip > "${out}") --quiet; wait $!`],
      {
        cwd: dir,
        env: cleanEnv(),
      },
    );
    expect(gunzipSync(await readFile(out)).equals(repairedMixed())).toBe(true);
  });

  it("a symbolic link is kept: the file it names is replaced, atomically, in that file's directory", async () => {
    await writeFile(join(dir, "target.jsonl"), "old\n");
    execFileSync("ln", ["-sf", "target.jsonl", join(dir, "link.jsonl")]);
    const result = await run(["repair", "mixed.jsonl", "-o", "link.jsonl", "--quiet"], { cwd: dir });
    expect(result.code).toBe(1);
    expect((await lstat(join(dir, "link.jsonl"))).isSymbolicLink()).toBe(true);
    expect((await readFile(join(dir, "target.jsonl"))).equals(repairedMixed())).toBe(true);
  });

  it("a regular output keeps the mode and owner of the file it replaces", async () => {
    const out = join(dir, "owned.jsonl");
    await writeFile(out, "old\n");
    execFileSync("chmod", ["640", out]);
    const owner = process.getuid?.() === 0 ? 4242 : undefined;
    if (owner !== undefined) execFileSync("chown", [`${owner}:${owner}`, out]);
    const result = await run(["repair", "mixed.jsonl", "-o", out, "--quiet"], { cwd: dir });
    expect(result.code).toBe(1);
    const after = await stat(out);
    expect(after.mode & 0o777).toBe(0o640);
    if (owner !== undefined) expect([after.uid, after.gid]).toEqual([owner, owner]);
    expect((await readFile(out)).equals(repairedMixed())).toBe(true);
  });
});

describe("gzip", () => {
  it("read by its magic bytes whatever the name, written for .gz, and undone from its journal", async () => {
    await writeFile(join(dir, "mixed.gz.data"), gzipSync(mixed()));
    const check = await run(["check", "mixed.gz.data", "--json"], { cwd: dir });
    expect(JSON.parse(check.out).files[0]).toMatchObject({ conversations: 6 });
    const result = await run(
      ["repair", "mixed.gz.data", "-o", "fixed.jsonl.gz", "--journal", "fixed.journal.jsonl", "--quiet"],
      { cwd: dir },
    );
    expect(result.code).toBe(1);
    const written = await readFile(join(dir, "fixed.jsonl.gz"));
    expect(written[0]).toBe(0x1f);
    expect(gunzipSync(written).equals(repairedMixed())).toBe(true);
    const undone = await run(
      ["undo", "fixed.jsonl.gz", "--journal", "fixed.journal.jsonl", "-o", "back.jsonl"],
      { cwd: dir },
    );
    expect(undone.code).toBe(0);
    expect((await readFile(join(dir, "back.jsonl"))).equals(mixed())).toBe(true);
  });

  it("--in-place keeps a gzip file gzipped", async () => {
    await writeFile(join(dir, "inplace.jsonl.gz"), gzipSync(mixed()));
    const result = await run(["repair", "inplace.jsonl.gz", "--in-place", "--quiet"], { cwd: dir });
    expect(result.code).toBe(1);
    expect(gunzipSync(await readFile(join(dir, "inplace.jsonl.gz"))).equals(repairedMixed())).toBe(true);
    expect(gunzipSync(await readFile(join(dir, "inplace.jsonl.gz.bak"))).equals(mixed())).toBe(true);
  });

  it("a gzip stream cut short is unreadable, exit 2, nothing written", async () => {
    const whole = gzipSync(mixed());
    await writeFile(join(dir, "cut.jsonl.gz"), whole.subarray(0, whole.length - 20));
    const result = await run(["repair", "cut.jsonl.gz", "-o", "cut.out"], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.out).toContain("input_unreadable");
    expect((await readdir(dir)).includes("cut.out")).toBe(false);
  });
});

describe("undo refuses what it cannot prove", () => {
  it("a repaired file edited after the repair: nothing written, exit 2", async () => {
    await writeFile(join(dir, "edit.jsonl"), mixed());
    await run(["repair", "edit.jsonl", "-o", "edit.out", "--journal", "edit.journal", "--quiet"], {
      cwd: dir,
    });
    await writeFile(join(dir, "edit.out"), `${await readFile(join(dir, "edit.out"), "utf8")}\n`);
    const result = await run(["undo", "edit.out", "--journal", "edit.journal", "-o", "edit.back"], {
      cwd: dir,
    });
    expect(result.code).toBe(2);
    expect(result.err).toContain("is not the file this journal's repair wrote");
    expect((await readdir(dir)).includes("edit.back")).toBe(false);
  });
});

describe("a line too long to hold", () => {
  const MB = 1 << 20;
  let big: string;
  let bigHash: string;

  beforeAll(async () => {
    // 500 MB of arguments on one line, generated here (never committed).
    big = join(dir, "line500.jsonl");
    const handle = await open(big, "w");
    await handle.write(
      '[{"role":"user","content":"go"},{"role":"assistant","content":null,"tool_calls":[{"id":"a","type":"function","function":{"name":"f","arguments":"```json\\n{\\"text\\": \\"',
    );
    const block = Buffer.alloc(4 * MB, "x");
    for (let i = 0; i < 125; i++) await handle.write(block);
    await handle.write(
      '\\"}\\n```"}}]},{"role":"tool","tool_call_id":"a","content":"ok"}]\n{"messages":[{"role":"user","content":"after"}]}\n',
    );
    await handle.close();
    bigHash = await sha256(big);
  }, 120_000);

  it("--max-line-bytes above what a line may cost is refused with the reason, before anything is read", async () => {
    const result = await run(["repair", "line500.jsonl", "-o", "x.jsonl", "--max-line-bytes", "600MB"], {
      cwd: dir,
    });
    expect(result.code).toBe(2);
    expect(result.err).toContain("--max-line-bytes is at most 256 MiB");
    expect(result.err).toContain("passed through unread (line_too_long), in bounded memory");
  });

  it("500 MB on one line: reported, passed through byte for byte, the next line read; memory bounded by the limit, not the line", async () => {
    const check = await runMeasured(["check", "line500.jsonl", "--quiet", "--max-line-bytes", "32MiB"]);
    expect(check.code).toBe(1);
    // Measured 114 to 150 MB (check) and 156 to 250 MB (repair) at the resident set's peak, by the collector's timing;
    // holding the line whole would take more than its 500 MB.
    expect(check.rssKB).toBeLessThan(250 * 1024);
    const repair = await runMeasured([
      "repair",
      "line500.jsonl",
      "-o",
      "line500.out",
      "--quiet",
      "--max-line-bytes",
      "32MiB",
    ]);
    expect(repair.code).toBe(1);
    expect(repair.rssKB).toBeLessThan(350 * 1024);
    expect(await sha256(join(dir, "line500.out"))).toBe(bigHash);
    await rm(join(dir, "line500.out"));
    // With the default limit (256 MiB), the line is held up to the limit once over, never whole.
    const defaults = await runMeasured(["check", "line500.jsonl", "--quiet"]);
    expect(defaults.code).toBe(1);
    expect(defaults.rssKB).toBeLessThan(450 * 1024);
    const report = await run(["check", "line500.jsonl", "--json", "--max-line-bytes", "32MiB"], { cwd: dir });
    expect(
      JSON.parse(report.out).findings.map((f: { line: number; issues: Array<{ code: string }> }) => [
        f.line,
        f.issues[0]?.code,
      ]),
    ).toEqual([[1, "line_too_long"]]);
  }, 120_000);

  it("a 16 MB line within the limit is repaired in a small multiple of its size", async () => {
    const path = join(dir, "line16.jsonl");
    const payload = "y".repeat(16 * MB);
    await writeFile(
      path,
      `${JSON.stringify([
        {
          role: "assistant",
          content: null,
          tool_calls: [
            {
              id: "a",
              type: "function",
              function: { name: "f", arguments: `\`\`\`json\n{"t": "${payload}"}\n\`\`\`` },
            },
          ],
        },
        { role: "tool", tool_call_id: "a", content: "ok" },
      ])}\n`,
    );
    const idle = await runMeasured(["check", "mixed.jsonl", "--quiet"]);
    // The JavaScript heap is capped at 16 times the line (8 times is enough, 4 is not): the repair must finish inside it, which bounds what it
    // holds alive at once whatever the collector's timing (the collector runs when the cap is near).
    const repair = await runMeasured(
      ["repair", "line16.jsonl", "-o", "line16.out", "--quiet", "--journal", "line16.journal"],
      [`--max-old-space-size=${16 * 16}`],
    );
    expect(repair.err).toBe("");
    expect(repair.code).toBe(0);
    // The line's bytes, its text, the parsed tree, the arguments decoded, repaired, decoded exactly and encoded,
    // the written text and bytes, the journal entry, and the collector's slack: measured at 15 to 27 times the
    // line at the peak of the resident set, which also holds what the collector has not yet given back, so its
    // bound is looser than the heap's (a constant, whatever the line's size; --max-line-bytes caps the line).
    expect(repair.rssKB - idle.rssKB).toBeLessThan(40 * 16 * 1024);
  });
});
