import { spawn } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, cleanEnv, tempDir } from "./helpers.js";

// A gzip bomb of newlines: 64 KiB on disk, 64 MiB of blank lines once read. Each blank line used to be held as an
// object of its own while the framing was undecided (16 MiB of newlines peaked at 4.4 GB; 64 MiB aborted). The
// process now runs with a 64 MiB heap: holding even a few bytes of object per line would not fit (64 Mi lines), so
// finishing at all shows that lines are not held one by one. What is held is counted in scan-input.test.ts.

let dir: string;
beforeAll(async () => {
  dir = await tempDir("toolcall-cli-blank-");
  await writeFile(
    join(dir, "newlines.jsonl.gz"),
    gzipSync(Buffer.alloc(64 * 1024 * 1024, "\n"), { level: 9 }),
  );
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function runSmallHeap(args: string[]): Promise<{ code: number | null; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--max-old-space-size=64", bin, ...args], {
      cwd: dir,
      env: cleanEnv(),
      stdio: ["ignore", "ignore", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (chunk) => {
      err += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, err }));
  });
}

describe("blank lines are never held one by one", () => {
  it("check: 64 MiB of newlines from a 64 KiB gzip, in a 64 MiB heap, exit 0", async () => {
    const result = await runSmallHeap(["check", "newlines.jsonl.gz", "--quiet"]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
  }, 120_000);

  it("repair: the same, written back byte for byte", async () => {
    const result = await runSmallHeap(["repair", "newlines.jsonl.gz", "-o", "out.jsonl", "--quiet"]);
    expect(result.err).toBe("");
    expect(result.code).toBe(0);
    const out = await readFile(join(dir, "out.jsonl"));
    expect(out.length).toBe(64 * 1024 * 1024);
    expect(out.every((byte) => byte === 10)).toBe(true);
  }, 120_000);
});
