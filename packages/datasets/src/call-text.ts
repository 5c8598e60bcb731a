import { parseJson } from "@toolcall/core";
import { isPlainObject, pythonLiteral, serializeJson } from "@toolcall/core/kit";

/** A call written as text (`{"name": …, "arguments": …}`), as data sets store it, read. */
export interface CallText {
  /** The call's name, when the text says one. */
  name: unknown;
  /** The arguments as core's wire text: the JSON text of the `arguments` value; the raw text when unreadable. */
  arguments: unknown;
  /**
   * How the text was written: JSON, a Python literal (`{'name': …, 'arguments': {…}}`), a Python call
   * (`name(key=value)`, as ToolACE writes calls), or neither.
   */
  syntax: "json" | "python" | "pythonic" | "unreadable";
  /** The call object as read (its other keys are written back as they were). */
  object?: Record<string, unknown>;
  /** Separators as written: `", "` and `": "` (Python's json.dumps) or compact. */
  spaced: boolean;
}

/**
 * Reads a call written as text: JSON first, then a Python literal (what Hermes data sets and `str(dict)` write).
 * `arguments` may be an object or a string holding JSON (both occur); an object's JSON text is the wire text, a
 * string is wire text already. Text that is neither keeps its name (when a `"name": "…"` can be seen) and becomes
 * raw arguments, so core reports it and repair keeps it under `_raw_arguments`, never drops it silently.
 *
 * @example
 * readCallText('{"name": "get_weather", "arguments": {"city": "Paris"}}').arguments; // '{"city":"Paris"}'
 * readCallText("{'arguments': {'city': 'Paris'}, 'name': 'get_weather'}").syntax; // "python"
 */
export function readCallText(text: string): CallText {
  const spaced = /"\s*:\s|',\s|":\s/.test(text) || text.includes(", ");
  const json = parseJson(text.trim(), { lossless: true });
  let value: unknown;
  let syntax: CallText["syntax"] = "unreadable";
  if (json.success) {
    value = json.value;
    syntax = "json";
  } else {
    const repaired = pythonLiteral.repair(text.trim());
    const python = repaired === undefined ? undefined : parseJson(repaired, { lossless: true });
    if (python?.success) {
      value = python.value;
      syntax = "python";
    }
  }
  if (!isPlainObject(value)) {
    const name = /"name"\s*:\s*"([^"\\]+)"|'name'\s*:\s*'([^'\\]+)'/.exec(text);
    return { name: name?.[1] ?? name?.[2], arguments: text, syntax: "unreadable", spaced };
  }
  const raw = value.arguments;
  let args: unknown;
  if (typeof raw === "string" || raw === undefined) args = raw;
  else {
    const written = serializeJson(raw);
    args = written.success ? written.value : raw;
  }
  return { name: value.name, arguments: args, syntax, object: value, spaced };
}

/**
 * A call as JSON text again, after a repair: the call object's keys in their order (`name`, then `arguments` when it
 * had none), `arguments` as an object (the repaired wire text parsed), separators as they were. A call read from a
 * Python literal is not rewritten (JSON's `true` and `null` are not Python): `undefined`.
 *
 * @example
 * writeCallText(readCallText('{"name": "f", "arguments": ""}'), "f", "{}"); // '{"name": "f", "arguments": {}}'
 */
export function writeCallText(read: CallText, name: unknown, argumentsText: unknown): string | undefined {
  if (read.syntax === "python" || read.syntax === "pythonic") return undefined;
  const parsed = typeof argumentsText === "string" ? parseJson(argumentsText, { lossless: true }) : undefined;
  const args = parsed?.success ? parsed.value : argumentsText;
  const call: Record<string, unknown> = {};
  const define = (key: string, value: unknown) =>
    Object.defineProperty(call, key, { value, writable: true, enumerable: true, configurable: true });
  const source = read.object ?? { name: undefined, arguments: undefined };
  for (const key of Object.keys(source))
    define(key, key === "name" ? name : key === "arguments" ? args : source[key]);
  if (!("name" in source)) define("name", name);
  if (!("arguments" in source)) define("arguments", args);
  const written = serializeJson(call, read.spaced ? { style: "python" } : {});
  return written.success ? written.value : undefined;
}
