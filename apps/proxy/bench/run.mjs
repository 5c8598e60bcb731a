// toolcall-proxy against a bare pass-through proxy on the same stack (node:http server, undici handler API, no
// parsing), all in front of the same fake upstream, on this machine. `npm run bench` (builds first). Beside them, the
// parse floor: the bare proxy that also parses both bodies with JSON.parse and does nothing else, the least any
// proxy that reads tool-call arguments pays; its ratio says how much of the gap parsing alone explains.
//
// - Throughput: autocannon, 50 connections, BENCH_ROUNDS rounds of BENCH_DURATION seconds in ABBA order (bare,
//   floor, proxy, then proxy, floor, bare …) so all see the same machine load; the ratio is the median of the
//   rounds' ratios, with the middle half of them beside it. Each measured run follows BENCH_WARMUP seconds of
//   unmeasured load on the same side. CPU time per request of each proxy process is read from /proc as well.
// - Added latency: requests one at a time on one connection (service time, no queueing); p50 of toolcall-proxy
//   minus p50 of the bare proxy.
// - Streaming: the same, for a stream of CONTENT_CHUNKS content frames and one tool call in ARGUMENT_CHUNKS
//   pieces, against the streaming floor (the bare proxy, streaming, that also parses each event naming
//   `tool_calls`); the added time per frame is the CPU (and p50) difference divided by the frames.
// - Targets: the table printed last, each ratio against its floor in the same run; a miss prints MISS.
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
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const DURATION = Number(process.env.BENCH_DURATION ?? 2);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 2000);
const FRAMES = CONTENT_CHUNKS + ARGUMENT_CHUNKS + 4;

const upstream = await startProcess(join(here, "fake-upstream.mjs"));
const bare = await startProcess(join(here, "bare-proxy.mjs"), [String(upstream.port), "undici-dispatch"]);
const wholeFloor = await startProcess(join(here, "bare-proxy.mjs"), [String(upstream.port), "parse"]);
const streamFloor = await startProcess(join(here, "bare-proxy.mjs"), [String(upstream.port), "stream-parse"]);
const proxy = await startToolcallProxy(join(here, "../dist/cli.js"), upstream.port);
/**
 * The parse floor buffers whole bodies, so it says nothing about streaming; streams have their own floor (the
 * minimal proxy, streaming, that parses the events naming `tool_calls`).
 */
const targetsFor = (kind) =>
  kind.startsWith("streaming") ? { bare, floor: streamFloor, proxy } : { bare, floor: wholeFloor, proxy };
const allKinds = {
  "non-streaming, calls need repair": chatBody({ model: "malformed", stream: false }),
  "non-streaming, clean calls": chatBody({ model: "clean", stream: false }),
  [`streaming, ${FRAMES} frames`]: chatBody({ model: "stream", stream: true }),
};
/** `BENCH_KINDS=repair,clean,stream`: only these cases (all by default). */
const KEYS = ["repair", "clean", "stream"];
const only = (process.env.BENCH_KINDS ?? "").split(",").filter((word) => word !== "");
const kinds = Object.fromEntries(
  Object.entries(allKinds).filter((_, i) => only.length === 0 || only.includes(KEYS[i])),
);

const report = {
  machine: { cpus: (await import("node:os")).cpus().length, node: process.version },
  throughput: {},
  latency: {},
};
try {
  for (const [kind, body] of Object.entries(kinds)) {
    const rounds = [];
    const targets = targetsFor(kind);
    for (const target of Object.values(targets)) await throughput({ port: target.port, body, duration: 1 });
    for (let round = 0; round < ROUNDS; round++) {
      const row = {};
      // ABBA order (bare first in even rounds, the proxy first in odd ones), so a drift in machine speed during a
      // round does not favour any side.
      const order = Object.entries(targets);
      if (round % 2 === 1) order.reverse();
      for (const [name, target] of order) {
        // An idle process gives memory back (V8 shrinks its heap), and the first second after a long pause pays to
        // take it again: the sides at either end of an ABBA round wait longest. A second of load before each
        // measured run puts every side in the same state.
        await throughput({ port: target.port, body, duration: WARMUP });
        const cpuBefore = cpuMs(target.pid);
        const result = await throughput({ port: target.port, body, duration: DURATION });
        row[name] = { ...result, cpuUsPerRequest: ((cpuMs(target.pid) - cpuBefore) * 1000) / result.total };
      }
      rounds.push(row);
    }
    // A round in which any side measured no requests at all (the machine stalled) says nothing about the others.
    const counted = rounds.filter((r) => Object.values(r).every((side) => side.rps > 0));
    const ratiosOf = (a, b) => counted.map((r) => r[a].rps / r[b].rps).sort((x, y) => x - y);
    const ratios = ratiosOf("proxy", "bare");
    const fixed = (value) => Number(value.toFixed(3));
    const perSide = (field) =>
      Object.fromEntries(
        Object.keys(targets).map((n) => [n, Math.round(median(rounds.map((r) => r[n][field])))]),
      );
    const row = {
      rps: perSide("rps"),
      ratio: fixed(median(ratios)),
      // The middle half of the rounds' ratios: how much the machine moved under the median.
      ratioIqr: [fixed(percentile(ratios, 25)), fixed(percentile(ratios, 75))],
      cpuUsPerRequest: perSide("cpuUsPerRequest"),
      errors: rounds.reduce((sum, r) => sum + Object.values(r).reduce((s, side) => s + side.errors, 0), 0),
      roundsCounted: counted.length,
      rounds: rounds.map((r) =>
        Object.fromEntries(Object.entries(r).map(([n, side]) => [n, Math.round(side.rps)])),
      ),
    };
    row.floorRatio = fixed(median(ratiosOf("floor", "bare")));
    const toFloor = ratiosOf("proxy", "floor");
    row.proxyToFloorRatio = fixed(median(toFloor));
    row.proxyToFloorIqr = [fixed(percentile(toFloor, 25)), fixed(percentile(toFloor, 75))];
    // The floor's CPU per request over the proxy's, median of the rounds: what the throughput ratio tends to when CPU
    // is the limit. It moves less than throughput on a machine shared with other work (read it beside the ratio).
    row.cpuToFloorRatio = fixed(
      median(counted.map((r) => r.floor.cpuUsPerRequest / r.proxy.cpuUsPerRequest)),
    );
    if (kind.startsWith("streaming")) {
      // CPU the proxy spends per frame beyond the floor's, median of the rounds' differences.
      const added = counted.map((r) => (r.proxy.cpuUsPerRequest - r.floor.cpuUsPerRequest) / FRAMES);
      row.addedCpuPerFrameUs = Number(median(added).toFixed(2));
    }
    report.throughput[kind] = row;
    console.error(kind, JSON.stringify(report.throughput[kind]));
  }
  for (const [kind, body] of Object.entries(kinds)) {
    const count = kind.startsWith("streaming") ? Math.round(SEQUENTIAL / 4) : SEQUENTIAL;
    const targets = { upstream, ...targetsFor(kind) };
    const samples = Object.fromEntries(Object.keys(targets).map((name) => [name, []]));
    let errors = 0;
    // Interleaved slices, so a burst of machine load lands on all of them alike.
    for (let slice = 0; slice < 10; slice++) {
      for (const [name, target] of Object.entries(targets)) {
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
    row.addedToFloorP50Us = Math.round(p50.proxy - p50.floor);
    if (kind.startsWith("streaming")) {
      row.addedPerFrameUs = Number(((p50.proxy - p50.bare) / FRAMES).toFixed(2));
      row.addedToFloorPerFrameUs = Number(((p50.proxy - p50.floor) / FRAMES).toFixed(2));
    }
    report.latency[kind] = row;
    console.error(kind, JSON.stringify(row));
  }
} finally {
  proxy.stop();
  streamFloor.stop();
  wholeFloor.stop();
  bare.stop();
  upstream.stop();
}
console.log(JSON.stringify(report, null, 2));

// The targets, each against its floor in this run; a miss prints MISS.
const STREAM = `streaming, ${FRAMES} frames`;
const targets = [
  [
    "clean calls ÷ minimal proxy (parse floor)",
    "≥ 0.9×",
    report.throughput["non-streaming, clean calls"]?.proxyToFloorRatio,
    (v) => v >= 0.9,
  ],
  [
    "calls that need repair ÷ minimal proxy (parse floor)",
    "≥ 0.6×",
    report.throughput["non-streaming, calls need repair"]?.proxyToFloorRatio,
    (v) => v >= 0.6,
  ],
  ["streams ÷ streaming floor", "≥ 0.8×", report.throughput[STREAM]?.proxyToFloorRatio, (v) => v >= 0.8],
  [
    "streams: CPU µs added per frame over the streaming floor",
    "≤ 1 µs",
    report.throughput[STREAM]?.addedCpuPerFrameUs,
    (v) => v <= 1,
  ],
];
console.log("\n| target | goal | measured | |\n| --- | --- | --- | --- |");
for (const [name, goal, value, met] of targets.filter((target) => target[2] !== undefined))
  console.log(`| ${name} | ${goal} | ${value} | ${met(value) ? "ok" : "MISS"} |`);
for (const [name, goal, value, met] of targets.filter((target) => target[2] !== undefined))
  if (!met(value)) console.log(`MISS: ${name}: ${value} (target ${goal})`);
