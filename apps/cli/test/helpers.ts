import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { copyFile, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect } from "vitest";

export const root = fileURLToPath(new URL("..", import.meta.url));
/** The built command line: every end-to-end test runs it as a child process, as a user would. */
export const bin = join(root, "dist", "cli.js");
export const fixtures = join(root, "test", "__fixtures__");

if (!existsSync(bin))
  throw new Error(`${bin} is missing: build the command line first (pnpm --filter toolcall build)`);

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
  out: string;
  err: string;
}

/** The environment of a user without color preferences (so reports are plain in pipes). */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  return { ...env, ...extra };
}

interface RunOptions {
  cwd?: string;
  input?: Buffer | string;
  env?: Record<string, string>;
}

/** Runs `toolcall ARGS` in `cwd`, feeding `input` to standard input (or nothing: standard input is closed). */
export function run(args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return runProcess([bin, ...args], options);
}

/** Runs `node ARGV` (a script and its arguments) as `run` runs the command line. */
export function runProcess(argv: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...argv], {
      cwd: options.cwd ?? root,
      env: cleanEnv(options.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => err.push(chunk));
    child.on("error", reject);
    child.on("close", (code, signal) => {
      const stdout = Buffer.concat(out);
      const stderr = Buffer.concat(err);
      resolve({ code, signal, stdout, stderr, out: stdout.toString("utf8"), err: stderr.toString("utf8") });
    });
    child.stdin.on("error", () => {});
    child.stdin.end(options.input ?? "");
  });
}

/** A fresh directory under the OS temp directory. */
export function tempDir(prefix = "toolcall-cli-test-"): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Copies fixtures into `dir` (tests never write into the repository). */
export async function copyFixtures(dir: string, names: readonly string[]): Promise<void> {
  for (const name of names) await copyFile(join(fixtures, name), join(dir, name));
}

/** Byte-exact comparison with a golden file; `UPDATE_GOLDEN=1` rewrites it (review the diff before committing). */
export function expectGolden(name: string, actual: Buffer | string): void {
  const path = join(fixtures, name);
  const bytes = typeof actual === "string" ? Buffer.from(actual, "utf8") : actual;
  if (process.env.UPDATE_GOLDEN === "1" || !existsSync(path)) {
    if (process.env.CI === "true" && !existsSync(path)) throw new Error(`golden file ${name} is missing`);
    writeFileSync(path, bytes);
  }
  const expected = readFileSync(path);
  if (!expected.equals(bytes)) {
    expect(bytes.toString("utf8"), `differs from golden ${name}`).toBe(expected.toString("utf8"));
    expect(bytes.equals(expected), `bytes differ from golden ${name}`).toBe(true);
  }
}
