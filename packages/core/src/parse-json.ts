import { setOwn } from "./define-property.js";
import { errorMessage } from "./error-message.js";
import { JsonNumber } from "./json-number.js";
import type { Result } from "./result.js";

/** The default nesting limit: about where Python's `json.loads` gives up with a RecursionError. */
export const DEFAULT_MAX_DEPTH = 1000;

/** Parsed JSON, or why the text is not JSON (a message). */
export type ParseJsonResult = Result<unknown>;

/** What `parseJson` takes: lossless numbers and a nesting limit. */
export interface ParseJsonOptions {
  /** Keep numbers as {@link JsonNumber} (every digit, `1.0` stays a float). */
  lossless?: boolean;
  /** Containers nested deeper than this fail. */
  maxDepth?: number;
}

/**
 * Strict RFC 8259 parsing that never throws: `JSON.parse` on the fast path, a lossless parser when asked, and a
 * nesting limit on both.
 */
export function parseJson(text: string, options: ParseJsonOptions = {}): ParseJsonResult {
  if (typeof text !== "string") return { success: false, error: "not text" };
  const maxDepth = options?.maxDepth ?? DEFAULT_MAX_DEPTH;
  if (options?.lossless) return parseLossless(text, maxDepth);
  let value: unknown;
  try {
    value = parseWithoutStack(text);
  } catch (error) {
    return { success: false, error: errorMessage(error) };
  }
  // Short text cannot nest past the limit: the check (and its argument object) only for text that could.
  if (text.length > 2 * maxDepth && nestedDeeper({ text, value, maxDepth }))
    return { success: false, error: `nesting deeper than ${maxDepth}` };
  return { success: true, value };
}

/**
 * `JSON.parse` that captures no stack when it throws, with the same message. Where this is called, text that fails is
 * common (a repair's candidate, a stream's partial text), and capturing the stack of the `SyntaxError` costs about
 * three times the rest of the failure (6 µs against 2 µs under a server's call stack); text that parses pays two
 * writes of `Error.stackTraceLimit`.
 *
 * @example
 * parseWithoutStack('{"a": 1}'); // { a: 1 }
 * parseWithoutStack("{oops"); // throws a SyntaxError whose stack is its message alone
 */
export function parseWithoutStack(text: string): unknown {
  const limit = Error.stackTraceLimit;
  if (typeof limit !== "number") return JSON.parse(text);
  try {
    Error.stackTraceLimit = 0;
  } catch {
    // Frozen intrinsics: the limit stays as it is.
    return JSON.parse(text);
  }
  try {
    return JSON.parse(text);
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/**
 * Whether the value `JSON.parse` read from `text` nests deeper than `maxDepth`. A container of depth d needs at least
 * 2d characters. A chain of d nested containers has all its d openers before its innermost one and all its d
 * closers after it, so with p the position of the text's (d)th `{` or `[` (strings included, which only moves p
 * earlier), depth d needs d `}` or `]` after p: only text that has both is walked, and the brackets are found with
 * the native indexOf (a fraction of the parse).
 *
 * @example
 * nestedDeeper({ text: "[[1]]", value: [[1]], maxDepth: 1 }); // true
 * nestedDeeper({ text: "[1]", value: [1], maxDepth: 1 }); // false
 */
export function nestedDeeper(args: { text: string; value: unknown; maxDepth: number }): boolean {
  const { text, value, maxDepth } = args;
  if (text.length <= 2 * maxDepth || typeof value !== "object" || value === null) return false;
  // A value with few entries (a call whose text is mostly long strings, which may be full of brackets) is walked at
  // once; one with many is counted first, and walked only when the count allows it.
  const quick = walkDepth(value, maxDepth, QUICK_WALK);
  if (quick !== undefined) return quick;
  const deepest = openerPast(text, maxDepth);
  return (
    deepest !== -1 && closersPast({ text, from: deepest, limit: maxDepth }) && depthExceeds(value, maxDepth)
  );
}

/** Entries the walk of {@link nestedDeeper} reads before it counts brackets instead. */
const QUICK_WALK = 16;

/**
 * The position of the text's opening bracket (`{` or `[`) number `limit + 1`, in text order; -1 when it has no more
 * than `limit`. Each bracket costs one native search for its kind.
 */
function openerPast(text: string, limit: number): number {
  let brace = text.indexOf("{");
  let bracket = text.indexOf("[");
  let count = 0;
  while (brace !== -1 || bracket !== -1) {
    const at = bracket === -1 || (brace !== -1 && brace < bracket) ? brace : bracket;
    if (++count > limit) return at;
    if (at === brace) brace = text.indexOf("{", at + 1);
    else bracket = text.indexOf("[", at + 1);
  }
  return -1;
}

/** True when the text holds more than `limit` closing brackets (`}` or `]`) after `from`; stops as soon as it knows. */
function closersPast(args: { text: string; from: number; limit: number }): boolean {
  const { text, from, limit } = args;
  let count = 0;
  for (let i = text.indexOf("}", from); i !== -1; i = text.indexOf("}", i + 1))
    if (++count > limit) return true;
  for (let i = text.indexOf("]", from); i !== -1; i = text.indexOf("]", i + 1))
    if (++count > limit) return true;
  return false;
}

/** Iterative depth measurement over parsed containers (no recursion, so no stack overflow; no per-node allocation). */
export function depthExceeds(root: object, maxDepth: number): boolean {
  return walkDepth(root, maxDepth, Number.POSITIVE_INFINITY) === true;
}

/** Whether `root` nests deeper than `maxDepth`; `undefined` when more than `budget` entries would have to be read. */
function walkDepth(root: object, maxDepth: number, budget: number): boolean | undefined {
  const nodes: unknown[] = [root];
  const depths: number[] = [1];
  let read = 0;
  while (nodes.length > 0) {
    const node = nodes.pop();
    const depth = depths.pop() as number;
    if (depth > maxDepth) return true;
    if (Array.isArray(node)) {
      read += node.length;
      if (read > budget) return undefined;
      for (let i = 0; i < node.length; i++) {
        const item = node[i];
        if (typeof item === "object" && item !== null) {
          nodes.push(item);
          depths.push(depth + 1);
        }
      }
    } else {
      const record = node as Record<string, unknown>;
      for (const key in record) {
        if (++read > budget) return undefined;
        const item = record[key];
        if (typeof item === "object" && item !== null) {
          nodes.push(item);
          depths.push(depth + 1);
        }
      }
    }
  }
  return false;
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

type Frame = { container: unknown[] | Record<string, unknown>; key: string | undefined };

/** An iterative strict parser that keeps numbers as {@link JsonNumber}. */
function parseLossless(text: string, maxDepth: number): ParseJsonResult {
  let pos = 0;
  const length = text.length;
  const stack: Frame[] = [];
  const fail = (what: string): ParseJsonResult => ({
    success: false,
    error:
      pos >= length
        ? `Unexpected end of JSON input (${what})`
        : `Unexpected token at position ${pos} (${what})`,
  });
  const skipWhitespace = () => {
    while (pos < length) {
      const c = text.charCodeAt(pos);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) pos++;
      else break;
    }
  };
  const readString = (): string | undefined => {
    // pos is at the opening quote
    const start = pos;
    pos++;
    let simple = true;
    while (pos < length) {
      const c = text.charCodeAt(pos);
      if (c === 0x22) {
        pos++;
        if (simple) return text.slice(start + 1, pos - 1);
        try {
          return JSON.parse(text.slice(start, pos)) as string;
        } catch {
          pos = start;
          return undefined;
        }
      }
      if (c === 0x5c) {
        simple = false;
        pos += 2;
        continue;
      }
      if (c < 0x20) return undefined;
      pos++;
    }
    return undefined;
  };

  let value: unknown;
  let haveValue = false;
  for (;;) {
    skipWhitespace();
    if (!haveValue) {
      if (pos >= length) return fail("a value");
      const c = text.charCodeAt(pos);
      if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
        if (stack.length >= maxDepth) return { success: false, error: `nesting deeper than ${maxDepth}` };
        pos++;
        skipWhitespace();
        if (c === 0x5b) {
          const array: unknown[] = [];
          if (text.charCodeAt(pos) === 0x5d) {
            pos++;
            value = array;
            haveValue = true;
          } else {
            stack.push({ container: array, key: undefined });
          }
        } else {
          const object: Record<string, unknown> = {};
          if (text.charCodeAt(pos) === 0x7d) {
            pos++;
            value = object;
            haveValue = true;
          } else {
            if (text.charCodeAt(pos) !== 0x22) return fail("a key");
            const key = readString();
            if (key === undefined) return fail("a key");
            skipWhitespace();
            if (text.charCodeAt(pos) !== 0x3a) return fail("':'");
            pos++;
            stack.push({ container: object, key });
          }
        }
        continue;
      }
      if (c === 0x22) {
        const s = readString();
        if (s === undefined) return fail("a string");
        value = s;
      } else if (text.startsWith("true", pos)) {
        pos += 4;
        value = true;
      } else if (text.startsWith("false", pos)) {
        pos += 5;
        value = false;
      } else if (text.startsWith("null", pos)) {
        pos += 4;
        value = null;
      } else {
        NUMBER.lastIndex = pos;
        const match = NUMBER.exec(text);
        if (!match) return fail("a value");
        pos += match[0].length;
        value = new JsonNumber(match[0]);
      }
      haveValue = true;
      continue;
    }
    // A complete value: attach it to the enclosing container, or finish.
    const frame = stack[stack.length - 1];
    if (frame === undefined) {
      if (pos !== length) return fail("end of input");
      return { success: true, value };
    }
    if (Array.isArray(frame.container)) {
      frame.container.push(value);
      const c = text.charCodeAt(pos);
      if (c === 0x2c) {
        pos++;
        haveValue = false;
      } else if (c === 0x5d) {
        pos++;
        stack.pop();
        value = frame.container;
      } else return fail("',' or ']'");
    } else {
      setOwn(frame.container, frame.key as string, value);
      const c = text.charCodeAt(pos);
      if (c === 0x2c) {
        pos++;
        skipWhitespace();
        if (text.charCodeAt(pos) !== 0x22) return fail("a key");
        const key = readString();
        if (key === undefined) return fail("a key");
        skipWhitespace();
        if (text.charCodeAt(pos) !== 0x3a) return fail("':'");
        pos++;
        frame.key = key;
        haveValue = false;
      } else if (c === 0x7d) {
        pos++;
        stack.pop();
        value = frame.container;
      } else return fail("',' or '}'");
    }
  }
}
