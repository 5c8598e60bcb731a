import { setOwn } from "../define-property.js";
import { JsonNumber } from "../json-number.js";
import { DEFAULT_MAX_DEPTH } from "../parse-json.js";
import { serializeJson } from "../serialize-json.js";
import { contextMeter, type RepairRule } from "./repair-rule.js";
import { TextBuilder } from "./text-builder.js";

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  n: "\n",
  t: "\t",
  r: "\r",
  b: "\b",
  f: "\f",
  v: "\v",
  a: "\x07",
  "0": "\0",
  "\n": "",
};

class PythonLiteralError extends Error {}

/**
 * The one failure the reader throws, made once: a text that is not a Python literal is the common case when rules
 * are tried in turn, and a new error each time would capture a stack nobody reads.
 */
const NOT_A_LITERAL = new PythonLiteralError("not a Python literal");

/**
 * A tokenizer-based reader of Python literals (dicts, lists, tuples, `'…'` and `"…"` strings, `True`, `False`,
 * `None`, numbers), the shape `repr(dict)` and `str(dict)` produce. JSON's `true`/`false`/`null` are accepted too,
 * since models mix them. Linear time; recursion bounded by the nesting limit.
 */
function readPythonLiteral(text: string, stats: { values: number }): { value: unknown; pythonic: boolean } {
  let pos = 0;
  // Whether anything only Python writes was seen; plain JSON with a trailing comma is another rule's job.
  let pythonic = false;
  const fail = (): never => {
    throw NOT_A_LITERAL;
  };
  const skip = () => {
    for (;;) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else return;
    }
  };
  const readString = (): string => {
    const quote = text.charCodeAt(pos);
    if (quote === 0x27) pythonic = true;
    pos++;
    let out: TextBuilder | undefined;
    let last = pos;
    while (pos < text.length) {
      const c = text.charCodeAt(pos);
      if (c === quote) {
        pos++;
        if (out === undefined) return text.slice(last, pos - 1);
        out.pushRange(text, last, pos - 1);
        return out.toString();
      }
      if (c === 0x0a) fail();
      if (c === 0x5c) {
        out ??= new TextBuilder();
        out.pushRange(text, last, pos);
        const e = text.charAt(pos + 1);
        const simple = SIMPLE_ESCAPES[e];
        if (simple !== undefined) {
          out.pushString(simple);
          pos += 2;
        } else if (e === "x" || e === "u" || e === "U") {
          const size = e === "x" ? 2 : e === "u" ? 4 : 8;
          const hex = text.slice(pos + 2, pos + 2 + size);
          if (!/^[0-9a-fA-F]+$/.test(hex) || hex.length !== size) fail();
          const code = Number.parseInt(hex, 16);
          if (code > 0x10ffff) fail();
          out.pushString(String.fromCodePoint(code));
          pos += 2 + size;
        } else {
          // Python keeps unknown escapes as they are ("\d" is backslash, d).
          out.pushCode(0x5c);
          pos += 1;
        }
        last = pos;
        continue;
      }
      pos++;
    }
    return fail();
  };
  const readSequence = (close: string, depth: number): unknown[] => {
    const items: unknown[] = [];
    skip();
    while (text.charAt(pos) !== close) {
      items.push(readValue(depth));
      skip();
      if (text.charAt(pos) === ",") {
        pos++;
        skip();
      } else if (text.charAt(pos) !== close) fail();
    }
    pos++;
    return items;
  };
  const readValue = (depth: number): unknown => {
    stats.values++;
    if (depth > DEFAULT_MAX_DEPTH) fail();
    skip();
    const c = text.charAt(pos);
    if (c === "{") {
      pos++;
      const object: Record<string, unknown> = {};
      skip();
      while (text.charAt(pos) !== "}") {
        const key = readValue(depth + 1);
        if (typeof key !== "string" && !JsonNumber.isInstance(key)) fail();
        skip();
        if (text.charAt(pos) !== ":") fail();
        pos++;
        setOwn(object, String(key), readValue(depth + 1));
        skip();
        if (text.charAt(pos) === ",") {
          pos++;
          skip();
        } else if (text.charAt(pos) !== "}") fail();
      }
      pos++;
      return object;
    }
    if (c === "[") {
      pos++;
      return readSequence("]", depth + 1);
    }
    if (c === "(") {
      pythonic = true;
      pos++;
      return readSequence(")", depth + 1);
    }
    if (c === "'" || c === '"') return readString();
    for (const [word, value] of WORDS) {
      if (text.startsWith(word, pos) && !/[A-Za-z0-9_]/.test(text.charAt(pos + word.length))) {
        pos += word.length;
        if (word.charCodeAt(0) < 0x61) pythonic = true;
        return value;
      }
    }
    NUMBER.lastIndex = pos;
    const match = NUMBER.exec(text);
    if (match === null) return fail();
    pos += match[0].length;
    return new JsonNumber(match[0]);
  };
  const value = readValue(0);
  skip();
  if (pos !== text.length) fail();
  return { value, pythonic };
}

/** What beginning one value costs at most: the six words compared, the number pattern's first characters. */
const VALUE_COST = 40;

const WORDS: ReadonlyArray<[string, unknown]> = [
  ["True", true],
  ["False", false],
  ["None", null],
  ["true", true],
  ["false", false],
  ["null", null],
];

/** What only Python writes, one of which any text the reader calls pythonic holds: `'`, `(`, `True`, `False`, `None`. */
const PYTHON_ONLY = /['(]|True|False|None/;

/**
 * R6 `python-literal`: a Python dict literal (`'` quotes, `True`/`False`/`None`), read by a real tokenizer. Never a
 * blanket quote swap: `"what's the weather"` survives.
 *
 * @example
 * decodeArguments("{'city': 'Paris', 'metric': True}", { repairs: [pythonLiteral] }).arguments;
 * // { city: "Paris", metric: true }
 */
export const pythonLiteral: RepairRule = {
  specificationVersion: "1",
  id: "python-literal",
  description: "a Python dict literal ('quotes', True/False/None)",
  repair(text, context) {
    if (typeof text !== "string") return undefined;
    const meter = contextMeter(context);
    const trimmed = text.trim();
    meter?.charge(text.length);
    if (!trimmed.startsWith("{")) return undefined;
    // Text with nothing only Python writes reads (when it reads at all) as not pythonic, which this rule leaves alone:
    // one native search instead of the reader, whose failure (a throw) costs more than the read.
    if (!PYTHON_ONLY.test(trimmed)) {
      meter?.charge(trimmed.length);
      return undefined;
    }
    let read: { value: unknown; pythonic: boolean };
    const stats = { values: 0 };
    try {
      read = readPythonLiteral(trimmed, stats);
    } catch (error) {
      if (error instanceof PythonLiteralError || error instanceof RangeError) return undefined;
      throw error;
    } finally {
      // The reader moves forward only (each character once, and copied once into a string), and each value it
      // begins tries the six words and the number pattern at one place.
      meter?.charge(2 * trimmed.length + VALUE_COST * stats.values);
    }
    if (!read.pythonic) return undefined;
    const serialized = serializeJson(read.value);
    if (!serialized.success) return undefined;
    meter?.charge(2 * serialized.value.length);
    return serialized.value !== text ? serialized.value : undefined;
  },
};
