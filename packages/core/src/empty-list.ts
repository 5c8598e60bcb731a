/**
 * The one empty list a result shares when it found nothing: frozen, so a plain answer or a clean decode makes no
 * list of its own. Result lists are readonly in core's contract (`SyntaxParseResult.toolCalls` / `issues`,
 * `DecodeResult.repairs`): a caller that adds to one builds a new list (`[...result.repairs, "call_split"]`).
 *
 * @example
 * import { EMPTY_LIST } from "@toolcall/core/kit";
 * const result = { toolCalls: EMPTY_LIST, content: "Hello", reasoning: null, issues: EMPTY_LIST };
 * Object.isFrozen(result.toolCalls); // true
 */
export const EMPTY_LIST: readonly never[] = Object.freeze([]);
