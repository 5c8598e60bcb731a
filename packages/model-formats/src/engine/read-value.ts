import type { MarkerSet } from "./marker-set.js";
import type { Reader, Step } from "./reader.js";

export type ValueRead = { status: "ok"; text: string } | { status: "end" };

/**
 * Reads a value written as text up to its closing tag, where the syntax has no escapes: the value ends at the first
 * `closer` followed (after whitespace) by one of `followers` (the next pair's tag, the end of the call) or by the
 * end of the text; any other `closer` is part of the value. The whitespace after the closer is consumed. Linear: a
 * rejected closer is not read again.
 */
export function* readValue(reader: Reader, closer: MarkerSet, followers: MarkerSet): Step<ValueRead> {
  const parts: string[] = [];
  const sink = (text: string) => {
    parts.push(text);
  };
  for (;;) {
    const found = yield* reader.until(closer, sink);
    if (found === null) return { status: "end" };
    const space = yield* reader.space();
    const next = yield* reader.peek(followers);
    if (next !== null || (reader.ended && reader.pos >= reader.text.length))
      return { status: "ok", text: parts.join("") };
    parts.push(found, space);
  }
}
