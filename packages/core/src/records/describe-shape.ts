/** A noun with its plural, for counted things (`1 object`, `3 objects`). */
function counted(count: number, noun: string): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? noun : `${noun}s`}`;
}

/** An object's first keys, as written (a key is never turned into a plural). */
function keyList(value: object): string {
  let keys: string[];
  try {
    keys = Object.keys(value);
  } catch {
    return "keys that cannot be read";
  }
  if (keys.length === 0) return "no keys";
  const shown = keys.slice(0, 6).map((key) => JSON.stringify(key));
  return `${keys.length === 1 ? "key" : "keys"} ${shown.join(", ")}${keys.length > 6 ? `, and ${keys.length - 6} more` : ""}`;
}

/** A value's kind, as a noun. */
function noun(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/**
 * A value's shape in a few words, for a refusal: its kind, an array's length and what its first element is, an
 * object's keys quoted as they are written (`"example"`, never a plural made of a key).
 *
 * @example
 * describeShape([{ example: 1 }, { example: 2 }]); // 'an array of 2 elements, the first an object with key "example"'
 * describeShape({ contents: [] }); // 'an object with key "contents"'
 */
export function describeShape(value: unknown): string {
  try {
    if (value === null) return "null";
    if (Array.isArray(value)) {
      if (value.length === 0) return "an empty array";
      const first = value[0];
      const kinds = new Set(value.slice(0, 100).map(noun));
      const what =
        kinds.size === 1 && noun(first) !== "object"
          ? `${counted(value.length, noun(first) === "null" ? "null" : noun(first))}`
          : `${counted(value.length, "element")}, the first ${describeShape(first)}`;
      return `an array of ${what}`;
    }
    if (typeof value === "object") return `an object with ${keyList(value as object)}`;
    return typeof value === "string" ? "a string" : `a ${typeof value}`;
  } catch {
    return "a value that cannot be read";
  }
}
