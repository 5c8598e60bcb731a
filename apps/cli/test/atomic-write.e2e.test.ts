import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { open, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bin, cleanEnv, tempDir } from "./helpers.js";

// A 200 MB JSONL session dump in a temp directory: every line needs a repair, so the output streams the whole time.
const TARGET_BYTES = 200 * 1000 * 1000;
let dir: string;
let input: string;
let inputHash: string;

function sha256(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(path)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}

async function generate(path: string): Promise<void> {
  const line = `${JSON.stringify([
    { role: "user", content: "Summarize the file. ".repeat(40) },
    {
      role: "assistant",
      content: null,
      tool_calls: [
        {
          id: "c1",
          type: "function",
          function: { name: "read_file", arguments: '```json\n{"path": "README.md"}\n```' },
        },
      ],
    },
    { role: "tool", tool_call_id: "c1", content: "# toolcall\n".repeat(60) },
  ])}\n`;
  const block = Buffer.from(line.repeat(Math.ceil((8 << 20) / line.length)));
  const handle = await open(path, "w");
  for (let written = 0; written < TARGET_BYTES; written += block.length) await handle.write(block);
  await handle.close();
}

/** Starts a repair and sends `signal` once its temporary output holds at least `bytes`. */
async function interrupt(args: string[], signal: NodeJS.Signals, bytes = 4 << 20) {
  const child = spawn(process.execPath, [bin, ...args], {
    cwd: dir,
    env: cleanEnv(),
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, received) => resolve({ code, signal: received })),
  );
  let sent = false;
  // Polls until the output has grown enough or the repair has ended; a repair that never writes fails the test at
  // its timeout, not at a deadline read from a clock.
  while (!sent) {
    const temporary = (await readdir(dir)).filter((name) => name.endsWith(".tmp"));
    for (const name of temporary) {
      const size = await stat(join(dir, name)).then(
        (s) => s.size,
        () => 0,
      );
      if (size >= bytes) {
        child.kill(signal);
        sent = true;
        break;
      }
    }
    if (child.exitCode !== null) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(sent, "the repair was interrupted while it was writing").toBe(true);
  return exited;
}

beforeAll(async () => {
  dir = await tempDir("toolcall-cli-atomic-");
  input = join(dir, "dump.jsonl");
  await generate(input);
  inputHash = await sha256(input);
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("atomic output", () => {
  it("SIGKILL mid-write leaves the input and an existing output intact, and no partial output", async () => {
    await writeFile(join(dir, "out.jsonl"), "the previous output\n");
    const killed = await interrupt(["repair", "dump.jsonl", "-o", "out.jsonl", "--quiet"], "SIGKILL");
    expect(killed.signal).toBe("SIGKILL");
    expect(await readFile(join(dir, "out.jsonl"), "utf8")).toBe("the previous output\n");
    expect(await sha256(input)).toBe(inputHash);
    // A killed process cannot clean up: its temporary file stays beside the output, never in its place.
    const left = (await readdir(dir)).filter((name) => name.endsWith(".tmp"));
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^\.out\.jsonl\.toolcall-\d+-[0-9a-f]{8}\.tmp$/);
    await rm(join(dir, left[0] as string));

    const fresh = await interrupt(["repair", "dump.jsonl", "-o", "new.jsonl", "--quiet"], "SIGKILL");
    expect(fresh.signal).toBe("SIGKILL");
    expect(existsSync(join(dir, "new.jsonl"))).toBe(false);
    for (const name of (await readdir(dir)).filter((n) => n.endsWith(".tmp"))) await rm(join(dir, name));
  });

  it("SIGTERM mid-write removes the temporary file and exits 143; the output is untouched", async () => {
    await writeFile(join(dir, "out.jsonl"), "the previous output\n");
    const stopped = await interrupt(["repair", "dump.jsonl", "-o", "out.jsonl"], "SIGTERM");
    expect(stopped.code).toBe(143);
    expect(await readFile(join(dir, "out.jsonl"), "utf8")).toBe("the previous output\n");
    expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
  });

  it("SIGINT (Ctrl-C) mid-write removes the temporary output and journal and exits 130", async () => {
    await writeFile(join(dir, "out.jsonl"), "the previous output\n");
    const stopped = await interrupt(
      ["repair", "dump.jsonl", "-o", "out.jsonl", "--journal", "out.journal.jsonl", "--quiet"],
      "SIGINT",
    );
    expect(stopped.code).toBe(130);
    expect(await readFile(join(dir, "out.jsonl"), "utf8")).toBe("the previous output\n");
    expect(existsSync(join(dir, "out.journal.jsonl"))).toBe(false);
    expect((await readdir(dir)).filter((name) => name.endsWith(".tmp"))).toEqual([]);
    expect(await sha256(input)).toBe(inputHash);
  });

  it("--in-place killed mid-write leaves the input as it was and makes no backup", async () => {
    const killed = await interrupt(["repair", "dump.jsonl", "--in-place", "--quiet"], "SIGKILL");
    expect(killed.signal).toBe("SIGKILL");
    expect(await sha256(input)).toBe(inputHash);
    expect(existsSync(`${input}.bak`)).toBe(false);
    for (const name of (await readdir(dir)).filter((n) => n.endsWith(".tmp"))) await rm(join(dir, name));
  });
});
