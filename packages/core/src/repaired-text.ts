/** The text the repairs made, by the `repaired` result it was read into (the result holds only the mapping). */
const texts = new WeakMap<object, string>();

/**
 * Records the text the repairs made for a `repaired` result (none recorded when `text` is `undefined`), so an exact
 * (lossless) re-read of that call parses this text once instead of running the repairs again on the original.
 * Returns the result.
 *
 * @example
 * return noteRepairedText({ arguments, status: "repaired", repairs, raw }, '{"city":"Rome"}');
 */
export function noteRepairedText<T extends object>(result: T, text: string | undefined): T {
  if (text !== undefined) texts.set(result, text);
  return result;
}

/**
 * The text the repairs made for this result, when it was recorded.
 *
 * @example
 * repairedTextOf(decodeArguments("{'a': 1}", { repairs: coreRepairs })); // '{"a": 1}'
 */
export function repairedTextOf(result: object): string | undefined {
  return texts.get(result);
}
