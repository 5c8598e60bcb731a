import { isEmptyObject, isJsonSpace, objectEnd, skipSpace } from "./json-objects.js";
import { contextMeter, type RepairRule } from "./repair-rule.js";

/** What may follow the one object as stray text: closers and quotes (`]`, `}`, `"`) and whitespace. */
function isStrayTail(c: number): boolean {
  return c === 0x5d || c === 0x7d || c === 0x22 || isJsonSpace(c);
}

/**
 * The one complete object `text` holds, with what is stray around it removed: empty objects before it (`{}` sent
 * first by a stream whose later deltas carry the whole object) and closers or quotes after it (`{}""`, a trailing
 * `]`). `undefined` when the text is something else: no complete object, or anything but stray text around it.
 */
function strippedObject(text: string): string | undefined {
  let start = skipSpace(text, 0);
  if (text.charCodeAt(start) !== 0x7b) return undefined;
  let end = objectEnd(text, start);
  if (end < 0) return undefined;
  let next = skipSpace(text, end);
  // Empty objects before a full one: the stream's first `{}` and the object it was followed by.
  while (next < text.length && text.charCodeAt(next) === 0x7b && isEmptyObject(text, start, end)) {
    const following = objectEnd(text, next);
    if (following < 0) return undefined;
    start = next;
    end = following;
    next = skipSpace(text, end);
  }
  for (let i = end; i < text.length; i++) if (!isStrayTail(text.charCodeAt(i))) return undefined;
  return text.slice(start, end);
}

/**
 * R6 `stray-text`: one complete object with stray text around it. An empty object before a full one
 * (`{}{"city": "Paris"}`: a stream's first `{}`, then the object), and closers or quotes after it (`{}""`: a
 * zero-argument call followed by an empty delta; a trailing `]`). The object itself is complete and kept byte for byte,
 * so no cut value is ever completed; two non-empty objects are not stray text (`repeated-object`, or calls merged
 * into one: `splitMergedArguments`).
 *
 * @example
 * decodeArguments('{}{"city": "Paris"}', { repairs: [strayText] }).arguments; // { city: "Paris" }
 * decodeArguments('{}""', { repairs: [strayText] }).arguments; // {}
 */
export const strayText: RepairRule = {
  specificationVersion: "1",
  id: "stray-text",
  description: "stray text around one complete object (a leading {}, trailing closers or quotes)",
  repair(text, context) {
    if (typeof text !== "string") return undefined;
    // The scan for objects (each character once), and the copy.
    contextMeter(context)?.charge(2 * text.length);
    const stripped = strippedObject(text);
    return stripped === undefined || stripped === text ? undefined : stripped;
  },
};
