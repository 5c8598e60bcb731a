import type { SyntaxIssue } from "@toolcall/core/kit";
import { MarkerSet } from "./marker-set.js";
import type { Channel, Output } from "./output.js";
import type { Reader, Step } from "./reader.js";

/** How a call read inside a section ended: read, failed (its text went back to content; the section goes on), or the text ended. */
export type CallOutcome = "ok" | "failed" | "ended";

export interface SectionSyntax {
  /** The marker that opens the section, and misspellings of it read the same way (`marker_variant`). */
  sectionBegin: string;
  sectionBeginVariants?: readonly string[];
  /** The marker that begins a call. */
  callBegin: string;
  /** The marker that ends a call. */
  callEnd: string;
  /** The markers that end the section. */
  sectionEnds: readonly string[];
  /**
   * A call may follow the section's opener with its begin marker missing (DeepSeek R1 writes
   * `<｜tool▁calls｜>function<｜tool▁sep｜>…`; llama.cpp reads it): read as a call (`call_unopened`) when it reads as one.
   */
  firstCallUnmarked?: boolean;
  /**
   * Spellings of `callBegin` with a character lost (MiniMax M2 writes `invoke name=` without its `<`): read as the
   * call's marker where only a call can stand, right after the opener or a call (`marker_repaired`, info), and only
   * when the call then reads in full; a cut or malformed one goes back to content as written.
   */
  callBeginRepairs?: readonly string[];
}

/**
 * Reads the calls of a section (`<|tool_calls_section_begin|>…<|tool_calls_section_end|>`, DeepSeek's
 * `<｜tool▁calls▁begin｜>…`, DSML's `<｜DSML｜function_calls>…`) after its opener, or a lone call whose section
 * opener is missing (`implicit`: the opener is the call's own marker). The section's own text (its opener, the
 * whitespace between calls) goes back to content with a call that fails, so nothing is lost; a section that ends
 * without its closing marker keeps the calls read (`section_unclosed`).
 */
export function* readSection(
  reader: Reader,
  out: Output,
  options: {
    syntax: SectionSyntax;
    /** The marker that started it: the section's opener, a misspelling of it, or a call's own marker (no opener). */
    opener: string;
    channel: Channel;
    /** Reads one call after its begin marker; `prefix` is the text that goes back to content before its own if it fails. */
    readCall(prefix: string): Step<CallOutcome>;
  },
): Step<void> {
  const { syntax } = options;
  if (syntax.sectionBeginVariants?.includes(options.opener))
    out.issue({
      code: "marker_variant",
      severity: "info",
      message: `${options.opener} read as ${syntax.sectionBegin}`,
    });
  const implicit = options.opener === syntax.callBegin;
  if (implicit)
    out.issue({
      code: "call_unopened",
      severity: "warning",
      message: `${syntax.callBegin} outside ${syntax.sectionBegin}: read as a call`,
    });
  const repairs = syntax.callBeginRepairs ?? [];
  const inside = MarkerSet.of([syntax.callBegin, ...repairs, ...syntax.sectionEnds]);
  let pending = implicit ? "" : options.opener;
  let next: string | null = implicit ? syntax.callBegin : null;
  /** Calls read: a section in which none was read is text, its end marker too. */
  let read = 0;
  let first = !implicit;
  for (;;) {
    if (next === null) {
      pending += yield* reader.space();
      next = yield* reader.peek(inside);
      if (next === null && first && syntax.firstCallUnmarked && (yield* reader.peekChar()) !== null) {
        first = false;
        const outcome = yield* options.readCall(pending);
        pending = "";
        if (outcome === "ended") return;
        if (outcome === "ok") {
          read++;
          out.issue({
            code: "call_unopened",
            severity: "warning",
            message: `${syntax.callBegin} is missing after ${options.opener}: read as a call`,
          });
        }
        continue;
      }
      if (next === null) {
        const atEnd = reader.exhausted;
        if (!implicit && (atEnd || !first))
          out.issue({
            code: "section_unclosed",
            severity: "info",
            message: `${syntax.sectionEnds[0]} is missing`,
          });
        else if (!implicit)
          // Text that is no call where a call must stand: the section's opener and that text stay content as
          // written, and reading goes on after the opener.
          out.issue({
            code: "call_invalid",
            severity: "error",
            message: `text inside ${options.opener} that is not a call`,
            path: [],
            raw: pending,
          });
        out.text(options.channel, pending);
        return;
      }
      reader.consume(next.length);
    }
    first = false;
    const repaired = repairs.includes(next);
    if (next !== syntax.callBegin && !repaired) {
      // The section's end: syntax when it closed calls; with none read, its opener went back to content with the
      // failed calls, and its end goes there too (a malformed section stays in content as written).
      if (read === 0) out.text(options.channel, pending + next);
      return;
    }
    const outcome = yield* options.readCall(pending + next);
    pending = "";
    if (outcome === "ok" && repaired)
      out.issue({
        code: "marker_repaired",
        severity: "info",
        message: `${next} read as ${syntax.callBegin}`,
      });
    if (outcome === "ended") return;
    if (outcome === "ok") read++;
    next = null;
  }
}

/**
 * The way a call read inside a section fails, for a call reader that started recording at its begin marker: the
 * rest of a malformed call up to its end marker goes with it (the section goes on), and its text, after `prefix`,
 * goes back to content.
 */
export function callFailer(
  reader: Reader,
  out: Output,
  options: { syntax: SectionSyntax; channel: Channel; prefix: string },
): (code: "call_invalid" | "call_truncated", message: string) => Step<CallOutcome> {
  return function* fail(code, message) {
    const more = code === "call_invalid" && (yield* skipRestOfCall(reader, options.syntax));
    const raw = options.prefix + reader.takeRecord();
    out.abort(callFailure(code, message, raw), raw, options.channel);
    return more ? "failed" : "ended";
  };
}

/**
 * After a call failed at the reader's position: consumes (into the recording) the rest of the call up to and
 * including its end marker, stopping before a next call or the section's end, so the section goes on.
 * Returns false when the text ended first.
 */
export function* skipRestOfCall(reader: Reader, syntax: SectionSyntax): Step<boolean> {
  const stops = MarkerSet.of([syntax.callEnd, syntax.callBegin, ...syntax.sectionEnds]);
  const found = yield* reader.before(stops, () => {});
  if (found === null) return false;
  if (found === syntax.callEnd) reader.consume(found.length);
  return true;
}

/** The issue and raw text of a call that failed. */
export function callFailure(
  code: "call_invalid" | "call_truncated",
  message: string,
  raw: string,
): SyntaxIssue {
  return { code, severity: "error", message, path: [], raw };
}

/**
 * After a call's whole arguments inside a section: consumes the call's end marker and returns `"closed"`; returns
 * `"unclosed"` when the end marker is missing but the text ends, the next call begins or the section ends there
 * (left unread: a call whose end was left out, as every family reads an unclosed call); `"invalid"` when other text
 * follows.
 */
export function* readCallEnd(reader: Reader, syntax: SectionSyntax): Step<"closed" | "unclosed" | "invalid"> {
  yield* reader.space();
  const next = yield* reader.peek(MarkerSet.of([syntax.callEnd, syntax.callBegin, ...syntax.sectionEnds]));
  if (next === syntax.callEnd) {
    reader.consume(next.length);
    return "closed";
  }
  if (next !== null || reader.exhausted) return "unclosed";
  return "invalid";
}
