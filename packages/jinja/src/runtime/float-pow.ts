/**
 * Python's float `**` is C's `pow`, which glibc rounds correctly; V8's `Math.pow` can be one unit off
 * (`255 ** -2`: 1.5378700499807765e-05 in JavaScript, 1.5378700499807768e-05 in Python). For an integral exponent
 * the exact power is computed with bigints and rounded once; `x ** 0.5` is the square root; any other exponent is
 * JavaScript's (a README limit).
 */

/** The most bits the exact power may hold before JavaScript's `**` is used instead. */
const MAX_EXACT_BITS = 1 << 15;

function bitLength(value: bigint): number {
  return value.toString(2).length;
}

/** `x` as `mantissa * 2 ** exponent` with an odd integer mantissa (x finite, nonzero). */
function decompose(x: number): [bigint, number] {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const bits = view.getBigUint64(0);
  const biased = Number(bits >> 52n);
  let mantissa = bits & 0xfffffffffffffn;
  let exponent = biased - 1075;
  if (biased === 0) exponent = -1074;
  else mantissa |= 1n << 52n;
  while ((mantissa & 1n) === 0n) {
    mantissa >>= 1n;
    exponent++;
  }
  return [mantissa, exponent];
}

/** `num / den * 2 ** exp2`, rounded once to the nearest double (ties to even); Infinity past the range. */
function roundRatio(num: bigint, den: bigint, exp2: number): number {
  const shift = 56 - (bitLength(num) - bitLength(den));
  const q0 = shift >= 0 ? (num << BigInt(shift)) / den : num / (den << BigInt(-shift));
  const r = shift >= 0 ? (num << BigInt(shift)) % den : num % (den << BigInt(-shift));
  const scale = exp2 - shift;
  const top = bitLength(q0) - 1 + scale;
  if (top > 1023) return Number.POSITIVE_INFINITY;
  const ulp = Math.max(top - 52, -1074);
  const drop = ulp - scale;
  if (drop > bitLength(q0) + 1) return 0;
  const dropped = BigInt(drop);
  let mantissa = q0 >> dropped;
  const rest = q0 & ((1n << dropped) - 1n);
  const half = 1n << (dropped - 1n);
  if (rest > half || (rest === half && (r !== 0n || (mantissa & 1n) === 1n))) mantissa++;
  // Two exact steps: 2 ** -1074 alone is fine, but mantissa * 2 ** ulp must not round in between.
  return ulp < -1000 ? Number(mantissa) * 2 ** (ulp + 200) * 2 ** -200 : Number(mantissa) * 2 ** ulp;
}

/**
 * `x ** y` for floats as C's `pow` gives it, where JavaScript's may differ; `undefined` to use JavaScript's.
 *
 * @example
 * floatPow(255, -2); // 1.5378700499807768e-05
 */
export function floatPow(x: number, y: number): number | undefined {
  if (!Number.isFinite(x) || x === 0 || !Number.isFinite(y)) return undefined;
  if (y === 0.5) return x > 0 ? Math.sqrt(x) : undefined;
  if (!Number.isInteger(y) || y === 0 || Math.abs(y) > MAX_EXACT_BITS) return undefined;
  const [mantissa, exponent] = decompose(x);
  const n = Math.abs(y);
  if (bitLength(mantissa) * n > MAX_EXACT_BITS) return undefined;
  const power = mantissa ** BigInt(n);
  const magnitude = y > 0 ? roundRatio(power, 1n, exponent * n) : roundRatio(1n, power, -exponent * n);
  return x < 0 && n % 2 === 1 ? -magnitude : magnitude;
}
