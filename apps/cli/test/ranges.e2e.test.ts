import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { root, run, tempDir } from "./helpers.js";

// Workers read and write their own byte ranges of a JSONL file: the output, the journal and the report must be the
// ones a single thread gives, wherever the range boundaries fall (inside a line, between \r and \n, inside the
// byte-order mark, in a line longer than a range, at a last line without a newline).
const packages = join(root, "..", "..", "packages");
const REAL = [
  join(root, "test", "__fixtures__", "mixed.jsonl"),
  join(root, "test", "__fixtures__", "doors", "repros.jsonl"),
  join(packages, "openai", "test", "formats", "__fixtures__", "chat-requests.jsonl"),
  join(packages, "openai", "test", "formats", "__fixtures__", "chat-completions.jsonl"),
  join(packages, "datasets", "test", "__fixtures__", "reason_tool_use_demo_50.jsonl"),
];

/**
 * The real lines, with a whole data set on one line (a JSONL line holding an array of records) among them; `small`:
 * the first lines of each file only (for ranges of a few bytes).
 */
async function realLines(small = false): Promise<Buffer> {
  const parts = (await Promise.all(REAL.map((path) => readFile(path)))).map((part) => {
    if (!small) return part;
    let end = 0;
    for (let line = 0; line < 2 && end !== -1 && end < part.length; line++)
      end = part.indexOf(0x0a, end) + 1 || -1;
    return end === -1 ? part : part.subarray(0, end);
  });
  const glaive = JSON.parse(
    await readFile(
      join(packages, "datasets", "test", "__fixtures__", "glaive_toolcall_en_demo.json"),
      "utf8",
    ),
  ) as unknown[];
  // The array holds a record that repair rewrites (line 2 of mixed.jsonl: arguments in a Markdown fence).
  const fenced = JSON.parse((parts[0] as Buffer).toString("utf8").split("\n")[1] as string) as unknown;
  const arrayLine = Buffer.from(`${JSON.stringify([glaive[0], fenced, glaive[1]])}\n`);
  const joined = parts.map((part) =>
    part.at(-1) === 0x0a ? part : Buffer.concat([part, Buffer.from("\n")]),
  );
  return Buffer.concat([joined[0] as Buffer, arrayLine, ...joined.slice(1)]);
}

interface Variant {
  name: string;
  bytes: Buffer;
}

async function variants(small: boolean): Promise<Variant[]> {
  const lines = await realLines(small);
  const crlf = Buffer.from(lines.toString("latin1").replaceAll("\n", "\r\n"), "latin1");
  const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), lines]);
  const noFinalNewline = lines.subarray(0, lines.length - 1);
  return [
    { name: "lf", bytes: lines },
    { name: "crlf", bytes: crlf },
    { name: "bom", bytes: bom },
    { name: "no-final-newline", bytes: noFinalNewline },
  ];
}

/** One run's output, journal and report, with the run's own file names taken out. */
async function repairRun(options: {
  dir: string;
  input: string;
  tag: string;
  args: string[];
  env?: Record<string, string>;
}) {
  const { dir, tag } = options;
  const result = await run(
    [
      "repair",
      options.input,
      "-o",
      `out.${tag}.jsonl`,
      "--journal",
      `out.${tag}.journal`,
      "--json",
      ...options.args,
    ],
    { cwd: dir, ...(options.env ? { env: options.env } : {}) },
  );
  return {
    code: result.code,
    report: result.out.replaceAll(`out.${tag}.`, "out.N."),
    err: result.err,
    output: await readFile(join(dir, `out.${tag}.jsonl`)),
    journal: await readFile(join(dir, `out.${tag}.journal`), "utf8"),
  };
}

function workLines(err: string): Array<{
  ranges: number;
  mainThreadBytesRead: number;
  workerCpuSeconds?: number[];
  mainThreadCpuSeconds?: number;
}> {
  return [...err.matchAll(/^toolcall work: (.*)$/gm)].map((match) => JSON.parse(match[1] as string));
}

describe("--jobs N: workers read and write their own byte ranges", () => {
  it("gives the bytes, journal and report of --jobs 1 on real files, wherever the boundaries fall", {
    timeout: 300_000,
  }, async () => {
    const dir = await tempDir();
    for (const [variant, small] of [
      ...(await variants(true)).map((variant) => [variant, true] as const),
      ...(await variants(false)).map((variant) => [variant, false] as const),
    ]) {
      const input = `${variant.name}.jsonl`;
      await writeFile(join(dir, input), variant.bytes);
      const one = await repairRun({ dir, input, tag: `${variant.name}.1`, args: ["--jobs", "1"] });
      expect(one.code, one.err).not.toBe(2);
      expect(one.journal).toContain('"place":"record 1"');
      const checkOne = await run(["check", input, "--json", "--jobs", "1"], { cwd: dir });
      // Boundaries inside the byte-order mark and every line's terminator (1, 2, 3 bytes), inside lines (97), and
      // ranges shorter than most lines, so a line runs through several.
      const sizes = small
        ? ([
            ["2", "1"],
            ["3", "3"],
          ] as const)
        : ([
            ["3", "97"],
            ["2", "4096"],
          ] as const);
      for (const [jobs, rangeBytes] of sizes) {
        const env = { TOOLCALL_RANGE_BYTES: rangeBytes, TOOLCALL_WORK_REPORT: "1" };
        const tag = `${variant.name}.${jobs}.${rangeBytes}`;
        const many = await repairRun({ dir, input, tag, args: ["--jobs", jobs], env });
        const where = `${variant.name}, --jobs ${jobs}, ranges of ${rangeBytes} bytes`;
        expect(many.code, where).toBe(one.code);
        expect(many.output.equals(one.output), where).toBe(true);
        expect(many.journal, where).toBe(one.journal);
        expect(many.report, where).toBe(one.report);
        const [work] = workLines(many.err);
        // The main thread read the input only to hash it for the journal's trailer, once.
        expect(work?.ranges, where).toBe(Math.ceil(variant.bytes.length / Number(rangeBytes)));
        expect(work?.mainThreadBytesRead, where).toBe(variant.bytes.length);
        // CPU by thread for the bench (Linux): the main thread's, and one figure per worker.
        if (process.platform === "linux") {
          expect(work?.workerCpuSeconds?.length, where).toBe(Number(jobs));
          expect(typeof work?.mainThreadCpuSeconds, where).toBe("number");
        }
        const check = await run(["check", input, "--json", "--jobs", jobs], { cwd: dir, env });
        expect(check.code, where).toBe(checkOne.code);
        expect(check.out, where).toBe(checkOne.out);
        expect(workLines(check.err)[0]?.mainThreadBytesRead, where).toBe(0);
      }
      const [jobs, rangeBytes] = sizes[1];
      const undone = await run(
        [
          "undo",
          `out.${variant.name}.${jobs}.${rangeBytes}.jsonl`,
          "--journal",
          `out.${variant.name}.${jobs}.${rangeBytes}.journal`,
          "-o",
          "-",
        ],
        { cwd: dir },
      );
      expect(undone.code, undone.err).toBe(0);
      expect(undone.stdout.equals(variant.bytes)).toBe(true);
    }
  });

  it("passes a line longer than --max-line-bytes through as a range of the input, never held", async () => {
    const dir = await tempDir();
    const lines = await realLines();
    // One line of 200 KB (a real record with a long tool result) between real lines, read in 1 KB ranges.
    const record = JSON.parse((await readFile(REAL[2] as string, "utf8")).split("\n")[0] as string) as {
      messages: Array<{ role: string; content: unknown }>;
    };
    record.messages.push({ role: "user", content: "x".repeat(200_000) });
    const input = Buffer.concat([lines, Buffer.from(`${JSON.stringify(record)}\n`), lines]);
    await writeFile(join(dir, "long.jsonl"), input);
    const args = ["--max-line-bytes", "100000"];
    const one = await repairRun({ dir, input: "long.jsonl", tag: "1", args: [...args, "--jobs", "1"] });
    expect(one.report).toContain("line_too_long");
    const env = { TOOLCALL_RANGE_BYTES: "1024", TOOLCALL_WORK_REPORT: "1" };
    const two = await repairRun({ dir, input: "long.jsonl", tag: "2", args: [...args, "--jobs", "2"], env });
    expect(two.output.equals(one.output)).toBe(true);
    expect(two.journal).toBe(one.journal);
    expect(two.report).toBe(one.report);
  });

  it("--in-place with workers: the file is replaced by what --jobs 1 writes, and undo gives every byte back", async () => {
    const dir = await tempDir();
    const lines = await realLines();
    await writeFile(join(dir, "one.jsonl"), lines);
    await writeFile(join(dir, "two.jsonl"), lines);
    const one = await run(
      ["repair", "one.jsonl", "--in-place", "--journal", "one.journal", "--jobs", "1", "--quiet"],
      {
        cwd: dir,
      },
    );
    const env = { TOOLCALL_RANGE_BYTES: "500", TOOLCALL_WORK_REPORT: "1" };
    const two = await run(
      ["repair", "two.jsonl", "--in-place", "--journal", "two.journal", "--jobs", "2", "--quiet"],
      {
        cwd: dir,
        env,
      },
    );
    expect(two.code).toBe(one.code);
    expect(workLines(two.err)[0]?.ranges).toBe(Math.ceil(lines.length / 500));
    expect((await readFile(join(dir, "two.jsonl"))).equals(await readFile(join(dir, "one.jsonl")))).toBe(
      true,
    );
    expect((await readFile(join(dir, "two.journal"), "utf8")).replace(/"name":"two.jsonl"/, "")).toBe(
      (await readFile(join(dir, "one.journal"), "utf8")).replace(/"name":"one.jsonl"/, ""),
    );
    const undone = await run(["undo", "two.jsonl", "--journal", "two.journal", "--in-place", "--quiet"], {
      cwd: dir,
    });
    expect(undone.code, undone.err).toBe(0);
    expect((await readFile(join(dir, "two.jsonl"))).equals(lines)).toBe(true);
  });

  it("keeps the one-pass path for standard input, gzip and -o -, with the same bytes", async () => {
    const dir = await tempDir();
    const lines = await realLines();
    await writeFile(join(dir, "in.jsonl"), lines);
    const env = { TOOLCALL_RANGE_BYTES: "64", TOOLCALL_WORK_REPORT: "1" };
    const ranged = await run(["repair", "in.jsonl", "-o", "ranged.jsonl", "--jobs", "2", "--quiet"], {
      cwd: dir,
      env,
    });
    const toStdout = await run(["repair", "in.jsonl", "-o", "-", "--jobs", "2", "--quiet"], {
      cwd: dir,
      env,
    });
    const fromStdin = await run(["repair", "-", "-o", "-", "--jobs", "2", "--quiet"], {
      cwd: dir,
      env,
      input: lines,
    });
    expect(workLines(ranged.err)[0]?.ranges).toBeGreaterThan(1);
    expect(workLines(toStdout.err)[0]?.ranges).toBe(0);
    expect(workLines(fromStdin.err)[0]?.ranges).toBe(0);
    await writeFile(join(dir, "in.jsonl.gz"), gzipSync(lines));
    const gzipped = await run(["repair", "in.jsonl.gz", "-o", "-", "--jobs", "2", "--quiet"], {
      cwd: dir,
      env,
    });
    expect(workLines(gzipped.err)[0]?.ranges).toBe(0);
    expect(gzipped.stdout.equals(await readFile(join(dir, "ranged.jsonl")))).toBe(true);
    const written = await readFile(join(dir, "ranged.jsonl"));
    expect(toStdout.stdout.equals(written)).toBe(true);
    expect(fromStdin.stdout.equals(written)).toBe(true);
  });
});
