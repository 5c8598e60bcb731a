import type { MarkerSet } from "./marker-set.js";
import type { Output } from "./output.js";
import type { Reader, Step } from "./reader.js";

export type ValueRead = { status: "ok"; text: string; unclosed: boolean } | { status: "end" };

/**
 * Reads a value written as text up to its closing tag, where the syntax has no escapes: the value ends at the first
 * `closer` followed (after whitespace) by one of `followers` (the next pair's tag, the end of the call) or by the
 * end of the text; any other `closer` is part of the value. The whitespace after the closer is consumed. A value that
 * runs into one of `followers` before any closer lost its closing tag (a template writes those tags only between
 * values; vLLM and SGLang end it there): it ends there, `unclosed`, without the newline templates write before the
 * next tag, and the follower is left to read. Linear: a
 * rejected closer is not read again. `stops` is `closer` and `followers` in one set.
 */
export function* readValue(
  reader: Reader,
  tags: { closer: MarkerSet; followers: MarkerSet; stops: MarkerSet },
): Step<ValueRead> {
  const parts: string[] = [];
  const sink = (text: string) => {
    parts.push(text);
  };
  for (;;) {
    const found = yield* reader.before(tags.stops, sink);
    if (found === null) return { status: "end" };
    if (!tags.closer.markers.includes(found)) {
      // The newline a template writes after the lost closer, before the next tag, is that separator.
      const text = parts.join("");
      return { status: "ok", text: text.endsWith("\n") ? text.slice(0, -1) : text, unclosed: true };
    }
    reader.consume(found.length);
    const space = yield* reader.space();
    const next = yield* reader.peek(tags.followers);
    if (next !== null || reader.exhausted) return { status: "ok", text: parts.join(""), unclosed: false };
    parts.push(found, space);
  }
}

/** Reports a value read without its closing tag (`value_unclosed`, a warning: a recorded repair). */
export function valueUnclosed(out: Output, where: { tool: string; parameter: string; closer: string }): void {
  out.issue({
    code: "value_unclosed",
    severity: "warning",
    message: `${where.closer} is missing: the value ends at the next tag`,
    tool: where.tool,
    parameter: where.parameter,
  });
}
