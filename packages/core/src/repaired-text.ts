/**
 * The text the repairs made for the last `repaired` result decoded (the result holds only the mapping). One entry:
 * a call's exact re-read follows its decode at once (in steps, other calls may be decoded in between; the re-read
 * then repairs the original again, as it did before this was kept). A weak map entry per repaired call cost more
 * than the parse it saves.
 */
let last: { result: object; text: string } | undefined;

/**
 * Records the text the repairs made for a `repaired` result (nothing when `text` is `undefined`), so an exact
 * (lossless) re-read of that call parses this text once instead of running the repairs again on the original.
 * Returns the result.
 *
 * @example
 * return noteRepairedText({ arguments, status: "repaired", repairs, raw }, '{"city":"Rome"}');
 */
export function noteRepairedText<T extends object>(result: T, text: string | undefined): T {
  if (text !== undefined) last = { result, text };
  return result;
}

/**
 * The text the repairs made for this result, when it is the last one recorded.
 *
 * @example
 * repairedTextOf(decodeArguments("{'a': 1}", { repairs: coreRepairs })); // '{"a": 1}'
 */
export function repairedTextOf(result: object): string | undefined {
  return last !== undefined && last.result === result ? last.text : undefined;
}
