import { parseWithoutStack } from "./parse-json.js";
import { isEmptyObject, objectEnd, skipSpace } from "./repairs/json-objects.js";
import type { FinishReason } from "./types.js";

/** What `splitMergedArguments` takes: the finish reason (nothing is split after a length stop). */
export interface SplitMergedOptions {
  /** Why generation stopped: after a length stop nothing is split (no repair runs on a cut answer). */
  finishReason?: FinishReason | null;
}

/** The canonical text of strict JSON object text (its value written compact), or `undefined`. */
function canonicalObject(text: string): string | undefined {
  try {
    const value: unknown = parseWithoutStack(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? JSON.stringify(value)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The arguments of the calls one call's arguments hold when a stream or a gateway merged several calls into one:
 * two or more distinct, complete JSON objects back to back (`{"a":1}{"b":2}`), each strict JSON, returned as their
 * texts, byte for byte and in order. `undefined` when the text is not that, or a split is not safe:
 *
 * - the text is one object, or not whole objects only, or one of them is not strict JSON;
 * - the objects are all the same (`repeated-object` reads that: the same call sent again);
 * - some repeat and some differ (`{A}{A}{B}`: a resend and a new call, or two calls the same? not unique);
 * - an empty object after the first (an empty object in front is a stream's first `{}`: `stray-text`'s);
 * - a length stop (nothing is repaired in a cut answer).
 *
 * Linear in the text: one scan for the objects, one parse of each, one comparison of each against a set.
 *
 * @example
 * splitMergedArguments('{"query":"first"}{"query":"second"}'); // ['{"query":"first"}', '{"query":"second"}']
 * splitMergedArguments('{"a":1}{"a":1}'); // undefined: a repeated object, not two calls
 */
export function splitMergedArguments(text: unknown, options: SplitMergedOptions = {}): string[] | undefined {
  if (typeof text !== "string" || options?.finishReason === "length") return undefined;
  // One object at a time, so text that is not merged calls is refused where it stops being them, and nothing is
  // built for it (a megabyte of `{}` made a list of half a million ranges).
  const calls: string[] = [];
  const seen = new Set<string>();
  let at = skipSpace(text, 0);
  while (at < text.length) {
    if (text.charCodeAt(at) !== 0x7b) return undefined;
    const end = objectEnd(text, at);
    if (end < 0) return undefined;
    if (isEmptyObject(text, at, end)) {
      // A stream's first `{}` before the objects is not a call; one after them is not unique.
      if (calls.length > 0) return undefined;
    } else {
      const part = text.slice(at, end);
      // Objects compare by value: `{"a":1}` and `{"a": 1}` are the same call.
      const canonical = canonicalObject(part);
      if (canonical === undefined || seen.has(canonical)) return undefined;
      seen.add(canonical);
      calls.push(part);
    }
    at = skipSpace(text, end);
  }
  return calls.length >= 2 ? calls : undefined;
}
