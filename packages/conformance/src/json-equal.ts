/** Normalises a value as `JSON.stringify` would see it (honouring `toJSON`), keeping `undefined` distinct. */
function normalise(value: unknown): unknown {
  if (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { toJSON?: unknown }).toJSON === "function"
  ) {
    return (value as { toJSON: () => unknown }).toJSON();
  }
  return value;
}

/**
 * JSON equality: objects compare by own enumerable keys (order ignored), arrays by position, numbers by value
 * (`-0` equals `0`), `bigint` equals the same integer number. `true` never equals `1`.
 *
 * @example
 * jsonEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] }); // true
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  a = normalise(a);
  b = normalise(b);
  if (typeof a === "bigint") a = Number(a);
  if (typeof b === "bigint") b = Number(b);
  if (typeof a === "number" && typeof b === "number") return a === b || (Number.isNaN(a) && Number.isNaN(b));
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const rb = b as Record<string, unknown>;
  return ka.every((k) => Object.hasOwn(rb, k) && jsonEqual((a as Record<string, unknown>)[k], rb[k]));
}

/** A short printable form of a value for failure messages. */
export function show(value: unknown): string {
  if (value === undefined) return "undefined";
  try {
    const text = JSON.stringify(value, (_k, v) =>
      typeof v === "bigint" ? `${v}n` : v === undefined ? "<undefined>" : v,
    );
    return text.length > 400 ? `${text.slice(0, 400)}…` : text;
  } catch {
    return String(value);
  }
}
