/**
 * A copy of `item` with `key` set (added last when it was absent), every other key in its place. Keys are defined,
 * never assigned, so a `__proto__` key stays a key.
 *
 * @example
 * withKey({ id: "u1", args: "{}" }, "args", {}); // { id: "u1", args: {} }
 */
export function withKey(item: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  const define = (name: string, to: unknown) =>
    Object.defineProperty(copy, name, { value: to, writable: true, enumerable: true, configurable: true });
  for (const name of Object.keys(item)) define(name, name === key ? value : item[name]);
  if (!Object.hasOwn(item, key)) define(key, value);
  return copy;
}
