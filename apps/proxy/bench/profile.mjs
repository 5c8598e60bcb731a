// A CPU profile of toolcall-proxy under one kind of the benchmark's load: `node bench/profile.mjs KIND [SECONDS]`
// (KIND: stream, clean or malformed; after the build). The proxy runs with `--cpu-prof` in front of the fake
// upstream, autocannon drives it, SIGTERM makes it write the profile; the functions with the most self time are
// printed (the .cpuprofile is left in PROFILE_DIR, default a fresh folder under the system's temporary folder, for a
// viewer).
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chatBody, cpuMs, freePort, startProcess, throughput } from "./load.mjs";

const here = import.meta.dirname;
const kind = process.argv[2] ?? "stream";
const seconds = Number(process.argv[3] ?? 8);
const dir = process.env.PROFILE_DIR ?? mkdtempSync(join(tmpdir(), "toolcall-proxy-profile-"));
const body = chatBody({ model: kind === "stream" ? "stream" : kind, stream: kind === "stream" });

const upstream = await startProcess(join(here, "fake-upstream.mjs"));
const port = await freePort();
const child = spawn(
  process.execPath,
  [
    "--cpu-prof",
    `--cpu-prof-dir=${dir}`,
    "--cpu-prof-interval=200",
    join(here, "../dist/cli.js"),
    "--upstream",
    `http://127.0.0.1:${upstream.port}`,
    "--port",
    String(port),
    ...process.argv.slice(4),
  ],
  { stdio: ["ignore", "ignore", "inherit"] },
);
for (let i = 0; i < 200; i++) {
  try {
    if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
const cpuBefore = cpuMs(child.pid);
const load = await throughput({ port, body, duration: seconds, connections: 20 });
const cpuUsPerRequest = Math.round(((cpuMs(child.pid) - cpuBefore) * 1000) / load.total);
const exited = new Promise((resolve) => child.once("exit", resolve));
child.kill("SIGTERM");
await exited;
upstream.stop();

const file = readdirSync(dir).find((name) => name.endsWith(".cpuprofile"));
const profile = JSON.parse(readFileSync(join(dir, file), "utf8"));
const self = new Map();
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const counts = new Map();
for (const sample of profile.samples) counts.set(sample, (counts.get(sample) ?? 0) + 1);
let total = 0;
for (const [id, count] of counts) {
  const { callFrame } = byId.get(id);
  const where =
    callFrame.url === ""
      ? ""
      : ` ${callFrame.url.split("/").slice(-2).join("/")}:${callFrame.lineNumber + 1}`;
  const key = `${callFrame.functionName || "(anonymous)"}${where}`;
  self.set(key, (self.get(key) ?? 0) + count);
  total += count;
}
const idle = [...self].filter(([key]) => key.startsWith("(idle)")).reduce((sum, [, n]) => sum + n, 0);
console.log(
  `${kind}: ${join(dir, file)}; ${total} samples, ${((idle / total) * 100).toFixed(1)}% idle, ${load.total} requests, ${cpuUsPerRequest} µs CPU per request (profiler included)`,
);
for (const [key, count] of [...self]
  .sort((a, b) => b[1] - a[1])
  .slice(0, Number(process.env.PROFILE_TOP ?? 40)))
  console.log(`${((count / (total - idle)) * 100).toFixed(1).padStart(5)}%  ${key}`);
