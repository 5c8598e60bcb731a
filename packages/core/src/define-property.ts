/**
 * Sets `key` on `target` as an own data property. Plain assignment of `__proto__` would change the prototype;
 * every object core builds goes through here, so keys from the model are always data.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

/** True for objects whose prototype is `Object.prototype` or `null`. Never throws (revoked proxies are not plain). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  try {
    if (Array.isArray(value)) return false;
    const proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  } catch {
    return false;
  }
}
