import { parseJson } from "@toolcall/core";
import { numbersRoundTrip, runSteps, serializeJson } from "@toolcall/core/kit";

/**
 * The text of a JSON document after a change. `JSON.stringify` of the changed tree when every number of the original
 * text reads back as written (the common case); otherwise the original is read again losslessly, `redo` makes the
 * same change on that tree and core's serializer writes it, so integers beyond 2^53, `1.0` and the like keep every
 * digit (RULES.md R1, R2), in the fields nothing touched (`seed`, `temperature`, tool schemas) as in the changed
 * ones. A text the lossless reader refuses (nesting beyond its limit) is written from the plain tree.
 *
 * @example
 * changedJson({ text: '{"seed": 12345678901234567891, "messages": […]}', changed, redo: (exact) => sanitize(exact) });
 * // '{"seed":12345678901234567891,"messages":[…]}'
 */
export function changedJson(args: ChangedJsonArgs): string {
  return runSteps(changedJsonSteps(args));
}

interface ChangedJsonArgs {
  text: string;
  changed: unknown;
  redo: (exact: unknown) => unknown;
}

/**
 * {@link changedJson} in steps, each yield saying how many characters of work it did: the scan of the original's
 * numbers, then either `JSON.stringify` of the changed tree, or the lossless read of the original and the writing of
 * the change made on it.
 */
export function* changedJsonSteps(args: ChangedJsonArgs): Generator<number, string, void> {
  const roundTrip = numbersRoundTrip(args.text);
  yield args.text.length;
  if (!roundTrip) {
    const exact = parseJson(args.text, { lossless: true });
    yield args.text.length;
    if (exact.success) {
      const written = serializeJson(args.redo(exact.value));
      if (written.success) return written.value;
    }
  }
  return JSON.stringify(args.changed);
}
