/** The marker a tuple carries (an array with this key set). */
export const TUPLE: unique symbol = Symbol("tuple");
/** The field names of a named tuple (Jinja's `groupby` items), on the same array. */
export const FIELDS: unique symbol = Symbol("fields");

/** A Python tuple: a frozen array with a marker. */
export function tuple(items: unknown[]): unknown[] {
  let target = items;
  if (Object.isFrozen(items)) {
    if ((items as unknown as Record<symbol, boolean>)[TUPLE] === true) return items;
    target = Array.from(items);
  }
  (target as unknown as Record<symbol, boolean>)[TUPLE] = true;
  return Object.freeze(target) as unknown[];
}

/** A named tuple: a tuple whose items are also attributes (`_GroupTuple(grouper, list)`). */
export function namedTuple(items: unknown[], fields: readonly string[]): unknown[] {
  (items as unknown as Record<symbol, unknown>)[FIELDS] = fields;
  return tuple(items);
}

export function isTuple(value: unknown): value is unknown[] {
  return Array.isArray(value) && (value as unknown as Record<symbol, boolean>)[TUPLE] === true;
}

/** A named tuple's field names, or undefined. */
export function tupleFields(value: unknown[]): readonly string[] | undefined {
  return (value as unknown as Record<symbol, readonly string[] | undefined>)[FIELDS];
}
