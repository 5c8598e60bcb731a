// Shared benchmark helpers: start servers in their own processes, read their CPU time, drive them with autocannon
// (throughput) or with a sequential loop (latency).
import { fork, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import autocannon from "autocannon";
import { Pool } from "undici";

/** Forks `script` with `args`; resolves once it reports its port over IPC. */
export function startProcess(script, args = []) {
  const child = fork(script, args, { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`${script} exited with ${code}`)));
    child.once("message", (message) => {
      child.removeAllListeners("exit");
      resolve({ port: message.port, pid: child.pid, stop: () => child.kill("SIGKILL") });
    });
  });
}

export function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts the built toolcall-proxy bin; its log lines go to /dev/null (written, as in production, not kept). */
export async function startToolcallProxy(bin, upstreamPort, extra = []) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [bin, "--upstream", `http://127.0.0.1:${upstreamPort}`, "--port", String(port), ...extra],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
  for (let i = 0; i < 200; i++) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      if (response.ok) return { port, pid: child.pid, stop: () => child.kill("SIGKILL") };
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  throw new Error("toolcall-proxy did not start");
}

/** User plus system CPU time of a process so far, in milliseconds (Linux /proc). */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / 100;
}

export const chatBody = ({ model, stream }) =>
  JSON.stringify({
    model,
    stream,
    messages: [
      { role: "user", content: "What is the weather in Paris and Rome?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "call_a",
            type: "function",
            function: { name: "get_weather", arguments: '{"city":"Paris"}' },
          },
        ],
      },
      { role: "tool", tool_call_id: "call_a", content: "18C, clear" },
    ],
    tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
  });

/** One autocannon run at `connections`; requests per second, latency percentiles (ms), errors. */
export async function throughput({ port, body, connections = 50, duration = 5 }) {
  const result = await autocannon({
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    method: "POST",
    headers: { "content-type": "application/json", authorization: "Bearer bench" },
    body,
    connections,
    duration,
  });
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** `count` requests one after another on one kept-alive connection; each one's latency in microseconds. */
export async function sequential({ port, body, count }) {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: 1 });
  const latencies = [];
  let errors = 0;
  try {
    for (let i = 0; i < count; i++) {
      const started = process.hrtime.bigint();
      const response = await pool.request({
        path: "/v1/chat/completions",
        method: "POST",
        headers: { "content-type": "application/json", authorization: "Bearer bench" },
        body,
      });
      await response.body.text();
      latencies.push(Number(process.hrtime.bigint() - started) / 1000);
      if (response.statusCode !== 200) errors++;
    }
  } finally {
    await pool.close();
  }
  return { latencies, errors };
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export const median = (values) => percentile(values, 50);
