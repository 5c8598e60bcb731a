import type { SyntaxIssue } from "@toolcall/core/kit";
import { wireArguments } from "./arguments.js";
import type { FamilyContext } from "./define-syntax.js";
import { JsonScanner } from "./json-scanner.js";
import type { Channel, Output, Separator } from "./output.js";
import type { Reader, Step } from "./reader.js";

export interface JsonCallOptions {
  channel: Channel;
  /** The separator the template writes before a call (dropped from the whitespace before it once the call ends). */
  separator: Separator;
  /** Keys that name the call (first found wins): `name`. */
  nameKeys?: readonly string[];
  /** Keys that hold the arguments (first found wins): `arguments`, `parameters`. */
  argumentKeys: readonly string[];
  /** A key that holds the call's id (Mistral writes `"id"` last); the call is announced once it is known. */
  idKey?: string;
  /**
   * Announce nothing until the object is complete (the caller decides then whether it is a call at all, and gives it
   * an id when the JSON holds none: the result's `id` is then "").
   */
  deferStart?: boolean;
  /** Announce the call only once its arguments begin (prose can hold `{"name": "Alice"}`). */
  announceWithArguments?: boolean;
  /** The object's one key is the call's name and its value the arguments (Apertus: `{"get_weather": {…}}`). */
  keyed?: boolean;
}

export type JsonCallResult =
  | { status: "complete"; name: string; id: string; arguments: string }
  | { status: "error"; message: string }
  | { status: "end" }
  | { status: "not_call"; message: string }
  | { status: "unknown_key"; name: string; message: string };

/**
 * Keys other models and servers write where a family expects its own argument key (`"args"`: Gemini's SDKs;
 * `"input"`: Anthropic's blocks; `"parameters"`: Llama 3 and Command; `"arguments"`: OpenAI): each names the
 * arguments and nothing else, so one of them alone is read as the arguments (`arguments_alias`).
 */
export const ARGUMENT_ALIASES: readonly string[] = ["arguments", "parameters", "args", "input"];

/**
 * Keys of a call object that say something about the call but never hold its arguments: a call with these and no
 * argument key is a call without arguments (`{}`).
 */
const CALL_METADATA_KEYS: readonly string[] = ["type", "id", "index", "call_id"];

function decodeString(raw: string): string | undefined {
  try {
    const value = JSON.parse(raw) as unknown;
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads one JSON call object (`{"name": …, "arguments": {…}}`) that starts at the reader's `{`, announcing the call
 * as soon as its name (and id, where the syntax has one) is known and passing the argument object's text on as it
 * arrives: the model's bytes are the wire text (core keeps valid object text as it is), so every validated prefix
 * is final. A string holding JSON, `null` and non-objects get core's R1 wire text at the end.
 */
export function* readJsonCall(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  options: JsonCallOptions,
): Step<JsonCallResult> {
  const nameKeys = options.nameKeys ?? ["name"];
  const parts: string[] = [];
  let consumed = 0;
  let joinedLength = 0;
  let joined = "";
  const body = () => {
    if (joinedLength !== consumed) {
      joined = parts.join("");
      parts.length = 0;
      parts.push(joined);
      joinedLength = consumed;
    }
    return joined;
  };
  let key = "";
  let keys = 0;
  /** The first key at the object's top level that names neither the call, its arguments nor its metadata. */
  let unknownKey: string | undefined;
  let aliasKey: string | undefined;
  let keyedName: string | undefined;
  const span: Record<"name" | "args" | "id", [number, number]> = {
    name: [-1, -1],
    args: [-1, -1],
    id: [-1, -1],
  };
  let argsFirst = "";
  let name: string | undefined;
  let id: string | undefined;
  let started = false;
  let released = 0;
  let failed = false;
  const slot = (k: string): keyof typeof span | "alias" | undefined =>
    options.keyed
      ? keys === 1
        ? "args"
        : undefined
      : nameKeys.includes(k)
        ? "name"
        : options.argumentKeys.includes(k)
          ? "args"
          : k === options.idKey
            ? "id"
            : ARGUMENT_ALIASES.includes(k)
              ? "alias"
              : undefined;
  let open: keyof typeof span | undefined;
  const scanner = new JsonScanner({
    trackDepth: 1,
    listener: {
      key: (_depth, raw) => {
        key = decodeString(raw) ?? "";
        keys++;
        if (options.keyed && keys === 1) keyedName = key;
      },
      valueStart: (_depth, offset, first) => {
        let s = slot(key);
        if (s === "alias") {
          // Another family's argument key: the arguments when the family's own key never comes (the first wins).
          if (aliasKey !== undefined || span.args[0] !== -1) s = undefined;
          else {
            aliasKey = key;
            s = "args";
          }
        } else if (s === undefined && unknownKey === undefined && !CALL_METADATA_KEYS.includes(key))
          unknownKey = key;
        open = s !== undefined && span[s][0] === -1 ? s : undefined;
        if (open === undefined) return;
        span[open][0] = offset;
        if (open === "args") argsFirst = first;
      },
      valueEnd: (_depth, offset) => {
        if (open !== undefined) span[open][1] = offset;
        open = undefined;
      },
    },
  });
  const announce = () => {
    if (started || failed || options.deferStart || name === undefined) return;
    if (options.idKey !== undefined && span.id[1] === -1 && !scanner.done) return;
    if (options.announceWithArguments && span.args[0] === -1) return;
    id = id ?? context.createId(out.index, name);
    out.start(name, id, options.channel, options.separator);
    context.checkName(name, out);
    started = true;
  };
  const afterPiece = (piece: string, pieceStart: number) => {
    if (name === undefined && !failed && options.keyed && keyedName !== undefined) {
      if (keyedName.trim() === "") failed = true;
      else name = keyedName;
    } else if (name === undefined && !failed && span.name[1] !== -1) {
      const value = decodeString(body().slice(span.name[0], span.name[1]));
      if (value === undefined || value.trim() === "") failed = true;
      else name = value;
    }
    if (id === undefined && span.id[1] !== -1) id = decodeString(body().slice(span.id[0], span.id[1]));
    announce();
    if (!started || argsFirst !== "{") return;
    const from = Math.max(released, span.args[0]);
    const to = span.args[1] !== -1 ? span.args[1] : consumed;
    if (to <= from) return;
    out.delta(from >= pieceStart ? piece.slice(from - pieceStart, to - pieceStart) : body().slice(from, to));
    released = to;
  };
  const state = yield* reader.json(scanner, (piece) => {
    const pieceStart = consumed;
    parts.push(piece);
    consumed += piece.length;
    afterPiece(piece, pieceStart);
  });
  if (state === "end") return { status: "end" };
  if (state === "error") return { status: "error", message: scanner.error };
  announce();
  if (name === undefined) return { status: "not_call", message: "a JSON object without a name" };
  if (options.keyed && keys > 1)
    return {
      status: "not_call",
      message: "a call object with more than one key (the key is the tool's name)",
    };
  if (span.args[0] === -1 && unknownKey !== undefined && !options.keyed)
    // Never a runnable call on arguments the model did not give: `{"name": "f", "argz": {…}}` is not `f({})`.
    return {
      status: "unknown_key",
      name,
      message: `the call has no ${JSON.stringify(options.argumentKeys[0] ?? "arguments")} but a key ${JSON.stringify(unknownKey)}: its arguments are unknown`,
    };
  const text = body();
  let args = "{}";
  if (aliasKey !== undefined && !options.argumentKeys.includes(aliasKey))
    out.issue({
      code: "arguments_alias",
      severity: "warning",
      message: `${JSON.stringify(aliasKey)} read as the call's ${JSON.stringify(options.argumentKeys[0] ?? "arguments")}`,
      tool: name,
    });
  if (span.args[0] !== -1) {
    const raw = text.slice(span.args[0], span.args[1]);
    const payload = argsFirst === '"' ? (decodeString(raw) ?? raw) : raw;
    const wire = wireArguments(payload, name);
    if (wire.issue) out.issue(wire.issue);
    args = wire.text;
  }
  // A deferred call gets its id when it is announced (its index is known then); "" until then.
  return {
    status: "complete",
    name,
    id: id ?? (options.deferStart ? "" : context.createId(out.index, name)),
    arguments: args,
  };
}

/** The issue of a JSON call that did not complete: text that ends inside it, or text that is not a call. */
export function jsonCallFailure(
  result: Exclude<JsonCallResult, { status: "complete" }>,
  raw: string,
): SyntaxIssue {
  if (result.status === "end")
    return {
      code: "call_truncated",
      severity: "error",
      message: "the text ends inside a tool call",
      path: [],
      raw,
    };
  if (result.status === "unknown_key")
    return { code: "arguments_key_unknown", severity: "error", message: result.message, path: [], raw };
  return { code: "call_invalid", severity: "error", message: result.message, path: [], raw };
}

/**
 * The issue of a bare JSON call (no marker before it: Llama 3's whole-answer object, an unopened list of Mistral,
 * Granite or xLAM) that was not read. Prose may hold any JSON object, so such text is content without a word, with one
 * exception: an object whose name is an offered tool but whose arguments sit under a key no family uses
 * (`{"name": "get_weather", "argz": {…}}`) is a call the model meant and wrote wrong. It stays content byte for byte
 * (never a call on arguments the model did not give) with `arguments_key_unknown`, as it does after a marker.
 */
export function bareCallIssue(
  result: Exclude<JsonCallResult, { status: "complete" }>,
  raw: string,
  context: FamilyContext,
): SyntaxIssue | null {
  if (result.status !== "unknown_key" || !context.tools.has(result.name)) return null;
  return { ...jsonCallFailure(result, raw), tool: result.name };
}

/**
 * After an item of a list of calls (`[a, b]`): a comma (another item follows: `more`, with the text read, which
 * goes back to content if the next item fails), the closing `]` (consumed: `closed`), or anything else
 * (`list_unclosed`; the text read goes back to content).
 */
export function* listNext(
  reader: Reader,
  out: Output,
  channel: Channel,
): Step<{ more: boolean; pending: string; closed: boolean }> {
  let pending = yield* reader.space();
  const after = yield* reader.peekChar();
  if (after === ",") {
    pending += reader.consume(1);
    return { more: true, pending, closed: false };
  }
  if (after === "]") {
    reader.consume(1);
    return { more: false, pending: "", closed: true };
  }
  if (after === "{") {
    // `[{…} {…}]`: two call objects with nothing but space between have one reading, a list of both. Recorded, and
    // only for what follows as a whole call: a cut object after it goes back to content as any failed item does.
    out.issue({
      code: "list_comma_missing",
      severity: "warning",
      message: "a comma is missing between two calls of the list: the next object is read as the next call",
    });
    return { more: true, pending, closed: false };
  }
  out.issue({ code: "list_unclosed", severity: "info", message: "the list of calls does not end with ]" });
  out.text(channel, pending);
  return { more: false, pending: "", closed: false };
}
