/**
 * A float whose value is integral (`{"$float": "20.0"}`): JavaScript cannot tell `20.0` from `20`, Python can, and
 * a chat template prints `20.0` for one and `20` for the other. A render implementation maps it to its float.
 *
 * @example
 * decodeTags({ $float: "20.0" }); // FloatValue { value: 20 }
 */
export class FloatValue {
  readonly value: number;
  constructor(value: number) {
    this.value = value;
  }
}

/**
 * The tagged encoding of values JSON cannot hold (VECTORS.md): an object with exactly one key starting with `$`.
 *
 * @example
 * decodeTags({ $undefined: true }); // undefined
 * decodeTags({ $bigint: "12" }); // 12n
 * decodeTags([{ $number: "NaN" }]); // [NaN]
 * decodeTags({ $float: "1.0" }); // FloatValue { value: 1 }
 */
export function decodeTags(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeTags);
  if (typeof value !== "object" || value === null) return value;
  const keys = Object.keys(value);
  const record = value as Record<string, unknown>;
  if (keys.length === 1 && keys[0]?.startsWith("$")) {
    const tag = keys[0];
    const payload = record[tag];
    switch (tag) {
      case "$undefined":
        return undefined;
      case "$bigint":
        return BigInt(String(payload));
      case "$number":
        return payload === "-0" ? -0 : Number(payload);
      case "$literal":
        return payload;
      case "$float":
        return new FloatValue(Number(payload));
      default:
        throw new Error(`unknown tag ${tag}`);
    }
  }
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    Object.defineProperty(out, key, {
      value: decodeTags(record[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
