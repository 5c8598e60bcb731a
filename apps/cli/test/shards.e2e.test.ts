import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ensureDask } from "../../../scripts/ensure-dask.mjs";
import { bin, fixtures, root, run, tempDir } from "./helpers.js";

/**
 * The README's "Sharding on a cluster" recipe, run on a real cluster engine: Dask distributed (Debian's
 * python3-distributed; `pnpm test` installs it as a step of its own, scripts/ensure-dask.mjs) with a scheduler and two
 * worker processes on 127.0.0.1. The corpus is real public data (LLaMA-Factory's glaive sample, one conversation a
 * line, Apache-2.0, packages/datasets/test/__fixtures__) and the command line's mixed sessions (a look-alike of agent
 * logs with malformed calls and a cut line), repeated.
 */

const driver = join(root, "test", "shards", "dask_shards.py");
const repository = join(root, "..", "..");

function corpus(): Buffer {
  const glaive = JSON.parse(
    readFileSync(
      join(repository, "packages", "datasets", "test", "__fixtures__", "glaive_toolcall_en_demo.json"),
      "utf8",
    ),
  ) as unknown[];
  const sessions = readFileSync(join(fixtures, "mixed.jsonl"), "utf8");
  const lines: string[] = [];
  for (let round = 0; round < 4; round++) {
    lines.push(...glaive.map((record) => JSON.stringify(record)));
    lines.push(...sessions.split("\n").filter((line) => line !== ""));
  }
  return Buffer.from(`${lines.join("\n")}\n`);
}

interface ShardReport {
  partitions: Array<{ index: number; exit: number; inputBytes: number; lines: number; error?: string }>;
  workers: number;
  seconds: number;
  corpusBytes: number;
  failed?: number[];
  joined?: string;
  journal?: string;
}

function shard(
  python: string,
  args: string[],
): Promise<{ code: number | null; report: ShardReport; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(python, [driver, "--toolcall", bin, ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (chunk) => {
      out += chunk;
    });
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      try {
        resolve({ code, report: JSON.parse(out.trim().split("\n").at(-1) ?? "") as ShardReport, err });
      } catch {
        reject(new Error(`the driver printed no report (exit ${code}):\n${out}\n${err}`));
      }
    });
  });
}

describe("toolcall repair sharded on a Dask cluster", () => {
  it("gives the single-machine output and journal byte for byte, and undo restores every shard", async (context) => {
    const dask = ensureDask();
    if (!dask.ok) return context.skip(dask.reason);
    const work = await tempDir("toolcall-dask-");
    const input = corpus();
    writeFileSync(join(work, "corpus.jsonl"), input);

    const single = await run(
      ["repair", "corpus.jsonl", "-o", "single.jsonl", "--journal", "single.journal", "--quiet"],
      { cwd: work },
    );
    expect(single.code === 0 || single.code === 1, single.err).toBe(true);

    const sharded = await shard(dask.python, [
      "--corpus",
      join(work, "corpus.jsonl"),
      "--work",
      join(work, "shards"),
      "--partitions",
      "6",
    ]);
    expect(sharded.code, sharded.err).toBe(0);
    const { report } = sharded;
    expect(report.partitions).toHaveLength(6);
    expect(report.workers).toBe(2);
    expect(report.partitions.reduce((sum, p) => sum + p.inputBytes, 0)).toBe(input.length);
    expect(readFileSync(report.joined ?? "")).toEqual(readFileSync(join(work, "single.jsonl")));
    expect(readFileSync(report.journal ?? "", "utf8")).toBe(
      readFileSync(join(work, "single.journal"), "utf8"),
    );
    const changed = readFileSync(join(work, "single.journal"), "utf8").trim().split("\n").length - 1;
    expect(changed).toBeGreaterThan(10);

    for (const partition of report.partitions) {
      const name = `part-${String(partition.index).padStart(3, "0")}`;
      const undone = await run(
        ["undo", `${name}.fixed.jsonl`, "--journal", `${name}.journal`, "-o", `${name}.restored.jsonl`],
        { cwd: join(work, "shards") },
      );
      expect(undone.code, undone.err).toBe(0);
      expect(readFileSync(join(work, "shards", `${name}.restored.jsonl`))).toEqual(
        readFileSync(join(work, "shards", `${name}.jsonl`)),
      );
    }
    const whole = await run(
      ["undo", report.joined ?? "", "--journal", report.journal ?? "", "-o", join(work, "restored.jsonl")],
      { cwd: work },
    );
    expect(whole.code, whole.err).toBe(0);
    expect(readFileSync(join(work, "restored.jsonl"))).toEqual(input);
    console.log(
      `dask: ${report.corpusBytes} bytes in ${report.partitions.length} partitions on ${report.workers} workers, ${report.seconds.toFixed(2)} s`,
    );
  }, 300_000);

  it("reports a failing partition by its number, joins nothing, and loses nothing", async (context) => {
    const dask = ensureDask();
    if (!dask.ok) return context.skip(dask.reason);
    const work = await tempDir("toolcall-dask-fail-");
    const input = corpus();
    writeFileSync(join(work, "corpus.jsonl"), input);
    const { code, report } = await shard(dask.python, [
      "--corpus",
      join(work, "corpus.jsonl"),
      "--work",
      join(work, "shards"),
      "--partitions",
      "4",
      "--fail-partition",
      "2",
    ]);
    expect(code).toBe(1);
    expect(report.failed).toEqual([2]);
    expect(report.partitions.find((p) => p.index === 2)?.error).toMatch(/journal|missing-directory|ENOENT/i);
    expect(report.joined).toBeUndefined();
    expect(readFileSync(join(work, "corpus.jsonl"))).toEqual(input);
    for (const index of [0, 1, 3])
      expect(readFileSync(join(work, "shards", `part-00${index}.fixed.jsonl`)).length).toBeGreaterThan(0);
  }, 300_000);
});
