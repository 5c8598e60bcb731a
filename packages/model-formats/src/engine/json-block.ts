import type { FamilyContext } from "./family-context.js";
import { jsonCallFailure, readJsonCall } from "./json-call.js";
import type { MarkerSet } from "./marker-set.js";
import type { Channel, Output } from "./output.js";
import type { Reader, Step } from "./reader.js";

/**
 * The rest of a call written as one JSON object between an opening marker and a closing one (GigaChat's call turn,
 * Intern-S1's action), the reader recording since the marker: white space, the object `{"name": …, ARGS: {…}}`,
 * white space, then the closer. Text that ends before the object, or holds something else there, or an object that is
 * not a call, goes back to content as written (`call_truncated`, `call_invalid`, `arguments_key_unknown`). A closer
 * missing at the end of the text ends the call at its object: told (`call_unclosed`) when the family's closer is part
 * of its syntax, silent when it is only a stop token a server strips (`unclosed: "silent"`).
 */
export function* readJsonBlock(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  options: {
    /** The marker that opened the call (consumed; it goes back to content with the rest on failure). */
    marker: string;
    channel: Channel;
    argumentKeys: readonly string[];
    close: MarkerSet;
    unclosed: "told" | "silent";
  },
): Step<void> {
  const { marker, channel } = options;
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
    separator: "",
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
  if (options.unclosed === "told")
    out.issue({
      code: "call_unclosed",
      severity: "info",
      message: "the call's closing marker is missing; the call ends with its JSON object",
      tool: result.name,
    });
  out.end(result.arguments);
  out.text(channel, after);
}
