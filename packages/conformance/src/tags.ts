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
 * decodeTags({ $concat: ["{", { $repeat: { text: "[", times: 3 } }] }); // "{[[["
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
      case "$repeat": {
        // Hostile sizes without hostile files: a text repeated, up to 16 MiB.
        const { text, times } = (payload ?? {}) as { text?: unknown; times?: unknown };
        if (typeof text !== "string" || !Number.isInteger(times) || (times as number) < 0)
          throw new Error("$repeat takes { text: string, times: integer >= 0 }");
        if (text.length * (times as number) > 16 * 1024 * 1024)
          throw new Error("$repeat makes at most 16 MiB");
        return text.repeat(times as number);
      }
      case "$concat": {
        if (!Array.isArray(payload)) throw new Error("$concat takes a list of texts");
        const parts = payload.map(decodeTags);
        if (!parts.every((part) => typeof part === "string"))
          throw new Error("$concat takes a list of texts");
        return parts.join("");
      }
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
