/** The fastest of a few rounds, in milliseconds: noise (garbage collection, the other core) only ever adds time. */
function fastest(run: () => unknown, rounds: number): number {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/** What `growthExponent` takes: how to make an input of a size, the work to measure, and how to count it. */
export interface GrowthOptions {
  /** Makes an input of about `size` characters. */
  make: (size: number) => string;
  /** The work to measure. */
  run: (input: string) => unknown;
  /**
   * The work one run does, counted (steps, scans, a work meter's reading), when it can be: the fit then reads these
   * counts instead of the clock, and gives the same exponent on every machine. Without it, time is measured.
   */
  cost?: (input: string) => number;
  /** Input sizes (default 16 KiB, 64 KiB, 256 KiB: small enough that garbage collection stays out of the picture). */
  sizes?: readonly number[];
  /** Runs per size; the fastest counts (default 7). */
  rounds?: number;
}

/**
 * The exponent k in time ~ size^k, fitted by least squares in log-log space over the fastest run at each size:
 * about 1 for linear work, 2 for quadratic. A complexity check that holds on a noisy machine, where a timed
 * assertion would not: a test asserts an exponent (say, below 1.6), never a duration.
 *
 * @example
 * const k = growthExponent({ make: (n) => "{".repeat(n), run: (text) => decodeArguments(text) });
 * expect(k).toBeLessThan(1.6);
 */
export function growthExponent(options: GrowthOptions): number {
  const sizes = options.sizes ?? [16 * 1024, 64 * 1024, 256 * 1024];
  const rounds = options.rounds ?? 7;
  const inputs = sizes.map(options.make);
  const { cost } = options;
  if (cost === undefined) for (const input of inputs) options.run(input); // warm up
  const xs = sizes.map((size) => Math.log(size));
  const ys = inputs.map((input) =>
    Math.log(Math.max(cost ? cost(input) : fastest(() => options.run(input), rounds), 0.01)),
  );
  const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanY = ys.reduce((a, b) => a + b, 0) / ys.length;
  let numerator = 0;
  let denominator = 0;
  xs.forEach((x, i) => {
    numerator += (x - meanX) * ((ys[i] as number) - meanY);
    denominator += (x - meanX) ** 2;
  });
  return numerator / denominator;
}
