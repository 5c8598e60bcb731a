import { wireArguments } from "./arguments.js";
import { JsonScanner } from "./json-scanner.js";
import type { MarkerSet } from "./marker-set.js";
import type { Output } from "./output.js";
import type { Reader, Step } from "./reader.js";

export type JsonArgumentsRead =
  /** `closed`: the end marker was consumed too (text that is not an object or array is read up to it). */
  | { status: "ok"; text: string; closed: boolean }
  | { status: "invalid"; message: string }
  | { status: "end" };

/**
 * Reads the argument text of a call whose name the syntax gives apart (Kimi, DeepSeek, Mistral v11, gpt-oss),
 * after optional whitespace. An object is passed on as argument deltas as it arrives (the model's bytes are the
 * wire text); an array too, but it is kept whole under `_raw_arguments` at the end. With an `end` marker, nothing
 * before it means `{}`, and text that is not an object or array (`null`, a JSON string holding JSON) is read up to
 * it and given core's R1 wire text. Text that is not JSON is `invalid`: the call stays in content.
 */
export function* readJsonArguments(
  reader: Reader,
  out: Output,
  options: { end: MarkerSet | null; tool: string },
): Step<JsonArgumentsRead> {
  yield* reader.space();
  if (options.end !== null) {
    const marker = yield* reader.peek(options.end);
    if (marker !== null) {
      reader.consume(marker.length);
      return { status: "ok", text: "{}", closed: true };
    }
  }
  const first = yield* reader.peekChar();
  if (first === null) return { status: "end" };
  if (first === "{" || first === "[") {
    const parts: string[] = [];
    const scanner = new JsonScanner();
    const state = yield* reader.json(scanner, (piece) => {
      parts.push(piece);
      if (first === "{") out.delta(piece);
    });
    if (state === "end") return { status: "end" };
    if (state === "error")
      return { status: "invalid", message: `the arguments are not JSON: ${scanner.error}` };
    const wire = wireArguments(parts.join(""), options.tool);
    if (wire.issue) out.issue(wire.issue);
    return { status: "ok", text: wire.text, closed: false };
  }
  if (options.end === null) return { status: "invalid", message: "the arguments are not a JSON object" };
  const parts: string[] = [];
  const closed = yield* reader.until(options.end, (piece) => parts.push(piece));
  if (closed === null) return { status: "end" };
  const text = parts.join("").trim();
  const wire = wireArguments(text, options.tool);
  if (wire.issue?.code === "arguments_invalid")
    return { status: "invalid", message: "the arguments are not JSON" };
  if (wire.issue) out.issue(wire.issue);
  return { status: "ok", text: wire.text, closed: true };
}
