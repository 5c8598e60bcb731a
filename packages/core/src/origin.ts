/**
 * The key under which a format's reader notes where a neutral message or call came from in its record. A symbol:
 * invisible to JSON, to `Object.keys` (so it never makes an empty message look full) and to every rule, yet kept
 * by the spread copies `sanitizeHistory` makes, so a writer can tell each message it gets back by its origin.
 */
const ORIGIN: unique symbol = Symbol.for("toolcall.origin");

/**
 * The value, marked with where it came from (a message or a call object the reader made; never the caller's).
 *
 * @example
 * const message = withOrigin({ role: "tool", tool_call_id: "t1", content: "ok" }, { block: 3 });
 * originOf(sanitizeHistory([...]).messages[2]); // { block: 3 } for the same message, copied or not
 */
export function withOrigin<T extends object>(value: T, origin: unknown): T {
  Object.defineProperty(value, ORIGIN, {
    value: origin,
    enumerable: true,
    configurable: true,
    writable: true,
  });
  return value;
}

/**
 * Where a neutral message or call came from, as its reader noted it; `undefined` for one a rule made (a synthesized
 * tool result).
 *
 * @example
 * originOf({ role: "user", content: "hi" }); // undefined
 */
export function originOf(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return undefined;
  try {
    return Object.getOwnPropertyDescriptor(value, ORIGIN)?.value;
  } catch {
    return undefined;
  }
}
