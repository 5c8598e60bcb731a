// A test helper other packages' tests import by path (`../../core/test/linear-work.js`): linear work asserted by
// counting it with core's work meter, never by reading a clock.
import { expect } from "vitest";
import { createWorkMeter, type WorkMeter } from "../src/work-budget.js";

/** Input sizes the growth is counted at: from 4 KiB to 1 MiB, where a quadratic scan would cost ~10^12 units. */
export const LINEAR_SIZES: readonly number[] = [4 * 1024, 64 * 1024, 1024 * 1024];

/** Fixed units any run may cost beyond its per-character share (a table of tokens tried once, a call's setup). */
export const LINEAR_BASE = 16_384;

/** The units a run charged to a fresh counting meter. */
export function countWork(run: (meter: WorkMeter) => unknown): number {
  const meter = createWorkMeter();
  run(meter);
  return meter.steps;
}

/**
 * Asserts that `run` costs at most `unitsPerChar` units per character (plus {@link LINEAR_BASE}) on inputs of
 * every size in `sizes`, and that it costs something (a run that charges nothing proves nothing). Returns the
 * units per character at each size, for a test that wants to say more.
 */
export function expectLinearWork(options: {
  label: string;
  make: (size: number) => string;
  run: (input: string, meter: WorkMeter) => unknown;
  unitsPerChar: number;
  sizes?: readonly number[];
}): number[] {
  const perChar: number[] = [];
  for (const size of options.sizes ?? LINEAR_SIZES) {
    const input = options.make(size);
    const steps = countWork((meter) => options.run(input, meter));
    expect(steps, `${options.label} at ${input.length} characters charged nothing`).toBeGreaterThan(0);
    expect(
      steps,
      `${options.label} at ${input.length} characters: ${(steps / input.length).toFixed(1)} units per character`,
    ).toBeLessThanOrEqual(options.unitsPerChar * input.length + LINEAR_BASE);
    perChar.push(steps / input.length);
  }
  return perChar;
}

/**
 * Text made of one short unit repeated to about `size` characters: the shape that makes a scanner rescan (the same
 * token again and again, each one a false start). Fuzz tests draw the unit from a family's tokens.
 */
export function repeatedUnit(unit: string, size: number): string {
  return unit.length === 0 ? "" : unit.repeat(Math.max(1, Math.ceil(size / unit.length)));
}

/**
 * Parameters of a fuzz test over hostile families: a fixed seed, so the run in CI is the same every time and a
 * failure reproduces (`TOOLCALL_FUZZ_SEED=<n>` explores another seed, `TOOLCALL_FUZZ_RUNS=<n>` scales the runs).
 */
export function fuzzRuns(numRuns: number): { seed: number; numRuns: number } {
  const seed = Number(process.env.TOOLCALL_FUZZ_SEED ?? 16);
  const scale = Number(process.env.TOOLCALL_FUZZ_RUNS ?? numRuns) / numRuns;
  return {
    seed: Number.isInteger(seed) ? seed : 16,
    numRuns: Math.max(1, Math.round(numRuns * (Number.isFinite(scale) ? scale : 1))),
  };
}
