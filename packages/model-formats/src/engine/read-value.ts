import type { MarkerSet } from "./marker-set.js";
import type { Output } from "./output.js";
import type { Reader, Step } from "./reader.js";

export type ValueRead = { status: "ok"; text: string; unclosed: boolean } | { status: "end" };

/**
 * The call's own tags a value may hold as text (a file written by a coding agent that holds `<parameter=…>` or a whole
 * `<function=…>` call): where the family knows its tool's parameters, a parameter tag is the call's own only when it
 * names a parameter that can come next, and the tags a value opens as text are closed as text.
 */
export interface ValueNesting {
  /** The parameter tag's start (`<parameter=`), whose name runs to `>`. */
  parameterOpen: string;
  /** A call's opening and closing tags (`<function=`, `</function>`), paired inside a value. */
  callOpen: string;
  callClose: string;
  /** What follows a call's closing tag that ends the call (`</tool_call>`, the next call's tag); else it is text. */
  callCloseFollowers: readonly string[];
  /** Whether `<parameter=NAME>` starts the call's next parameter (a known parameter not yet given). */
  isNext(name: string): boolean;
}

const NAME_LIMIT = 256;
const SPACE_LIMIT = 4096;

/**
 * Whether `marker` at the reader's position is followed, after whitespace, by one of `followers` or by the end of the
 * text. Consumes nothing.
 */
function* followedBy(reader: Reader, marker: string, followers: readonly string[]): Step<boolean> {
  const longest = Math.max(0, ...followers.map((follower) => follower.length));
  let offset = 0;
  let text = "";
  yield* reader.lookAhead(
    (code) => {
      offset++;
      if (offset <= marker.length) return true;
      if (text === "" && (code === 32 || code === 9 || code === 10 || code === 13)) return true;
      text += String.fromCharCode(code);
      return text.length < longest;
    },
    marker.length + SPACE_LIMIT + longest,
  );
  return text === "" || followers.some((follower) => text.startsWith(follower));
}

/** The name after a parameter tag's start at the reader's position, up to `>`; `null` when none closes it. */
function* tagNameAhead(reader: Reader, start: string): Step<string | null> {
  let name = "";
  let closed = false;
  let offset = 0;
  yield* reader.lookAhead((code) => {
    offset++;
    if (offset <= start.length) return true;
    if (code === 62) {
      closed = true;
      return false;
    }
    if (code === 10 || code === 60) return false;
    name += String.fromCharCode(code);
    return true;
  }, start.length + NAME_LIMIT);
  return closed ? name.trim() : null;
}

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
  tags: { closer: MarkerSet; followers: MarkerSet; stops: MarkerSet; nesting?: ValueNesting },
): Step<ValueRead> {
  const parts: string[] = [];
  const sink = (text: string) => {
    parts.push(text);
  };
  if (tags.nesting !== undefined) return yield* readNestedValue(reader, tags, tags.nesting, parts);
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

/**
 * {@link readValue} where the value may hold the call's own tags as text ({@link ValueNesting}; `stops` holds the
 * call's opening tag too). A parameter tag that cannot start the next parameter, and a call's opening tag, open a
 * pair the value holds, closed by the next closing tag of its kind; outside such pairs the value ends as
 * {@link readValue} says, a parameter tag counting only when it names the next parameter. Linear: each tag is
 * looked at once, its name at most once more.
 */
function* readNestedValue(
  reader: Reader,
  tags: { closer: MarkerSet; followers: MarkerSet; stops: MarkerSet },
  nesting: ValueNesting,
  parts: string[],
): Step<ValueRead> {
  const sink = (text: string) => {
    parts.push(text);
  };
  let parameters = 0;
  let calls = 0;
  const literal = (marker: string) => parts.push(reader.consume(marker.length));
  for (;;) {
    const found = yield* reader.before(tags.stops, sink);
    if (found === null) return { status: "end" };
    if (found === nesting.callOpen) {
      literal(found);
      calls++;
      continue;
    }
    if (found === nesting.callClose && calls > 0) {
      literal(found);
      calls--;
      continue;
    }
    if (found === nesting.callClose && !(yield* followedBy(reader, found, nesting.callCloseFollowers))) {
      // A call's closing tag followed by more of the value (code that quotes it) is the value's text.
      literal(found);
      continue;
    }
    if (found === nesting.parameterOpen) {
      const name = yield* tagNameAhead(reader, found);
      if (parameters > 0 || calls > 0 || name === null || !nesting.isNext(name)) {
        literal(found);
        parameters++;
        continue;
      }
    }
    if (!tags.closer.markers.includes(found)) {
      // The newline a template writes after the lost closer, before the next tag, is that separator.
      const text = parts.join("");
      return { status: "ok", text: text.endsWith("\n") ? text.slice(0, -1) : text, unclosed: true };
    }
    if (parameters > 0) {
      literal(found);
      parameters--;
      continue;
    }
    reader.consume(found.length);
    const space = yield* reader.space();
    const next = yield* reader.peek(tags.followers);
    if (next === null ? reader.exhausted : yield* endsValue(reader, next, nesting, calls))
      return { status: "ok", text: parts.join(""), unclosed: false };
    parts.push(found, space);
  }
}

/** Whether a follower after a closing tag ends the value: the call's end outside a held call, or the next parameter. */
function* endsValue(reader: Reader, next: string, nesting: ValueNesting, calls: number): Step<boolean> {
  if (calls > 0) return false;
  if (next !== nesting.parameterOpen) return true;
  const name = yield* tagNameAhead(reader, next);
  return name !== null && nesting.isNext(name);
}
