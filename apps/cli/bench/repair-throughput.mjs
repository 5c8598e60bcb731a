#!/usr/bin/env node
// Benchmark (not part of the tests): `toolcall repair` and `check` on a generated JSONL dump, side by side with the
// floor (a bare streaming read + JSON.parse + JSON.stringify + write pass over the same file, bench/floor.mjs), with
// every job count from 1 to one per core (and one more). All run as child processes, alternately, on the same file
// (in the page cache after generation). Reports a table of ratios, each against its target (a miss prints MISS):
// repair --jobs 2 over --jobs 1 (target >= 1.7x on 2 cores, under 300 MB), N jobs per core over the floor (target
// >= 0.9x), and the command line's peak memory (target < 300 MB).
//
//   npm run bench                 1 GB (the default)
//   npm run bench -- --size 10GB  the full claim (needs the disk space; the file is deleted after)
//   npm run bench -- --size 200MB --rounds 3
//   npm run bench -- --size 50MB --generate-only /tmp/sessions.jsonl   only write the input (for a CPU profile)
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { open } from "node:fs/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "dist", "cli.js");
const floor = join(here, "floor.mjs");
if (!existsSync(bin)) {
  console.error(`${bin} is missing: build first (npm run build)`);
  process.exit(2);
}

// pnpm hands a `--` separator through to the script (npm drops it): it is not an argument.
const { values } = parseArgs({
  args: process.argv.slice(2).filter((argument) => argument !== "--"),
  options: {
    size: { type: "string" },
    rounds: { type: "string" },
    jobs: { type: "string" },
    "generate-only": { type: "string" },
  },
});
function parseSize(text) {
  const match = /^(\d+(?:\.\d+)?)\s*(kb|mb|gb)?$/i.exec(text);
  if (!match) throw new Error(`--size: ${text}`);
  const unit = { kb: 1e3, mb: 1e6, gb: 1e9 }[(match[2] ?? "").toLowerCase()] ?? 1;
  return Math.round(Number(match[1]) * unit);
}
const size = parseSize(values.size ?? "1GB");
const rounds = Number(values.rounds ?? 2);
const cores = Number(values.jobs ?? availableParallelism());

// A deterministic pseudo-random generator, so every run measures the same file.
let seed = 20260707;
const random = () => {
  seed = (seed * 1103515245 + 12345) & 0x7fffffff;
  return seed / 0x7fffffff;
};
const pick = (items) => items[Math.floor(random() * items.length)];

const WORDS =
  "the model calls a tool with arguments that a strict provider checks before it answers each request again".split(
    " ",
  );
const text = (words) => Array.from({ length: words }, () => pick(WORDS)).join(" ");
const GOOD = [
  () => JSON.stringify({ city: pick(["Paris", "Tokyo", "Osaka", "Lima"]), unit: pick(["c", "f"]) }),
  () => JSON.stringify({ path: `src/${pick(["a", "b", "c"])}.py`, content: text(80) }),
  () => JSON.stringify({ command: `pytest -q tests/test_${pick(["x", "y"])}.py` }),
  () => JSON.stringify({ query: text(8), limit: Math.floor(random() * 50) }),
  () => "{}",
];
// Kinds captured in public bug reports (see ../shared/wild/payloads.json).
const BAD = [
  () => `\`\`\`json\n${JSON.stringify({ city: "paris" })}\n\`\`\``,
  () => "{\"paths\": ['*.py']}",
  () => "null",
  () => "",
  () => '{"category":"research"}{"category":"research"}',
  () => '{"value": ',
  () => '"{\\"a\\":3,\\"b\\":4}"',
  () => '[{"mode": "replace", "path": "config.yaml"}]',
  () => '{"command": "ls"}</tool_call>',
];

function session(id) {
  const messages = [{ role: "system", content: `You are a coding agent. ${text(30)}` }];
  const turns = 1 + Math.floor(random() * 6);
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ role: "user", content: text(10 + Math.floor(random() * 60)) });
    const calls = Math.floor(random() * 4);
    const ids = [];
    const toolCalls = [];
    for (let k = 0; k < calls; k++) {
      const callId = `call_${id}_${turn}_${k}`;
      ids.push(callId);
      const args = random() < 0.05 ? pick(BAD)() : pick(GOOD)();
      toolCalls.push({
        id: callId,
        type: "function",
        function: { name: pick(["get_weather", "edit_file", "run", "search"]), arguments: args },
      });
    }
    if (toolCalls.length > 0) messages.push({ role: "assistant", content: null, tool_calls: toolCalls });
    for (const callId of ids)
      if (random() > 0.02)
        messages.push({ role: "tool", tool_call_id: callId, content: text(20 + Math.floor(random() * 300)) });
    messages.push({ role: "assistant", content: text(20 + Math.floor(random() * 120)) });
  }
  return { id: `s${id}`, model: "qwen3-coder", reward: Math.round(random() * 1000) / 1000, messages };
}

async function generate(path) {
  // 2,000 distinct sessions, written in a random order until the size is reached; 1 line in 500 is cut off.
  const lines = Array.from({ length: 2000 }, (_, i) => {
    const line = JSON.stringify(session(i));
    return random() < 0.002 ? line.slice(0, Math.floor(line.length / 2)) : line;
  });
  const handle = await open(path, "w");
  let written = 0;
  let count = 0;
  while (written < size) {
    const parts = [];
    let bytes = 0;
    while (bytes < 8 << 20 && written + bytes < size) {
      const line = `${pick(lines)}\n`;
      parts.push(line);
      bytes += Buffer.byteLength(line);
      count++;
    }
    await handle.write(parts.join(""));
    written += bytes;
  }
  await handle.close();
  return { bytes: written, lines: count };
}

const timeAvailable = existsSync("/usr/bin/time");

function measure(args) {
  return new Promise((resolve, reject) => {
    const command = timeAvailable ? "/usr/bin/time" : process.execPath;
    const argv = timeAvailable ? ["-v", process.execPath, ...args] : args;
    const started = performance.now();
    const child = spawn(command, argv, {
      stdio: ["ignore", "ignore", "pipe"],
      // The work report gives the CPU seconds of the main thread and of each worker (Linux).
      env: { ...process.env, NO_COLOR: "1", TOOLCALL_WORK_REPORT: "1" },
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      const seconds = (performance.now() - started) / 1000;
      const rss = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const reported = /"maxRSS":(\d+)/.exec(stderr);
      const maxRssKb = rss ? Number(rss[1]) : reported ? Number(reported[1]) : Number.NaN;
      // CPU seconds of every thread (user + system): what the run cost, whatever else the machine was doing.
      const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
      const system = /System time \(seconds\): ([\d.]+)/.exec(stderr);
      const cpuSeconds = user && system ? Number(user[1]) + Number(system[1]) : Number.NaN;
      const work = /^toolcall work: (.*)$/m.exec(stderr);
      const threads = work ? JSON.parse(work[1]) : {};
      resolve({
        code,
        seconds,
        cpuSeconds,
        mainCpuSeconds: threads.mainThreadCpuSeconds ?? Number.NaN,
        workerCpuSeconds: threads.workerCpuSeconds ?? [],
        maxRssMb: maxRssKb / 1024,
        stderr,
      });
    });
  });
}

if (values["generate-only"] !== undefined) {
  const generated = await generate(values["generate-only"]);
  console.log(`generated ${(generated.bytes / 1e6).toFixed(0)} MB, ${generated.lines} conversations`);
  process.exit(0);
}

const loadText = () =>
  loadavg()
    .map((load) => load.toFixed(1))
    .join(" ");
// What a run would take on idle cores, from its CPU alone: no faster than its busiest thread (a worker, or the main
// thread with the garbage collector's helpers and I/O beside it), nor than all its CPU shared by the cores.
const idleSeconds = (r) =>
  Math.max(
    r.workerCpuSeconds.length === 0 ? r.mainCpuSeconds : Math.max(r.mainCpuSeconds, ...r.workerCpuSeconds),
    r.cpuSeconds / Math.max(2, cores),
  );
const loads = [];

const dir = mkdtempSync(join(tmpdir(), "toolcall-bench-"));
const input = join(dir, "sessions.jsonl");
try {
  const started = performance.now();
  const generated = await generate(input);
  const mb = generated.bytes / 1e6;
  console.log(
    `generated ${mb.toFixed(0)} MB, ${generated.lines.toLocaleString("en-US")} conversations in ${((performance.now() - started) / 1000).toFixed(1)} s (${input})`,
  );
  // Scaling from 1 to N jobs: every job count up to one per core (at least 2), and one past it.
  const jobCounts = [
    ...new Set([...Array.from({ length: Math.max(2, cores) }, (_, i) => i + 1), Math.max(2, cores) + 1]),
  ];
  const results = { floor: [], checkOne: [], checkMany: [] };
  for (const jobs of jobCounts) results[`repair${jobs}`] = [];
  const repair = async (jobs) => {
    const r = await measure([
      bin,
      "repair",
      input,
      "-o",
      join(dir, "repaired.jsonl"),
      "--quiet",
      "--jobs",
      String(jobs),
    ]);
    // Exit 1: written, with the cut-off lines passed through (as generated).
    if (r.code !== 0 && r.code !== 1) throw new Error(`repair failed (${r.code}): ${r.stderr}`);
    rmSync(join(dir, "repaired.jsonl"), { force: true });
    return r;
  };
  const check = async (jobs) => {
    const c = await measure([bin, "check", input, "--quiet", "--jobs", String(jobs)]);
    if (c.code !== 0 && c.code !== 1) throw new Error(`check exited ${c.code}: ${c.stderr}`);
    return c;
  };
  const rate = (r) => `${(mb / r.seconds).toFixed(0)} MB/s`;
  for (let round = 1; round <= rounds; round++) {
    const f = await measure([floor, input, join(dir, "floor.jsonl")]);
    if (f.code !== 0) throw new Error(`floor failed: ${f.stderr}`);
    rmSync(join(dir, "floor.jsonl"), { force: true });
    results.floor.push(f);
    loads.push(loadavg()[0]);
    const line = [`round ${round} (load ${loadText()}): floor ${rate(f)}`];
    for (const jobs of jobCounts) {
      const r = await repair(jobs);
      results[`repair${jobs}`].push(r);
      line.push(`repair --jobs ${jobs} ${rate(r)} (peak ${r.maxRssMb.toFixed(0)} MB)`);
    }
    const checkOne = await check(1);
    const checkMany = await check(cores);
    results.checkOne.push(checkOne);
    results.checkMany.push(checkMany);
    line.push(`check --jobs 1 ${rate(checkOne)}, --jobs ${cores} ${rate(checkMany)}`);
    console.log(line.join("; "));
  }
  const best = (list) => list.reduce((a, b) => (a.seconds <= b.seconds ? a : b));
  const f = best(results.floor);
  const one = best(results.repair1);
  const two = best(results.repair2);
  const many = best(results[`repair${cores}`] ?? results.repair2);
  const checkOne = best(results.checkOne);
  const checkMany = best(results.checkMany);
  const peakOf = (list) => Math.max(...list.map((x) => x.maxRssMb));
  const twoPeak = peakOf(results.repair2);
  const perCore = f.seconds / many.seconds / cores;
  const row = (name, value, target, ok) =>
    console.log(
      `${name.padEnd(30)} ${value.padEnd(34)} ${target.padEnd(44)} ${ok === undefined ? "" : ok ? "ok" : "MISS"}`,
    );
  console.log("");
  console.log(
    `input: ${mb.toFixed(0)} MB JSONL, ${cores} cores, best of ${rounds} rounds; ratios of wall time (CPU: user + system seconds of every thread, which a loaded machine changes little)`,
  );
  console.log(
    `load (1 min) at each round: ${loads.map((load) => load.toFixed(1)).join(", ")} on ${availableParallelism()} cores${Math.max(...loads) > availableParallelism() / 2 ? " (busy: wall-time ratios understate scaling)" : ""}`,
  );
  row("door", "measured", "target", undefined);
  row(
    "floor (1 thread)",
    `${(mb / f.seconds).toFixed(0)} MB/s, peak ${f.maxRssMb.toFixed(0)} MB`,
    "",
    undefined,
  );
  for (const jobs of jobCounts) {
    const r = best(results[`repair${jobs}`]);
    row(
      `repair --jobs ${jobs}`,
      `${(mb / r.seconds).toFixed(0)} MB/s, ${(one.seconds / r.seconds).toFixed(2)}x --jobs 1`,
      `peak ${peakOf(results[`repair${jobs}`]).toFixed(0)} MB, CPU ${(r.cpuSeconds / one.cpuSeconds).toFixed(2)}x --jobs 1`,
      undefined,
    );
    // Where the CPU went: the main thread (reading, splitting, writing at --jobs 1; merging beside workers), each
    // worker, and the rest (the garbage collector's helper threads, file I/O).
    const workers = r.workerCpuSeconds.reduce((a, b) => a + b, 0);
    row(
      "  CPU by thread",
      `main ${r.mainCpuSeconds.toFixed(2)} s (${((r.mainCpuSeconds * 1000) / mb).toFixed(1)} ms/MB)`,
      `workers ${r.workerCpuSeconds.map((x) => x.toFixed(2)).join(" + ") || "-"} s, other ${(r.cpuSeconds - r.mainCpuSeconds - workers).toFixed(2)} s`,
      undefined,
    );
  }
  const speedup = one.seconds / two.seconds;
  row(
    "CLI repair --jobs 2",
    `${speedup.toFixed(2)}x --jobs 1, peak ${twoPeak.toFixed(0)} MB`,
    ">= 1.7x --jobs 1, under 300 MB",
    speedup >= 1.7 && twoPeak < 300,
  );
  // On a machine others load, wall time cannot show two cores: the same ratio from CPU seconds, as idle cores give it.
  const idle = idleSeconds(one) / idleSeconds(two);
  row(
    "CLI repair --jobs 2, idle cores",
    `${idle.toFixed(2)}x --jobs 1 (from CPU by thread)`,
    ">= 1.7x --jobs 1",
    Number.isFinite(idle) ? idle >= 1.7 : undefined,
  );
  row("CLI repair --jobs 1 / floor", `${(f.seconds / one.seconds).toFixed(2)}x`, "", undefined);
  row(`CLI repair per core / floor`, `${perCore.toFixed(2)}x`, ">= 0.9x", perCore >= 0.9);
  row(
    `CLI check --jobs ${cores}`,
    `${(checkOne.seconds / checkMany.seconds).toFixed(2)}x --jobs 1`,
    "",
    undefined,
  );
  // Up to one job per core (a job count past the cores only shows that it gains nothing).
  const counted = jobCounts
    .filter((jobs) => jobs <= Math.max(2, cores))
    .map((jobs) => results[`repair${jobs}`]);
  const peak = Math.max(
    ...[results.floor, results.checkOne, results.checkMany, ...counted].flat().map((x) => x.maxRssMb),
  );
  row(
    `peak memory (toolcall, 1 to ${Math.max(2, cores)} jobs)`,
    `${peak.toFixed(0)} MB (${timeAvailable ? "/usr/bin/time -v" : "resourceUsage"})`,
    "under 300 MB",
    peak < 300,
  );
  process.exitCode = speedup >= 1.7 && twoPeak < 300 && perCore >= 0.9 && peak < 300 ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
