import { type PythonJsonOptions, pythonJsonDumps } from "./python-json.js";

/**
 * `tojson` of a list or dict, kept per value and options. Engine values never change once built (the sandbox is
 * immutable, and a conversation's messages and tools are converted once), and chat templates dump the same tools on
 * every render: the text is made once per value. A value dumped once is not kept (most dicts of one render are).
 */
const texts = new WeakMap<object, Map<string, string>>();
const seen = new WeakSet<object>();

function optionsKey(options: PythonJsonOptions): string {
  const separators = options.separators;
  return `${options.ensureAscii === true}|${options.sortKeys === true}|${options.indent ?? ""}|${
    separators ? `${separators[0]}\u0000${separators[1]}` : ""
  }`;
}

/**
 * {@link pythonJsonDumps} that keeps the text of a list or dict dumped more than once.
 *
 * @example
 * tojsonText(tools, { ensureAscii: false }); // the second call with the same `tools` reuses the text
 */
export function tojsonText(value: unknown, options: PythonJsonOptions): string {
  if (typeof value !== "object" || value === null || !(Array.isArray(value) || value instanceof Map))
    return pythonJsonDumps(value, options);
  const key = optionsKey(options);
  const known = texts.get(value);
  const hit = known?.get(key);
  if (hit !== undefined) return hit;
  const text = pythonJsonDumps(value, options);
  if (!seen.has(value)) {
    seen.add(value);
    return text;
  }
  if (known === undefined) texts.set(value, new Map([[key, text]]));
  else known.set(key, text);
  return text;
}
