// toolcall-proxy against a bare pass-through proxy on the same stack (node:http server, undici handler API, no
// parsing), both in front of the same fake upstream, on this machine. `npm run bench` (builds first).
//
// - Throughput: autocannon, 50 connections, rounds interleaved (bare, proxy, bare, proxy …) so both see the same
//   machine load; the ratio is the median of the rounds' ratios. CPU time per request of each proxy process is
//   read from /proc as well: it does not depend on what else the machine runs.
// - Added latency: requests one at a time on one connection (service time, no queueing); p50 of toolcall-proxy
//   minus p50 of the bare proxy.
// - Streaming: the same, for a stream of CONTENT_CHUNKS content frames and one tool call in ARGUMENT_CHUNKS
//   pieces; the added time per frame is the p50 difference divided by the frames.
import { join } from "node:path";
import { ARGUMENT_CHUNKS, CONTENT_CHUNKS } from "./fake-upstream.mjs";
import {
  chatBody,
  cpuMs,
  median,
  percentile,
  sequential,
  startProcess,
  startToolcallProxy,
  throughput,
} from "./load.mjs";

const here = import.meta.dirname;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_DURATION ?? 5);
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 2000);
const FRAMES = CONTENT_CHUNKS + ARGUMENT_CHUNKS + 4;

const upstream = await startProcess(join(here, "fake-upstream.mjs"));
const bare = await startProcess(join(here, "bare-proxy.mjs"), [String(upstream.port), "undici-dispatch"]);
const proxy = await startToolcallProxy(join(here, "../dist/cli.js"), upstream.port);
const targets = { bare, proxy };
const kinds = {
  "non-streaming, calls need repair": chatBody({ model: "malformed", stream: false }),
  "non-streaming, clean calls": chatBody({ model: "clean", stream: false }),
  [`streaming, ${FRAMES} frames`]: chatBody({ model: "stream", stream: true }),
};

const report = {
  machine: { cpus: (await import("node:os")).cpus().length, node: process.version },
  throughput: {},
  latency: {},
};
try {
  for (const [kind, body] of Object.entries(kinds)) {
    const rounds = [];
    for (const target of Object.values(targets)) await throughput({ port: target.port, body, duration: 1 });
    for (let round = 0; round < ROUNDS; round++) {
      const row = {};
      for (const [name, target] of Object.entries(targets)) {
        const cpuBefore = cpuMs(target.pid);
        const result = await throughput({ port: target.port, body, duration: DURATION });
        row[name] = { ...result, cpuUsPerRequest: ((cpuMs(target.pid) - cpuBefore) * 1000) / result.total };
      }
      rounds.push(row);
    }
    const ratio = median(rounds.map((r) => r.proxy.rps / r.bare.rps));
    report.throughput[kind] = {
      bareRps: Math.round(median(rounds.map((r) => r.bare.rps))),
      proxyRps: Math.round(median(rounds.map((r) => r.proxy.rps))),
      ratio: Number(ratio.toFixed(3)),
      bareCpuUsPerRequest: Math.round(median(rounds.map((r) => r.bare.cpuUsPerRequest))),
      proxyCpuUsPerRequest: Math.round(median(rounds.map((r) => r.proxy.cpuUsPerRequest))),
      errors: rounds.reduce((sum, r) => sum + r.bare.errors + r.proxy.errors, 0),
    };
    console.error(kind, JSON.stringify(report.throughput[kind]));
  }
  for (const [kind, body] of Object.entries(kinds)) {
    const count = kind.startsWith("streaming") ? Math.round(SEQUENTIAL / 4) : SEQUENTIAL;
    const samples = { upstream: [], bare: [], proxy: [] };
    let errors = 0;
    // Interleaved slices, so a burst of machine load lands on all three alike.
    for (let slice = 0; slice < 10; slice++) {
      for (const [name, target] of Object.entries({ upstream, ...targets })) {
        const result = await sequential({ port: target.port, body, count: Math.round(count / 10) });
        if (slice > 0) samples[name].push(...result.latencies);
        errors += result.errors;
      }
    }
    const p50 = Object.fromEntries(Object.entries(samples).map(([n, v]) => [n, median(v)]));
    const p99 = Object.fromEntries(Object.entries(samples).map(([n, v]) => [n, percentile(v, 99)]));
    const row = {
      p50Us: Object.fromEntries(Object.entries(p50).map(([n, v]) => [n, Math.round(v)])),
      p99Us: Object.fromEntries(Object.entries(p99).map(([n, v]) => [n, Math.round(v)])),
      addedP50Us: Math.round(p50.proxy - p50.bare),
      errors,
    };
    if (kind.startsWith("streaming"))
      row.addedPerFrameUs = Number(((p50.proxy - p50.bare) / FRAMES).toFixed(2));
    report.latency[kind] = row;
    console.error(kind, JSON.stringify(row));
  }
} finally {
  proxy.stop();
  bare.stop();
  upstream.stop();
}
console.log(JSON.stringify(report, null, 2));
