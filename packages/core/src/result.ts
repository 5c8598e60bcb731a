/**
 * The outcome of an operation that can fail in an expected way: the value, or why not. Functions that return one are
 * total (they never throw on bad input); their `…OrThrow` twins throw instead. The field names follow the "safe"
 * functions of the AI SDK and zod's `safeParse` (`success`), so a reader who knows either reads ours at once.
 * `Failure` is what a caller needs to act on: a message (`string`, the default) or an {@link Issue}.
 *
 * @example
 * import type { Result } from "@toolcall/core";
 *
 * function half(n: number): Result<number> {
 *   return n % 2 === 0 ? { success: true, value: n / 2 } : { success: false, error: `${n} is odd` };
 * }
 * const halved = half(3);
 * if (!halved.success) console.log(halved.error); // "3 is odd"
 */
export type Result<Value, Failure = string> =
  | { success: true; value: Value }
  | { success: false; error: Failure };
