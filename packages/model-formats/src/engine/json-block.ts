import type { FamilyContext } from "./family-context.js";
import { jsonCallFailure, readJsonCall } from "./json-call.js";
import type { MarkerSet } from "./marker-set.js";
import type { Channel, Output } from "./output.js";
import type { Reader, Step } from "./reader.js";

/** What a family tells the reader of a JSON call between markers. */
export interface JsonBlockSyntax {
  /** The keys the call object may hold its arguments under, in order of preference. */
  argumentKeys: readonly string[];
  /** What may close the call. */
  close: MarkerSet;
  /** What the template writes before a call (dropped as syntax once the call is read); none by default. */
  separator?: string;
  /**
   * A closer missing at the end of the text: `silent` when it is only a stop token a server strips, else told
   * (`call_unclosed`, "NAME is missing; …") with the closer's name.
   */
  unclosed: "silent" | { closer: string };
}

/**
 * The rest of a call written as one JSON object between an opening marker and a closing one (Hermes' and LongCat's
 * tags, GigaChat's call turn, Intern-S1's action): white space, the object `{"name": …, ARGS: {…}}`, white space, then
 * the closer. Text that ends before the object, or holds something else there, or an object that is not a call, goes
 * back to content as written (`call_truncated`, `call_invalid`, `arguments_key_unknown`). A closer missing at the end
 * of the text ends the call at its object (vLLM accepts a last call without its closer), told or silent as the family
 * says. Recording starts here unless the family already recorded what it read after the marker (`recorded`).
 *
 * @example
 * const onCall = (marker: string, channel: Channel) =>
 *   readJsonBlock(reader, out, context, { marker, channel, argumentKeys: ["arguments"], close, unclosed: "silent" });
 */
export function* readJsonBlock(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  options: JsonBlockSyntax & {
    /** The marker that opened the call (consumed; it goes back to content with the rest on failure). */
    marker: string;
    channel: Channel;
    /** The caller started the record at the marker and read on (Intern-S1's `<|plugin|>`). */
    recorded?: boolean;
  },
): Step<void> {
  const { marker, channel } = options;
  if (options.recorded !== true) reader.record();
  yield* reader.space();
  const next = yield* reader.peekChar();
  if (next !== "{") {
    const raw = marker + reader.takeRecord();
    out.abort(
      next === null
        ? { code: "call_truncated", severity: "error", message: "the text ends inside a tool call", raw }
        : { code: "call_invalid", severity: "error", message: `expected a JSON object after ${marker}`, raw },
      raw,
      channel,
    );
    return;
  }
  const result = yield* readJsonCall(reader, out, context, {
    channel,
    separator: options.separator ?? "",
    argumentKeys: options.argumentKeys,
  });
  if (result.status !== "complete") {
    const raw = marker + reader.takeRecord();
    out.abort(jsonCallFailure(result, raw), raw, channel);
    return;
  }
  const after = yield* reader.space();
  const close = yield* reader.peek(options.close);
  reader.takeRecord();
  if (close !== null) {
    reader.consume(close.length);
    out.end(result.arguments);
    return;
  }
  if (options.unclosed !== "silent")
    out.issue({
      code: "call_unclosed",
      severity: "info",
      message: `${options.unclosed.closer} is missing; the call ends with its JSON object`,
      tool: result.name,
    });
  out.end(result.arguments);
  out.text(channel, after);
}
