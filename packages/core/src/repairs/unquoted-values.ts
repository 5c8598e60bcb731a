import { isJsonSpace } from "./json-objects.js";
import { contextMeter, type RepairRule } from "./repair-rule.js";
import { TextBuilder } from "./text-builder.js";

/** Bare words that are not strings: JSON's own literals are kept, the rest name a value JSON cannot hold or another rule's shape. */
const NOT_STRINGS = new Set([
  "NaN",
  "Infinity",
  "-Infinity",
  "+Infinity",
  "undefined",
  "None",
  "True",
  "False",
]);
const JSON_LITERALS = new Set(["true", "false", "null"]);
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/**
 * Whether a token is made of number characters only, with a digit (`+5`, `007`, `.5`, `1.`, `1e`): when JSON does
 * not allow it, is it a number or a string? Not unique. One pass (a regular expression here backtracks).
 */
function isNumberLike(token: string): boolean {
  let digit = false;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) digit = true;
    // + - . e E
    else if (!(c === 0x2b || c === 0x2d || c === 0x2e || c === 0x65 || c === 0x45)) return false;
  }
  return digit;
}

/** Characters that end a bare token: a delimiter, or what would make its reading not unique. */
function endsToken(c: number): boolean {
  // , } ] " { [ ' < > and whitespace
  return (
    c === 0x2c ||
    c === 0x7d ||
    c === 0x5d ||
    c === 0x22 ||
    c === 0x7b ||
    c === 0x5b ||
    c === 0x27 ||
    c === 0x3c ||
    c === 0x3e ||
    c < 0x21
  );
}

/**
 * The string a bare token stands for, or `undefined` when its reading is not unique: backslashes either all doubled
 * (`C:\\Users\\x`, JSON escapes written without the quotes) or all single (`C:\Users\x`, taken as they are).
 */
function tokenString(token: string): string | undefined {
  if (!token.includes("\\")) return token;
  let doubled = 0;
  let single = 0;
  for (let i = 0; i < token.length; i++) {
    if (token.charCodeAt(i) !== 0x5c) continue;
    if (token.charCodeAt(i + 1) === 0x5c) {
      doubled++;
      i++;
    } else single++;
  }
  if (doubled > 0 && single > 0) return undefined;
  return doubled > 0 ? token.replaceAll("\\\\", "\\") : token;
}

type Scope = 0x7b | 0x5b;

/**
 * The text with each bare scalar in a value position quoted, or `undefined` when there is none, or when one of them
 * cannot be read one way only. A bare token is a run of characters without whitespace, quotes, brackets or angle
 * brackets, followed (after whitespace) by `,`, `}` or `]`: at the end of the text it may be cut, and is left alone.
 */
function quoteBareValues(text: string): string | undefined {
  const scopes: Scope[] = [];
  let out: TextBuilder | undefined;
  let last = 0;
  let inString = false;
  let valueNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (isJsonSpace(c)) continue;
    if (c === 0x22) {
      inString = true;
      valueNext = false;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      scopes.push(c);
      valueNext = c === 0x5b;
      continue;
    }
    if (c === 0x7d || c === 0x5d) {
      scopes.pop();
      valueNext = false;
      continue;
    }
    if (c === 0x3a) {
      valueNext = scopes.at(-1) === 0x7b;
      continue;
    }
    if (c === 0x2c) {
      valueNext = scopes.at(-1) === 0x5b;
      continue;
    }
    if (!valueNext) continue;
    valueNext = false;
    let end = i;
    while (end < text.length && !endsToken(text.charCodeAt(end))) end++;
    let after = end;
    while (after < text.length && isJsonSpace(text.charCodeAt(after))) after++;
    const next = text.charCodeAt(after);
    const token = text.slice(i, end);
    const closed = after < text.length && (next === 0x2c || next === 0x7d || next === 0x5d);
    if (end === i || !closed || NOT_STRINGS.has(token)) return undefined;
    if (!JSON_NUMBER.test(token) && isNumberLike(token)) return undefined;
    if (!JSON_LITERALS.has(token) && !JSON_NUMBER.test(token)) {
      const value = tokenString(token);
      if (value === undefined) return undefined;
      out ??= new TextBuilder();
      out.pushRange(text, last, i);
      out.pushString(JSON.stringify(value));
      last = end;
    }
    i = end - 1;
  }
  if (out === undefined) return undefined;
  out.pushRange(text, last, text.length);
  return out.toString();
}

/**
 * R6 `unquoted-values`: scalar values written without their quotes (`{"direction":both}`, an unquoted UUID,
 * `{"x": 123abc}`, a bare Windows path in a list) quoted, where the reading is unique: the token has no whitespace,
 * quote or bracket in it, it is followed by `,`, `}` or `]` (a token at the end of the text may be cut, and is never
 * made a value), and its backslashes are all doubled or all single. JSON's literals and numbers stay as they are;
 * `NaN`, `Infinity`, `undefined` and Python's `True`/`False`/`None` are not strings, and text holding one is left to
 * other rules.
 *
 * @example
 * decodeArguments('{"direction":both}', { repairs: [unquotedValues] }).arguments; // { direction: "both" }
 */
export const unquotedValues: RepairRule = {
  specificationVersion: "1",
  id: "unquoted-values",
  description: "scalar values written without quotes, where the reading is unique",
  repair(text, context) {
    if (typeof text !== "string") return undefined;
    const meter = contextMeter(context);
    const repaired = quoteBareValues(text);
    // The scan (each token read once, tested once, and its whitespace), and the text built.
    meter?.charge(4 * text.length + (repaired?.length ?? 0));
    return repaired;
  },
};
