import { isPlainObject } from "@toolcall/core/kit";

/**
 * A copy of `value` with the value at `path` replaced, every key kept in its place and every part off the path the
 * same object; `undefined` when the path does not lead through objects and arrays as far as its last key. Keys are
 * defined, never assigned, so a `__proto__` key stays a key.
 *
 * @example
 * setIn({ value: { a: { b: 1, c: 2 } }, path: ["a", "b"], to: 3 }); // { a: { b: 3, c: 2 } }
 */
export function setIn(options: { value: unknown; path: readonly (string | number)[]; to: unknown }): unknown {
  const { value, path, to } = options;
  if (path.length === 0) return to;
  const [key, ...rest] = path as [string | number, ...(string | number)[]];
  if (Array.isArray(value) && typeof key === "number") {
    if (key < 0 || key >= value.length) return undefined;
    const inner = setIn({ value: value[key], path: rest, to });
    if (inner === undefined) return undefined;
    const copy = value.slice();
    copy[key] = inner;
    return copy;
  }
  if (!isPlainObject(value) || typeof key !== "string") return undefined;
  if (rest.length > 0 && !Object.hasOwn(value, key)) return undefined;
  const inner = setIn({ value: value[key], path: rest, to });
  if (inner === undefined) return undefined;
  const copy: Record<string, unknown> = {};
  for (const name of Object.keys(value))
    Object.defineProperty(copy, name, {
      value: name === key ? inner : value[name],
      writable: true,
      enumerable: true,
      configurable: true,
    });
  if (!Object.hasOwn(value, key))
    Object.defineProperty(copy, key, { value: inner, writable: true, enumerable: true, configurable: true });
  return copy;
}
