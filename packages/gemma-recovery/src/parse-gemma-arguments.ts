import { type ArgumentsMapping, DEFAULT_MAX_DEPTH, JsonNumber } from "@toolcall/core";
import { QUOTE_TOKEN } from "./tokens.js";

export type GemmaArgumentsResult =
  | { ok: true; value: ArgumentsMapping; end: number }
  | { ok: false; error: string; position: number };

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const NULL_WORDS = new Set(["null", "none", "None", "nil"]);
/** Keys are short; looking further ahead for one would make adversarial text quadratic. */
const KEY_LOOKAHEAD = 256;

class GemmaSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
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
 * Parses from `start`, which must hold `{`; reports where the object ended.
 */
export function parseGemmaArguments(text: string, start = 0): GemmaArgumentsResult {
  let pos = start;
  const fail = (message: string): never => {
    throw new GemmaSyntaxError(message, pos);
  };
  const skip = () => {
    while (pos < text.length && isSpace(text.charCodeAt(pos))) pos++;
  };

  const keyFollows = (from: number): boolean => {
    let i = from;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    if (text.startsWith(QUOTE_TOKEN, i)) {
      const close = text.indexOf(QUOTE_TOKEN, i + QUOTE_TOKEN.length);
      if (close === -1 || close - i > KEY_LOOKAHEAD) return false;
      i = close + QUOTE_TOKEN.length;
    } else {
      const limit = Math.min(text.length, i + KEY_LOOKAHEAD);
      const begin = i;
      while (i < limit && !",:{}[]".includes(text.charAt(i)) && !text.startsWith("<|", i)) i++;
      if (i === begin) return false;
    }
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    return text.charAt(i) === ":";
  };

  /** Whether the `<|"|>` at `at` closes a string in a container of the given kind. */
  const closesString = (at: number, inArray: boolean): boolean => {
    let i = at + QUOTE_TOKEN.length;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    const c = text.charAt(i);
    if (c === "}" || c === "]") return true;
    if (c !== ",") return false;
    if (!inArray) return keyFollows(i + 1);
    i++;
    while (i < text.length && isSpace(text.charCodeAt(i))) i++;
    return i < text.length && !",]}".includes(text.charAt(i));
  };

  const readString = (inArray: boolean): string => {
    const open = pos;
    pos += QUOTE_TOKEN.length;
    const parts: string[] = [];
    let last = pos;
    for (
      let at = text.indexOf(QUOTE_TOKEN, pos);
      at !== -1;
      at = text.indexOf(QUOTE_TOKEN, at + QUOTE_TOKEN.length)
    ) {
      if (closesString(at, inArray)) {
        parts.push(text.slice(last, at));
        pos = at + QUOTE_TOKEN.length;
        return parts.join("");
      }
      parts.push(text.slice(last, at), '"');
      last = at + QUOTE_TOKEN.length;
    }
    pos = open;
    return fail("unterminated string");
  };

  const readBare = (): unknown => {
    const begin = pos;
    while (pos < text.length && !",}]".includes(text.charAt(pos)) && !text.startsWith(QUOTE_TOKEN, pos))
      pos++;
    const word = text.slice(begin, pos).trim();
    if (word === "") fail("a value");
    if (word === "true") return true;
    if (word === "false") return false;
    if (NULL_WORDS.has(word)) return null;
    if (NUMBER.test(word)) return new JsonNumber(word);
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
      const match = /^"(?:[^"\\\n]|\\.)*"/.exec(text.slice(pos, pos + 65536));
      if (match === null) fail("a string");
      pos += (match as RegExpExecArray)[0].length;
      return JSON.parse((match as RegExpExecArray)[0]) as string;
    }
    return readBare();
  };

  const readKey = (): string => {
    skip();
    if (text.startsWith(QUOTE_TOKEN, pos)) {
      const close = text.indexOf(QUOTE_TOKEN, pos + QUOTE_TOKEN.length);
      if (close === -1) fail("a key");
      const key = text.slice(pos + QUOTE_TOKEN.length, close);
      pos = close + QUOTE_TOKEN.length;
      return key;
    }
    const begin = pos;
    while (pos < text.length && !",:{}[]".includes(text.charAt(pos)) && !text.startsWith("<|", pos)) pos++;
    const key = text.slice(begin, pos).trim();
    if (key === "") fail("a key");
    return key;
  };

  const readObject = (depth: number): ArgumentsMapping => {
    if (depth > DEFAULT_MAX_DEPTH) fail(`nesting deeper than ${DEFAULT_MAX_DEPTH}`);
    pos++; // {
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
    if (error instanceof RangeError) return { ok: false, error: "too deeply nested", position: pos };
    throw error;
  }
}
