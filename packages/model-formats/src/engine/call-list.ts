import type { FamilyContext } from "./define-syntax.js";
import {
  bareCallIssue,
  type JsonCallOptions,
  type JsonCallResult,
  jsonCallFailure,
  listNext,
  readJsonCall,
} from "./json-call.js";
import { MarkerSet } from "./marker-set.js";
import type { Channel, Output } from "./output.js";
import type { Reader, Step } from "./reader.js";

/** How {@link readCallList} reads a list of JSON calls. */
export interface CallListOptions {
  channel: Channel;
  /** The text read before the list (its marker and the whitespace after it): it goes back to content if the list breaks before a call. */
  prefix: string;
  /** The list's `[` and the whitespace after it, when already read; otherwise the reader is at the `[`. */
  opened?: string;
  /** How each element is read (`readJsonCall`). */
  item: Omit<JsonCallOptions, "channel">;
  /** The marker that closes the list's wrapper after `]` (`</tool_calls>`, `<|END_ACTION|>`); missing: `call_unclosed`. */
  close?: MarkerSet;
}

/**
 * Reads a JSON list of calls (the reader is at its `[`): Mistral before v11, Granite 3, Phi-4-mini's `functools[…]`,
 * Hunyuan and Jamba's `<tool_calls>[…]</tool_calls>`, xLAM, Command R7B's action list, Apertus. Each element is a call,
 * announced as it is read and its argument object passed on as it arrives; an element that fails goes back to content
 * with the list's own text since the last call read (`call_invalid`, `call_truncated`), and the calls before it stand.
 * An empty list is no call. A list that does not end with `]` keeps its calls (`list_unclosed`).
 */
export function* readCallList(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  options: CallListOptions,
): Step<void> {
  const { channel } = options;
  let pending = options.prefix + (options.opened ?? reader.consume(1));
  const broken = (code: "call_invalid" | "call_truncated", message: string) => {
    out.abort({ code, severity: "error", message, raw: pending }, pending, channel);
  };
  let closed = false;
  for (let first = true; ; first = false) {
    pending += yield* reader.space();
    const next = yield* reader.peekChar();
    if (next === "]" && first) {
      reader.consume(1);
      closed = true;
      break;
    }
    if (next !== "{") {
      if (next === null) return broken("call_truncated", "the text ends inside the list of calls");
      return broken("call_invalid", "expected a call object in the list");
    }
    reader.record();
    const result = yield* readJsonCall(reader, out, context, { channel, ...options.item });
    if (result.status !== "complete") {
      const raw = pending + reader.takeRecord();
      out.abort(jsonCallFailure(result, raw), raw, channel);
      return;
    }
    reader.takeRecord();
    out.end(result.arguments);
    const following = yield* listNext(reader, out, channel);
    if (!following.more) {
      closed = following.closed;
      break;
    }
    pending = following.pending;
  }
  if (options.close === undefined || !closed) return;
  const space = yield* reader.space();
  const marker = yield* reader.peek(options.close);
  if (marker !== null) {
    reader.consume(marker.length);
    return;
  }
  out.issue({
    code: "call_unclosed",
    severity: "info",
    message: `${options.close.markers[0] ?? "the closing marker"} is missing after the list of calls`,
  });
  out.text(channel, space);
}

/** `[` then `{` (a list of call objects, not a Markdown link or `[TOOL_CALLS]`). */
export const CALL_LIST_START = new MarkerSet(["[{", "[ {", "[\n{"]);

/** `[`, white space, then `{` at the reader's position. Consumes nothing. */
function* spacedListStart(reader: Reader): Step<boolean> {
  if ((yield* reader.peekChar()) !== "[") return false;
  let offset = 0;
  let brace = false;
  yield* reader.lookAhead((code) => {
    offset++;
    if (offset === 1 || code === 32 || code === 9 || code === 10 || code === 13) return true;
    brace = code === 123;
    return false;
  }, 4096);
  return brace;
}

/**
 * A list of calls where the content begins, with no marker before it: Mistral's and Granite's with the marker
 * stripped by a server (`issue` says so: `call_unopened`), and xLAM's, which has none (no issue; `empty`: `[]` is
 * the template's turn with no call). The list is read whole before any call is announced: text that is not a
 * complete list of calls is content, exactly as written (with `arguments_key_unknown` when an item names an offered
 * tool but puts its arguments under a key no family uses: {@link bareCallIssue}).
 */
export function* readUnopenedList(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  options: {
    item: Omit<JsonCallOptions, "channel">;
    issue: string | null;
    start?: MarkerSet;
    /** Text already read before the list (an opening code fence): dropped with a list, content without one. */
    prefix?: string;
    /** Any white space may stand between `[` and the first `{` (a list written with `json.dumps(indent=…)`). */
    spaced?: boolean;
  },
): Step<boolean> {
  let prefix = options.prefix ?? "";
  if (prefix === "") {
    out.text("content", yield* reader.space());
    reader.journalCommit();
  } else prefix += yield* reader.space();
  const starts =
    (yield* reader.peek(options.start ?? CALL_LIST_START)) !== null ||
    (options.spaced === true && (yield* spacedListStart(reader)));
  if (!starts) {
    out.text("content", prefix);
    return false;
  }
  reader.record();
  reader.consume(1);
  const calls: Array<Extract<JsonCallResult, { status: "complete" }>> = [];
  let unread: Exclude<JsonCallResult, { status: "complete" }> | undefined;
  for (;;) {
    yield* reader.space();
    const next = yield* reader.peekChar();
    if (next === "]" && calls.length === 0) {
      reader.consume(1);
      reader.takeRecord();
      return true;
    }
    if (next !== "{") break;
    const result = yield* readJsonCall(reader, out, context, {
      channel: "content",
      ...options.item,
      deferStart: true,
    });
    if (result.status !== "complete") {
      unread = result;
      break;
    }
    calls.push(result);
    yield* reader.space();
    const after = yield* reader.peekChar();
    if (after === ",") {
      reader.consume(1);
      continue;
    }
    if (after === "]") {
      reader.consume(1);
      reader.takeRecord();
      if (options.issue !== null)
        out.issue({ code: "call_unopened", severity: "warning", message: options.issue });
      for (const call of calls) {
        out.start(call.name, call.id || context.createId(out.index, call.name), "content");
        context.checkName(call.name, out);
        out.end(call.arguments);
      }
      return true;
    }
    break;
  }
  const raw = prefix + reader.takeRecord();
  const issue = unread === undefined ? null : bareCallIssue(unread, raw, context);
  if (issue !== null) out.issue(issue);
  out.text("content", raw);
  return false;
}

/**
 * After a family's list marker (`<|tool_call|>`, `<tool_calls>`, `<|START_ACTION|>`, `functools`): whitespace, then a
 * list of calls ({@link readCallList}). Anything else after the marker: the marker goes back to content, with
 * `call_invalid` (or `call_truncated` at the end of the text) — or silently when the marker is a word prose uses
 * (`quiet`: Phi-4-mini's `functools`, a Python module), which starts a list only when `[` and `{` follow (whitespace
 * between them: a list written with `json.dumps(indent=…)`) or `[]` does.
 */
export function* readListAfterMarker(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  options: {
    marker: string;
    channel: Channel;
    item: Omit<JsonCallOptions, "channel">;
    close?: MarkerSet;
    quiet?: boolean;
  },
): Step<void> {
  const { channel } = options;
  const prefix = options.marker + (yield* reader.space());
  const { item, close } = options;
  if (options.quiet) {
    // `[`, whitespace, then `{` (or `[]`): a list; anything else is prose, passed on as written.
    const opened = (yield* reader.peekChar()) === "[" ? reader.consume(1) + (yield* reader.space()) : "";
    const next = opened === "" ? null : yield* reader.peekChar();
    if (next === "{" || (next === "]" && opened === "["))
      yield* readCallList(reader, out, context, { channel, prefix, opened, item, close });
    else out.text(channel, prefix + opened);
    return;
  }
  const first = yield* reader.peekChar();
  if (first === "[") {
    yield* readCallList(reader, out, context, { channel, prefix, item, close });
    return;
  }
  if (first === "{" && close !== undefined) {
    yield* readUnlisted(reader, out, context, { prefix, channel, item, close });
    return;
  }
  const ended = (yield* reader.peekChar()) === null;
  out.abort(
    {
      code: ended ? "call_truncated" : "call_invalid",
      severity: "error",
      message: ended
        ? "the text ends inside a tool call"
        : `expected a JSON list of calls after ${options.marker}`,
      raw: prefix,
    },
    prefix,
    channel,
  );
}

/**
 * One call object where the template writes a list of calls, inside a wrapper that closes
 * (`<TOOLCALL>{…}</TOOLCALL>`): one reading, a list of that call (`list_unwrapped`), when the wrapper's closing marker
 * or the end of the text follows it (`call_unclosed`); anything else after it keeps the text in content.
 */
function* readUnlisted(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  options: { prefix: string; channel: Channel; item: Omit<JsonCallOptions, "channel">; close: MarkerSet },
): Step<void> {
  const { channel, close } = options;
  reader.record();
  const result = yield* readJsonCall(reader, out, context, { channel, ...options.item });
  if (result.status !== "complete") {
    const raw = options.prefix + reader.takeRecord();
    out.abort(jsonCallFailure(result, raw), raw, channel);
    return;
  }
  yield* reader.space();
  const marker = yield* reader.peek(close);
  if (marker === null && !reader.exhausted) {
    const raw = options.prefix + reader.takeRecord();
    out.abort(
      {
        code: "call_invalid",
        severity: "error",
        message: "text after a call object that is not in a list",
        raw,
      },
      raw,
      channel,
    );
    return;
  }
  reader.takeRecord();
  out.issue({
    code: "list_unwrapped",
    severity: "info",
    message: "one call object where the template writes a list of calls: read as a list of one",
  });
  if (marker !== null) reader.consume(marker.length);
  else
    out.issue({
      code: "call_unclosed",
      severity: "info",
      message: `${close.markers[0] ?? "the closing marker"} is missing after the call`,
    });
  out.end(result.arguments);
}
