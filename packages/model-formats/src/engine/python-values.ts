import { JsonNumber } from "@toolcall/core";
import type { Reader, Step } from "./reader.js";

export type PythonRead =
  | { status: "ok"; value: unknown }
  | { status: "invalid"; message: string }
  | { status: "end" };

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

function* readString(reader: Reader, quote: string): Step<PythonRead> {
  reader.consume(1);
  let out = "";
  for (;;) {
    const c = yield* reader.peekChar();
    if (c === null) return END;
    reader.consume(1);
    if (c === quote) return { status: "ok", value: out };
    if (c === "\n") return invalid("a newline inside a string");
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

/** Items up to `close`, separated by commas (a trailing comma allowed); `pair` reads `key: value` items. */
function* readItems(
  reader: Reader,
  close: string,
  depth: number,
  pair: boolean,
): Step<{ status: "ok"; items: unknown[] } | Failure> {
  reader.consume(1);
  const items: unknown[] = [];
  for (;;) {
    yield* reader.space();
    const c = yield* reader.peekChar();
    if (c === null) return END;
    if (c === close) {
      reader.consume(1);
      return { status: "ok", items };
    }
    const first = yield* readPythonValue(reader, depth + 1);
    if (first.status !== "ok") return first;
    if (pair) {
      yield* reader.space();
      if ((yield* reader.peekChar()) !== ":") return invalid("expected : in a dict");
      reader.consume(1);
      const second = yield* readPythonValue(reader, depth + 1);
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

/**
 * Reads one Python literal (what `ast.literal_eval` reads: strings, numbers, `True`/`False`/`None`, lists, tuples,
 * dicts) and, as olmo3 and some fine-tunes write them, JSON's `true`/`false`/`null`, into a JSON value: tuples are
 * lists, numbers keep their digits. Anything else is invalid.
 */
export function* readPythonValue(reader: Reader, depth = 0): Step<PythonRead> {
  if (depth > MAX_DEPTH) return invalid("nesting too deep");
  yield* reader.space();
  const c = yield* reader.peekChar();
  if (c === null) return END;
  if (c === "'" || c === '"') return yield* readString(reader, c);
  if (c === "[" || c === "(") {
    const read = yield* readItems(reader, c === "[" ? "]" : ")", depth, false);
    return read.status === "ok" ? { status: "ok", value: read.items } : read;
  }
  if (c === "{") {
    const read = yield* readItems(reader, "}", depth, true);
    if (read.status !== "ok") return read;
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
