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
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const DURATION = Number(process.env.BENCH_DURATION ?? 2);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 2000);
const FRAMES = CONTENT_CHUNKS + ARGUMENT_CHUNKS + 4;

const upstream = await startProcess(join(here, "fake-upstream.mjs"));
const bare = await startProcess(join(here, "bare-proxy.mjs"), [String(upstream.port), "undici-dispatch"]);
const floor = await startProcess(join(here, "bare-proxy.mjs"), [String(upstream.port), "parse"]);
const proxy = await startToolcallProxy(join(here, "../dist/cli.js"), upstream.port);
/** The parse floor buffers whole bodies, so it says nothing about streaming: measured on whole bodies only. */
const targetsFor = (kind) => (kind.startsWith("streaming") ? { bare, proxy } : { bare, floor, proxy });
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
    if ("floor" in targets) {
      row.floorRatio = fixed(median(ratiosOf("floor", "bare")));
      row.proxyToFloorRatio = fixed(median(ratiosOf("proxy", "floor")));
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
    if (kind.startsWith("streaming"))
      row.addedPerFrameUs = Number(((p50.proxy - p50.bare) / FRAMES).toFixed(2));
    report.latency[kind] = row;
    console.error(kind, JSON.stringify(row));
  }
} finally {
  proxy.stop();
  floor.stop();
  bare.stop();
  upstream.stop();
}
console.log(JSON.stringify(report, null, 2));
