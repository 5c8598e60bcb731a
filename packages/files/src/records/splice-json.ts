// A repaired record written as `JSON.stringify` writes it, with the text of every part the repair kept (the same
// object as read) copied from the line it was read from instead of serialized again: most of a repaired record is
// what it was (one call of a session mended, a result added), and serializing a whole record costs about three times
// parsing it.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/** Containers this deep or less keep where their text is (the record 0, its lists 1, their entries 2, theirs 3). */
const SPAN_DEPTH = 3;
/** New containers this deep or less are written part by part (their kept parts copied); deeper ones at once. */
const WRITE_DEPTH = SPAN_DEPTH + 1;

/** The escapes `JSON.stringify` writes with one letter, after the backslash: `" \ b f n r t`. */
function shortEscape(code: number): boolean {
  return (
    code === QUOTE ||
    code === BACKSLASH ||
    code === 0x62 ||
    code === 0x66 ||
    code === 0x6e ||
    code === 0x72 ||
    code === 0x74
  );
}

/** A lowercase hexadecimal digit's value, or -1 (`JSON.stringify` writes lowercase). */
function lowerHex(code: number): number {
  if (code >= ZERO && code <= NINE) return code - ZERO;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  return -1;
}

/**
 * The text of a parsed JSON value read again beside the value, to learn whether it is exactly what `JSON.stringify`
 * writes for that value (no space, keys in the value's order and none twice, strings escaped and numbers written as
 * `JSON.stringify` does), and where the text of each shallow container is.
 */
class StringifiedText {
  pos = 0;
  /** Each kept container's text: `[start, end)` at `spans[2 * i]`, for the container `index` maps to `i`. */
  readonly index = new Map<object, number>();
  readonly spans: number[] = [];

  constructor(readonly text: string) {}

  /** Whether the text at `pos` is `JSON.stringify(value)`; moves past it. */
  value(value: unknown, depth: number): boolean {
    const code = this.text.charCodeAt(this.pos);
    if (code === QUOTE) return typeof value === "string" && this.string();
    if (code === OPEN_BRACE) return this.object(value, depth);
    if (code === OPEN_BRACKET) return this.array(value, depth);
    if (typeof value === "number") return this.number(value);
    const literal = value === true ? "true" : value === false ? "false" : value === null ? "null" : undefined;
    if (literal === undefined || !this.text.startsWith(literal, this.pos)) return false;
    this.pos += literal.length;
    return true;
  }

  /** A string whose only escapes are those `JSON.stringify` writes (none for a lone surrogate: rare, not copied). */
  private string(): boolean {
    const text = this.text;
    let at = this.pos + 1;
    let quote = -1;
    let slash = -1;
    for (;;) {
      // Each search starts past the last hit: a string full of escapes is read once, not once per escape.
      if (quote < at) quote = text.indexOf('"', at);
      if (quote === -1) return false;
      if (slash < at && slash !== Number.POSITIVE_INFINITY) {
        slash = text.indexOf("\\", at);
        if (slash === -1) slash = Number.POSITIVE_INFINITY;
      }
      if (slash > quote) {
        this.pos = quote + 1;
        return true;
      }
      const escaped = text.charCodeAt(slash + 1);
      if (shortEscape(escaped)) {
        at = slash + 2;
        continue;
      }
      // `\u00xx` for a control character that has no one-letter escape.
      if (escaped !== 0x75 || text.charCodeAt(slash + 2) !== ZERO || text.charCodeAt(slash + 3) !== ZERO)
        return false;
      const high = lowerHex(text.charCodeAt(slash + 4));
      const low = lowerHex(text.charCodeAt(slash + 5));
      if (high < 0 || high > 1 || low < 0) return false;
      const code = high * 16 + low;
      if (code === 0x08 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d) return false;
      at = slash + 6;
    }
  }

  private number(value: number): boolean {
    const text = this.text;
    const start = this.pos;
    let end = start;
    let digitsOnly = true;
    for (; end < text.length; end++) {
      const code = text.charCodeAt(end);
      if (code >= ZERO && code <= NINE) continue;
      if (code === MINUS && end === start) continue;
      if (code === 0x2e || code === 0x65 || code === 0x45 || code === 0x2b || code === MINUS) {
        digitsOnly = false;
        continue;
      }
      break;
    }
    this.pos = end;
    const digits = text.charCodeAt(start) === MINUS ? start + 1 : start;
    // A short integer without a leading zero (nor `-0`) is written as it is read; anything else is compared.
    if (digitsOnly && end - digits <= 15 && end > digits) {
      const leadingZero = text.charCodeAt(digits) === ZERO;
      if (!leadingZero) return true;
      return end - digits === 1 && digits === start;
    }
    return String(value) === text.slice(start, end);
  }

  private object(value: unknown, depth: number): boolean {
    if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
    const text = this.text;
    const start = this.pos;
    this.pos++;
    let first = true;
    // The value's keys in its order (a parsed object has no other enumerable keys): a key written twice, or an
    // integer key that JSON.stringify would move first, makes the text differ here.
    for (const key in value) {
      if (!first) {
        if (text.charCodeAt(this.pos) !== COMMA) return false;
        this.pos++;
      }
      first = false;
      const at = this.pos;
      // The key as written with nothing escaped; a key that needs an escape is not copied (rare).
      if (
        key.includes("\\") ||
        text.charCodeAt(at) !== QUOTE ||
        !text.startsWith(key, at + 1) ||
        text.charCodeAt(at + 1 + key.length) !== QUOTE ||
        text.charCodeAt(at + 2 + key.length) !== COLON
      )
        return false;
      this.pos = at + key.length + 3;
      if (!this.value((value as Record<string, unknown>)[key], depth + 1)) return false;
    }
    if (text.charCodeAt(this.pos) !== CLOSE_BRACE) return false;
    this.pos++;
    this.keep(value, start, depth);
    return true;
  }

  private array(value: unknown, depth: number): boolean {
    if (!Array.isArray(value)) return false;
    const text = this.text;
    const start = this.pos;
    this.pos++;
    for (let i = 0; i < value.length; i++) {
      if (i > 0) {
        if (text.charCodeAt(this.pos) !== COMMA) return false;
        this.pos++;
      }
      if (!this.value(value[i], depth + 1)) return false;
    }
    if (text.charCodeAt(this.pos) !== CLOSE_BRACKET) return false;
    this.pos++;
    this.keep(value, start, depth);
    return true;
  }

  private keep(container: object, start: number, depth: number): void {
    if (depth > SPAN_DEPTH) return;
    this.index.set(container, this.spans.length / 2);
    this.spans.push(start, this.pos);
  }
}

/** Nothing `JSON.stringify` writes in an object (the key is left out) or an array (`null`). */
function skipped(value: unknown): boolean {
  return value === undefined || typeof value === "function" || typeof value === "symbol";
}

/** Writes `value` as `JSON.stringify` does into `out`, copying kept containers' text; false for what it leaves to it. */
function write(value: unknown, read: StringifiedText, depth: number, out: string[]): boolean {
  if (typeof value !== "object" || value === null) {
    const written = JSON.stringify(value);
    if (written === undefined) return false;
    out.push(written);
    return true;
  }
  const kept = read.index.get(value);
  if (kept !== undefined) {
    out.push(read.text.slice(read.spans[2 * kept], read.spans[2 * kept + 1]));
    return true;
  }
  if (depth > WRITE_DEPTH) {
    out.push(JSON.stringify(value));
    return true;
  }
  if (Array.isArray(value)) {
    out.push("[");
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(",");
      const item: unknown = value[i];
      if (skipped(item)) out.push("null");
      else if (!write(item, read, depth + 1, out)) return false;
    }
    out.push("]");
    return true;
  }
  // Plain data only: anything with a `toJSON` or a prototype of its own is left to JSON.stringify.
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return false;
  out.push("{");
  let first = true;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    if (skipped(item)) continue;
    out.push(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
    first = false;
    if (!write(item, read, depth + 1, out)) return false;
  }
  out.push("}");
  return true;
}

/** What {@link spliceStringified} counts: records read beside their text, and containers written part by part. */
export interface SpliceWork {
  /** Records whose text was read beside their value. */
  reads: number;
  /** Records written with kept text copied. */
  spliced: number;
}

/**
 * `JSON.stringify(written)`, made from the text `original` was parsed from wherever `written` keeps a container of
 * `original` (the same object): that text is copied, and only what is new is serialized. `undefined` when the text is
 * not exactly what `JSON.stringify(original)` writes (spaces, escapes or numbers written otherwise, a key twice) or
 * `written` holds what only `JSON.stringify` knows how to write (a `toJSON`, a class): the caller serializes then.
 *
 * @example
 * const text = '{"id":1,"messages":[{"role":"user","content":"hi"}]}';
 * const original = JSON.parse(text);
 * spliceStringified({ text, original, written: { ...original, id: 2 } });
 * // '{"id":2,"messages":[{"role":"user","content":"hi"}]}' (the messages copied from the text)
 */
export function spliceStringified(options: {
  text: string;
  original: unknown;
  written: unknown;
  work?: SpliceWork;
}): string | undefined {
  const { text, original, written, work } = options;
  if (typeof original !== "object" || original === null) return undefined;
  // A lone surrogate, which JSON.stringify escapes, may stand as it is in a string of the text: such text is not
  // copied (text decoded from UTF-8 has none).
  if (!(text as unknown as { isWellFormed(): boolean }).isWellFormed()) return undefined;
  const read = new StringifiedText(text);
  if (work !== undefined) work.reads++;
  const out: string[] = [];
  try {
    if (!read.value(original, 0) || read.pos !== text.length) return undefined;
    if (!write(written, read, 0, out)) return undefined;
  } catch {
    // Nesting deeper than the stack reads (the caller's serializer says what it makes of it), a BigInt or a cycle:
    // JSON.stringify's own error, from the caller's serializer.
    return undefined;
  }
  if (work !== undefined) work.spliced++;
  return out.join("");
}
