import { JsonNumber } from "@toolcall/core";
import type { Reader, Step } from "./reader.js";

export type PythonRead =
  | { status: "ok"; value: unknown }
  /** `code`: why, when it is more precise than `call_invalid` (`set_items_repeat`). */
  | { status: "invalid"; message: string; code?: string }
  | { status: "end" };

/**
 * The repairs a read made, counted for the call to record once it has been read whole (never on a cut call): a set
 * read as a list (`{'a', 'b'}`: JSON has no set), a raw line break inside a string (LFM2 writes code that way).
 */
export interface PythonRepairs {
  setAsList: number;
  lineBreaks: number;
}

const MAX_DEPTH = 200;
const IDENTIFIER_START = /[A-Za-z_]/;
const NUMBER_CHARS = "0123456789+-.eE_xXabcdefABCDEFoO";
const INTEGER = /^[+-]?\d+$/;
const FLOAT = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "0": "\0",
  b: "\b",
  f: "\f",
  v: "\v",
  a: "\x07",
};

type Failure = Exclude<PythonRead, { status: "ok" }>;
const END: Failure = { status: "end" };
const invalid = (message: string): Failure => ({ status: "invalid", message });

/** An identifier (`get_weather`, `True`), or "" when none starts here. */
export function* readIdentifier(reader: Reader): Step<string> {
  const first = yield* reader.peekChar();
  if (first === null || !IDENTIFIER_START.test(first)) return "";
  let out = "";
  for (;;) {
    const c = yield* reader.peekChar();
    if (c === null || !/[A-Za-z0-9_]/.test(c)) return out;
    out += reader.consume(1);
  }
}

/**
 * A call's name: an identifier, or identifiers joined by dots (`grocery.orderIngredients`, BFCL's and vLLM's dotted
 * names). A dot not followed by an identifier is returned as read (`name.`), which no caller takes for a name.
 *
 * @example
 * // at "grocery.orderIngredients(" → "grocery.orderIngredients"
 */
export function* readCallName(reader: Reader): Step<string> {
  let name = yield* readIdentifier(reader);
  while (name !== "" && (yield* reader.peekChar()) === ".") {
    name += reader.consume(1);
    const part = yield* readIdentifier(reader);
    if (part === "") return name;
    name += part;
  }
  return name;
}

function* readString(reader: Reader, quote: string, repairs: PythonRepairs): Step<PythonRead> {
  reader.consume(1);
  let out = "";
  for (;;) {
    const c = yield* reader.peekChar();
    if (c === null) return END;
    reader.consume(1);
    if (c === quote) return { status: "ok", value: out };
    // Python refuses a raw line break in a '…' string; between two quotes it has one meaning, the line break.
    if (c === "\n") repairs.lineBreaks++;
    if (c !== "\\") {
      out += c;
      continue;
    }
    const e = yield* reader.peekChar();
    if (e === null) return END;
    reader.consume(1);
    if (e in ESCAPES) out += ESCAPES[e];
    else if (e === "x" || e === "u") {
      const size = e === "x" ? 2 : 4;
      let hex = "";
      while (hex.length < size) {
        const h = yield* reader.peekChar();
        if (h === null) return END;
        if (!/[0-9a-fA-F]/.test(h)) return invalid("a bad escape");
        hex += reader.consume(1);
      }
      out += String.fromCharCode(Number.parseInt(hex, 16));
    } else out += `\\${e}`;
  }
}

function* readNumber(reader: Reader): Step<PythonRead> {
  let text = "";
  for (;;) {
    const c = yield* reader.peekChar();
    if (c === null || !NUMBER_CHARS.includes(c)) break;
    text += reader.consume(1);
  }
  const plain = text.replaceAll("_", "");
  if (INTEGER.test(plain)) return { status: "ok", value: new JsonNumber(BigInt(plain).toString()) };
  if (FLOAT.test(plain)) {
    // JSON has no leading `+`, bare `.5` or `5.`: write the number JSON's way, keeping its digits.
    const json = plain
      .replace(/^\+/, "")
      .replace(/^(-?)\./, "$10.")
      .replace(/\.(?=$|[eE])/, ".0");
    // A number a double cannot hold (`1e999`) stays text: written back it would not be JSON.
    if (!Number.isFinite(Number(json))) return { status: "ok", value: plain };
    return { status: "ok", value: new JsonNumber(json) };
  }
  return invalid(`not a number: ${JSON.stringify(text)}`);
}

/**
 * Items up to `close`, separated by commas (a trailing comma allowed); `braces` reads `{…}`: `key: value` items (a
 * dict), or, when its first item is not followed by `:`, the items of a set.
 */
function* readItems(
  reader: Reader,
  close: string,
  depth: number,
  braces: boolean,
  repairs: PythonRepairs,
): Step<{ status: "ok"; items: unknown[]; set: boolean } | Failure> {
  reader.consume(1);
  const items: unknown[] = [];
  let pair = braces;
  for (;;) {
    yield* reader.space();
    const c = yield* reader.peekChar();
    if (c === null) return END;
    if (c === close) {
      reader.consume(1);
      return { status: "ok", items, set: braces && !pair };
    }
    const first = yield* readPythonValue(reader, depth + 1, repairs);
    if (first.status !== "ok") return first;
    if (braces && items.length === 0) {
      yield* reader.space();
      const after = yield* reader.peekChar();
      if (after === null) return END;
      pair = after === ":";
    }
    if (braces && !pair && !isSetItem(first.value)) return invalid("a set item Python cannot hash");
    if (pair) {
      yield* reader.space();
      if ((yield* reader.peekChar()) !== ":") return invalid("expected : in a dict");
      reader.consume(1);
      const second = yield* readPythonValue(reader, depth + 1, repairs);
      if (second.status !== "ok") return second;
      if (typeof first.value !== "string") return invalid("a dict key that is not a string");
      items.push([first.value, second.value]);
    } else items.push(first.value);
    yield* reader.space();
    const after = yield* reader.peekChar();
    if (after === null) return END;
    if (after === ",") reader.consume(1);
    else if (after !== close) return invalid(`expected , or ${close}`);
  }
}

/** A set item Python can hash and JSON can hold: a string, a number, a boolean or `None`. */
function isSetItem(value: unknown): boolean {
  return value === null || typeof value !== "object" || value instanceof JsonNumber;
}

/** The key under which Python's `==` finds two set items equal (`1`, `1.0` and `True` are one item). */
function setKey(value: unknown): string {
  if (value === true || value === false) return `n:${value ? 1 : 0}`;
  if (value instanceof JsonNumber) return `n:${Number(value.toString())}`;
  return typeof value === "string" ? `s:${value}` : "none";
}

/**
 * A set's items as a list in the order written, the one reading JSON can hold; a set whose items repeat has none (a
 * list with repeats, or Python's set keeping the first), so it is no value (`set_items_repeat`).
 */
function setAsList(items: readonly unknown[], repairs: PythonRepairs): PythonRead {
  const seen = new Set<string>();
  for (const item of items) {
    const key = setKey(item);
    if (seen.has(key))
      return { status: "invalid", code: "set_items_repeat", message: "a set whose items repeat" };
    seen.add(key);
  }
  repairs.setAsList++;
  return { status: "ok", value: [...items] };
}

/**
 * Reads one Python literal (what `ast.literal_eval` reads: strings, numbers, `True`/`False`/`None`, lists, tuples,
 * dicts, sets) and, as olmo3 and some fine-tunes write them, JSON's `true`/`false`/`null`, into a JSON value: tuples
 * are lists, numbers keep their digits. Two readings Python itself refuses are taken where they have one meaning and
 * counted in `repairs`: a set becomes the list of its items as written, a raw line break inside a string is a line
 * break. Anything else is invalid.
 */
export function* readPythonValue(
  reader: Reader,
  depth = 0,
  repairs: PythonRepairs = { setAsList: 0, lineBreaks: 0 },
): Step<PythonRead> {
  if (depth > MAX_DEPTH) return invalid("nesting too deep");
  yield* reader.space();
  const c = yield* reader.peekChar();
  if (c === null) return END;
  if (c === "'" || c === '"') return yield* readString(reader, c, repairs);
  if (c === "[" || c === "(") {
    const read = yield* readItems(reader, c === "[" ? "]" : ")", depth, false, repairs);
    return read.status === "ok" ? { status: "ok", value: read.items } : read;
  }
  if (c === "{") {
    const read = yield* readItems(reader, "}", depth, true, repairs);
    if (read.status !== "ok") return read;
    if (read.set) return setAsList(read.items, repairs);
    const object: Record<string, unknown> = {};
    for (const [key, value] of read.items as Array<[string, unknown]>)
      Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
    return { status: "ok", value: object };
  }
  if (/[0-9+\-.]/.test(c)) return yield* readNumber(reader);
  const word = yield* readIdentifier(reader);
  switch (word) {
    case "True":
    case "true":
      return { status: "ok", value: true };
    case "False":
    case "false":
      return { status: "ok", value: false };
    case "None":
    case "null":
      return { status: "ok", value: null };
    default:
      return invalid(word === "" ? `unexpected ${JSON.stringify(c)}` : `not a literal: ${word}`);
  }
}
