/**
 * Side-by-side measurement: every task of a group runs in the same process, in rounds, with the order rotated
 * each round (AB, BA, … / ABC, BCA, CAB, …), so drift and noise from the rest of the machine land on every side
 * alike. Each round is one tinybench run; a ratio is computed per round (paired) and the median over rounds is
 * reported, with the interquartile range of the per-round ratios as the spread.
 *
 * One task call is a batch (a pass over a corpus, repeated `reps` times) that lasts well above the timer's grain,
 * so the per-call timer cost tinybench cannot amortise stays under ~0.1% and biases neither side.
 */
import { Bench } from "tinybench";

/** Results land here so no call is dead code. */
export const sink = { value: undefined };

function bench(timeMs, minIterations) {
  return new Bench({
    time: timeMs,
    iterations: minIterations,
    warmup: false,
    timestampProvider: "hrtimeNow",
    throws: true,
    // No forced gc() between tasks: a full collection deoptimises optimised code that embeds maps which just died
    // ("weak objects" in --trace-deopt), so every round re-optimised parseJson/decodeText/parseLossless and the
    // per-round ratios went bimodal. Natural GC stays inside each side's own time, and rotation spreads the rest.
  });
}

/** Calls `fn` until `ms` have passed (at least `min` times); returns the median duration of a call in ms. */
function quickTime(fn, ms, min = 3) {
  const samples = [];
  const end = performance.now() + ms;
  while (samples.length < min || performance.now() < end) {
    const t0 = performance.now();
    fn();
    samples.push(performance.now() - t0);
  }
  return median(samples);
}

/** How many passes one call should make so that the floor's call lasts at least `minCallMs`. */
export function calibrateReps(floorPass, minCallMs = 0.25) {
  quickTime(floorPass, 50);
  const pass = quickTime(floorPass, 50);
  return Math.max(1, Math.ceil(minCallMs / Math.max(pass, 1e-6)));
}

/** The q-quantile (0 ≤ q ≤ 1) with linear interpolation. */
export function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

export const median = (values) => quantile(values, 0.5);

/**
 * Measures `tasks` (`{ name, fn }`, the floor first) side by side.
 *
 * @returns per task, the median latency of one call (ms) in each round
 */
export function interleaved(tasks, { rounds, timeMs, warmupMs, minIterations = 5 }) {
  // Warm-up: every task runs (rotated as well) until the JIT has settled; nothing is recorded.
  for (let pass = 0; pass < 2; pass++) {
    const warm = bench(warmupMs / 2, minIterations);
    for (let i = 0; i < tasks.length; i++) {
      const task = tasks[(i + pass) % tasks.length];
      warm.add(task.name, task.fn);
    }
    warm.runSync();
  }
  const latencies = tasks.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const run = bench(timeMs, minIterations);
    const order = tasks.map((_, i) => (i + round) % tasks.length);
    for (const i of order) run.add(tasks[i].name, tasks[i].fn);
    run.runSync();
    for (const i of order) {
      const result = run.getTask(tasks[i].name).result;
      if (result.state !== "completed") throw new Error(`${tasks[i].name}: ${result.state}`);
      latencies[i].push(result.latency.p50);
    }
  }
  if (process.env.BENCH_DEBUG === "1") {
    for (let i = 1; i < tasks.length; i++) {
      const ratios = latencies[i].map((ms, r) => (latencies[0][r] / ms).toFixed(2));
      process.stderr.write(
        `[bench] ${tasks[i].name} speed vs ${tasks[0].name} per round: ${ratios.join(" ")}\n`,
      );
    }
  }
  return latencies;
}

/**
 * Summarises one task against the floor (index 0).
 *
 * @param direction `"speed"`: ratio = task ops/s ÷ floor ops/s; `"time"`: ratio = task time ÷ floor time
 */
export function summarise(latencies, index, { opsPerCall, bytesPerCall, direction = "speed" }) {
  const mine = latencies[index];
  const floor = latencies[0];
  const ratios = mine.map((ms, round) => (direction === "speed" ? floor[round] / ms : ms / floor[round]));
  const ms = median(mine);
  return {
    opsPerSecond: (opsPerCall * 1000) / ms,
    bytesPerSecond: (bytesPerCall * 1000) / ms,
    ratio: median(ratios),
    ratioLow: quantile(ratios, 0.25),
    ratioHigh: quantile(ratios, 0.75),
  };
}

/** CPU time (user + system, `process.cpuUsage`) of one pass of `task`, in ms, averaged over `passes` passes. */
async function cpuTime(task, passes) {
  const before = process.cpuUsage();
  for (let i = 0; i < passes; i++) await task();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / passes;
}

/**
 * CPU per pass of a floor and a task, side by side: three warm-up passes each, then `rounds` rounds of `passes`
 * passes, the order rotated from round to round. Returns the median ms of each and the per-round ratios
 * (task ÷ floor): median, quartiles.
 */
export async function cpuPair([floor, task], { rounds, passes }) {
  const runs = [floor, task];
  for (const run of runs) for (let i = 0; i < 3; i++) await run();
  const times = [[], []];
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < 2; k++) {
      const i = (k + round) % 2;
      times[i].push(await cpuTime(runs[i], passes));
    }
  }
  const ratios = times[1].map((ms, r) => ms / times[0][r]);
  return {
    floor: median(times[0]),
    task: median(times[1]),
    ratio: median(ratios),
    low: quantile(ratios, 0.25),
    high: quantile(ratios, 0.75),
  };
}
