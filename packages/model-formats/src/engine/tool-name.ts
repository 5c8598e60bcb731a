import { pythonJsonText } from "./arguments.js";
import { ARGUMENT_ALIASES } from "./json-call.js";

/**
 * Characters no tool name holds and a model's malformed call does (`multiply a=1 b=2`, `{"name": …}`, `f\n` written
 * as a literal backslash and `n`): whitespace, quotes, braces, brackets, parentheses, `=`, `<`, `>` and `\`.
 */
const NOT_IN_NAME = /[\s"'{}[\]()=<>\\]/;

/**
 * Whether `name` can be a tool's name as a syntax that writes the name bare reads it.
 *
 * @example
 * isToolName("get_weather"); // true
 * isToolName("multiply a=1 b=2"); // false
 */
export function isToolName(name: string): boolean {
  return name !== "" && !NOT_IN_NAME.test(name);
}

/**
 * A whole JSON call object (`{"name": "f", "arguments": {…}}`, the argument key any of the known aliases) as a name
 * and wire arguments, or `undefined` when the text is not exactly one such object.
 *
 * @example
 * jsonCallOf('{"name": "f", "arguments": {"a": 1}}'); // { name: "f", arguments: '{"a": 1}' }
 */
export function jsonCallOf(text: string): { name: string; arguments: string } | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const name = record.name;
  if (typeof name !== "string" || !isToolName(name)) return undefined;
  const keys = Object.keys(record).filter((key) => key !== "name");
  if (keys.length > 1 || (keys.length === 1 && !ARGUMENT_ALIASES.includes(keys[0] ?? ""))) return undefined;
  const args = keys.length === 1 ? record[keys[0] ?? ""] : {};
  if (typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  return { name, arguments: pythonJsonText(args) };
}
