import { JsonNumber } from "@toolcall/core";
import {
  type ArgumentsMapping,
  createTokenFinder,
  createWorkMeter,
  DEFAULT_MAX_DEPTH,
  isWorkMeter,
  type TokenFinder,
  type WorkMeter,
} from "@toolcall/core/kit";
import { QUOTE_TOKEN } from "./tokens.js";

export type GemmaArgumentsResult =
  | { ok: true; value: ArgumentsMapping; end: number }
  | { ok: false; error: string; position: number };

export interface GemmaArgumentsOptions {
  /** The work meter the read charges (default: one that only counts). */
  meter?: WorkMeter;
}

const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NULL_WORDS = new Set(["null", "none", "None", "nil"]);
/** Keys are short; looking further ahead for one would make adversarial text quadratic. */
const KEY_LOOKAHEAD = 256;
const QUOTE_LENGTH = QUOTE_TOKEN.length;
/** What ends a bare value. */
const BARE_ENDS = [",", "}", "]", QUOTE_TOKEN];

/** A forward search remembered: from `from`, the first match is at `found` (-1: none to the end). */
interface Memo {
  from: number;
  found: number;
}

/**
 * What is known about one text, shared by every read of it (a stream reads several calls in one buffer): where its
 * quote tokens are, which of them close a string, and where its JSON strings end. With it, each stretch of the text
 * is scanned a bounded number of times however many calls begin in it.
 */
export class GemmaTextScan {
  readonly finder: TokenFinder;
  /** The next quote token that closes a string, in an object (0) and in an array (1). */
  readonly closing: [Memo, Memo] = [
    { from: Number.POSITIVE_INFINITY, found: -1 },
    { from: Number.POSITIVE_INFINITY, found: -1 },
  ];
  /** The last JSON string read: opened at `from`, its scan stopped at `stop` with `end` (-1: not a string). */
  jsonString = { from: Number.POSITIVE_INFINITY, stop: -1, end: -1 };

  constructor(
    readonly text: string,
    readonly meter: WorkMeter,
  ) {
    this.finder = createTokenFinder({ text, meter });
  }
}

/**
 * How the reader gives up: thrown to leave the recursion, caught below. Not an `Error`: failing is the common case
 * on hostile text, and an `Error` would capture a stack trace each time (tens of microseconds, per call tried).
 */
class GemmaSyntaxError {
  constructor(
    readonly message: string,
    readonly position: number,
  ) {}
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function isLineTerminator(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029;
}

/**
 * A key the model wrote JSON-quoted (`{"url":<|"|>…<|"|>}`): the quotes are JSON's, not the key's. One reading: a
 * key is never a JSON string literal of itself.
 */
function jsonQuotedKey(key: string): string | undefined {
  if (key.length < 2 || !key.startsWith('"') || !key.endsWith('"')) return undefined;
  try {
    const value: unknown = JSON.parse(key);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

function setOwn(target: ArgumentsMapping, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Reads Gemma 4's native argument syntax, as its chat template renders it and the model emits it:
 * `{key:<|"|>text<|"|>,n:42,b:true,o:{k:<|"|>v<|"|>},a:[<|"|>x<|"|>]}`. Keys are bare (or between quote tokens),
 * strings sit between `<|"|>` tokens, and `true`, `false`, `null`/`none`/`None`/`nil` and JSON numbers are bare.
 *
 * Ambiguous text follows fixed rules, documented in the package README:
 * - a string ends at the first `<|"|>` that is followed by the end of its container, or by a comma and then a key
 *   and a colon (in an object) or another value (in an array); a `<|"|>` inside a string is a literal `"` (the
 *   model writes a Python `"""` as three tokens);
 * - a bare value runs to the next `,`, `}` or `]` and is a string unless it is one of the words or a number (the
 *   server stripped the quote tokens);
 * - anything else (a missing comma, an unterminated string, text after the object) is an error, never a guess.
 *
 * Parses from `start`, which must hold `{`; reports where the object ended. Total (any input gives a result), and
 * linear: the work is charged to `options.meter`.
 *
 * @example
 * parseGemmaArguments('{city:<|"|>Paris<|"|>,days:3}'); // { ok: true, value: { city: "Paris", days: JsonNumber("3") }, end: 29 }
 */
export function parseGemmaArguments(
  text: string,
  start = 0,
  options: GemmaArgumentsOptions = {},
): GemmaArgumentsResult {
  if (typeof text !== "string") return { ok: false, error: "'{'", position: 0 };
  const meter = isWorkMeter(options?.meter) ? options.meter : createWorkMeter();
  return readGemmaArguments(new GemmaTextScan(text, meter), typeof start === "number" ? start : 0);
}

/** {@link parseGemmaArguments} over a text whose scan is shared with other reads of it. */
export function readGemmaArguments(scan: GemmaTextScan, start: number): GemmaArgumentsResult {
  const { text, finder } = scan;
  const length = text.length;
  let pos = start;
  let steps = 0;
  const fail = (message: string): never => {
    throw new GemmaSyntaxError(message, pos);
  };
  const spacesFrom = (from: number): number => {
    let i = from;
    while (i < length && isSpace(text.charCodeAt(i))) i++;
    steps += i - from;
    return i;
  };
  const skip = () => {
    pos = spacesFrom(pos);
  };

  const keyFollows = (from: number): boolean => {
    let i = spacesFrom(from);
    if (text.startsWith(QUOTE_TOKEN, i)) {
      const close = finder.indexOf(QUOTE_TOKEN, i + QUOTE_LENGTH);
      if (close === -1 || close - i > KEY_LOOKAHEAD) return false;
      i = close + QUOTE_LENGTH;
    } else {
      const limit = Math.min(length, i + KEY_LOOKAHEAD);
      const begin = i;
      while (i < limit && !",:{}[]".includes(text.charAt(i)) && !text.startsWith("<|", i)) i++;
      steps += i - begin;
      if (i === begin) return false;
    }
    i = spacesFrom(i);
    return text.charAt(i) === ":";
  };

  /** Whether the `<|"|>` at `at` closes a string in a container of the given kind. */
  const closesString = (at: number, inArray: boolean): boolean => {
    steps++;
    let i = spacesFrom(at + QUOTE_LENGTH);
    const c = text.charAt(i);
    if (c === "}" || c === "]") return true;
    if (c !== ",") return false;
    if (!inArray) return keyFollows(i + 1);
    i = spacesFrom(i + 1);
    return i < length && !",]}".includes(text.charAt(i));
  };

  /** The first quote token at or after `from` that closes a string, remembered for the reads that follow. */
  const nextClosing = (from: number, inArray: boolean): number => {
    const memo = scan.closing[inArray ? 1 : 0];
    if (memo.from <= from && (memo.found === -1 || memo.found >= from)) return memo.found;
    let at = finder.indexOf(QUOTE_TOKEN, from);
    while (at !== -1 && !closesString(at, inArray)) at = finder.indexOf(QUOTE_TOKEN, at + QUOTE_LENGTH);
    memo.from = from;
    memo.found = at;
    return at;
  };

  const readString = (inArray: boolean): string => {
    const open = pos;
    const from = pos + QUOTE_LENGTH;
    const at = nextClosing(from, inArray);
    if (at === -1) {
      pos = open;
      return fail("unterminated string");
    }
    const raw = text.slice(from, at);
    steps += 2 * raw.length;
    pos = at + QUOTE_LENGTH;
    // Every quote token before the closing one is a literal quote.
    return raw.includes(QUOTE_TOKEN) ? raw.split(QUOTE_TOKEN).join('"') : raw;
  };

  /**
   * Where the JSON string opened at `open` stops: after its closing quote, or -1 when it is not one (a raw newline,
   * an escaped line end, the end of the text). A quote inside a string that was scanned already stops where that
   * string stopped: both scans are in step from the character after it.
   */
  const jsonStringEnd = (open: number): number => {
    const memo = scan.jsonString;
    if (open >= memo.from && open < memo.stop) return memo.end;
    let i = open + 1;
    let end = -1;
    while (i < length) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        end = i + 1;
        break;
      }
      if (c === 0x0a) break;
      if (c === 0x5c) {
        if (i + 1 >= length || isLineTerminator(text.charCodeAt(i + 1))) break;
        i += 2;
        continue;
      }
      i++;
    }
    steps += i - open;
    scan.jsonString = { from: open, stop: i, end };
    return end;
  };

  /** The first of `,`, `}`, `]` or a quote token at or after `from` (the text's length when none): remembered searches. */
  const bareEnd = (from: number): number => {
    let end = length;
    for (const token of BARE_ENDS) {
      const at = finder.indexOf(token, from);
      if (at !== -1 && at < end) end = at;
    }
    return end;
  };

  const readBare = (): unknown => {
    // Searched, not walked (a text with no delimiter after many calls would be walked to its end from each of them),
    // and only its ends and a number's characters are looked at: a long word costs what tells what it is.
    const start = pos;
    const stop = bareEnd(pos);
    pos = stop;
    let begin = start;
    let end = stop;
    while (begin < end && /\s/.test(text.charAt(begin))) begin++;
    while (end > begin && /\s/.test(text.charAt(end - 1))) end--;
    let numeric = begin;
    while (numeric < end && "0123456789+-.eE".includes(text.charAt(numeric))) numeric++;
    steps += 1 + (begin - start) + (stop - end) + (numeric - begin);
    const word = text.slice(begin, end);
    if (word === "") fail("a value");
    if (word === "true") return true;
    if (word === "false") return false;
    if (word.length <= 4 && NULL_WORDS.has(word)) return null;
    if (numeric === end && NUMBER.test(word)) return new JsonNumber(word);
    return word;
  };

  const readValue = (depth: number, inArray: boolean): unknown => {
    skip();
    if (text.startsWith(QUOTE_TOKEN, pos)) return readString(inArray);
    const c = text.charAt(pos);
    if (c === "{") return readObject(depth + 1);
    if (c === "[") return readArray(depth + 1);
    if (c === '"') {
      // A JSON string where the model wrote one; read as JSON reads it.
      const end = jsonStringEnd(pos);
      if (end === -1) fail("a string");
      let value: unknown;
      try {
        value = JSON.parse(text.slice(pos, end));
      } catch {
        value = undefined;
      }
      steps += 2 * (end - pos);
      if (typeof value !== "string") fail("a string");
      pos = end;
      return value;
    }
    return readBare();
  };

  const readKey = (): string => {
    skip();
    if (text.startsWith(QUOTE_TOKEN, pos)) {
      const close = finder.indexOf(QUOTE_TOKEN, pos + QUOTE_LENGTH);
      if (close === -1) fail("a key");
      const key = text.slice(pos + QUOTE_LENGTH, close);
      steps += key.length;
      pos = close + QUOTE_LENGTH;
      return key;
    }
    const begin = pos;
    while (pos < length && !",:{}[]".includes(text.charAt(pos)) && !text.startsWith("<|", pos)) pos++;
    steps += 2 * (pos - begin);
    const key = text.slice(begin, pos).trim();
    if (key === "") fail("a key");
    return jsonQuotedKey(key) ?? key;
  };

  const readObject = (depth: number): ArgumentsMapping => {
    if (depth > DEFAULT_MAX_DEPTH) fail(`nesting deeper than ${DEFAULT_MAX_DEPTH}`);
    pos++; // {
    steps++;
    const object: ArgumentsMapping = {};
    skip();
    if (text.charAt(pos) === "}") {
      pos++;
      return object;
    }
    for (;;) {
      const key = readKey();
      skip();
      if (text.charAt(pos) !== ":") fail("':'");
      pos++;
      setOwn(object, key, readValue(depth, false));
      skip();
      const c = text.charAt(pos);
      pos++;
      steps++;
      if (c === "}") return object;
      if (c !== ",") {
        pos--;
        fail("',' or '}'");
      }
    }
  };

  const readArray = (depth: number): unknown[] => {
    if (depth > DEFAULT_MAX_DEPTH) fail(`nesting deeper than ${DEFAULT_MAX_DEPTH}`);
    pos++; // [
    steps++;
    const array: unknown[] = [];
    skip();
    if (text.charAt(pos) === "]") {
      pos++;
      return array;
    }
    for (;;) {
      array.push(readValue(depth, true));
      skip();
      const c = text.charAt(pos);
      pos++;
      steps++;
      if (c === "]") return array;
      if (c !== ",") {
        pos--;
        fail("',' or ']'");
      }
    }
  };

  try {
    skip();
    if (text.charAt(pos) !== "{") fail("'{'");
    const value = readObject(1);
    return { ok: true, value, end: pos };
  } catch (error) {
    if (error instanceof GemmaSyntaxError)
      return { ok: false, error: error.message, position: error.position };
    // A stack overflow on pathological nesting, the only other way out.
    return { ok: false, error: "too deeply nested", position: pos };
  } finally {
    scan.meter.charge(steps);
  }
}
