import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { nameAndArgumentsJson } from "../engine/arguments.js";
import { readListAfterMarker } from "../engine/call-list.js";
import { defineSyntax } from "../engine/define-syntax.js";
import { BARE_THINK, plainCheck, textLoop } from "../engine/text-loop.js";

export const PHI4_FUNCTOOLS = "functools";
const ITEM = { separator: ["\n", " "], argumentKeys: ["arguments", "parameters"] } as const;
const THINK = BARE_THINK;

/**
 * Encodes calls as Phi-4-mini writes them: `functools[{"name": "NAME", "arguments": {…}}, …]` (its template renders
 * only a message's content; the format is the one its model card and vLLM's `phi4_mini_json` parser describe).
 *
 * @example
 * encodePhi4Mini([{ function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } }]);
 * // 'functools[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]'
 */
export function encodePhi4Mini(calls: readonly EncodableToolCall[]): string {
  const items = calls.map(nameAndArgumentsJson);
  return `${PHI4_FUNCTOOLS}[${items.join(", ")}]`;
}

/**
 * Microsoft Phi-4-mini (and Firefunction v2's ` functools[`): `functools[{"name": …, "arguments": {…}}, …]`, with no
 * closing marker.
 *
 * Rules: `functools` starts a list of calls only when `[` and `{` (whitespace between them allowed) or `[]` follow, so
 * prose and code about Python's `functools` stay content; each element's arguments object keeps the model's bytes
 * (`"parameters"` is read like `"arguments"`); a list that breaks keeps the calls before the break and the rest is
 * content.
 *
 * @example
 * phi4Mini.parse('functools[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]').toolCalls[0].function;
 * // { name: "get_weather", arguments: '{"city": "Tokyo"}' }
 */
export const phi4Mini: ToolCallSyntax = defineSyntax({
  id: "phi4-mini",
  name: "Phi-4-mini (functools[…])",
  startMarkers: [PHI4_FUNCTOOLS],
  plain: plainCheck(PHI4_FUNCTOOLS, [THINK.open]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [PHI4_FUNCTOOLS],
      reasoning: THINK,
      onCall: (marker, channel) =>
        readListAfterMarker(reader, out, context, { marker, channel, item: ITEM, quiet: true }),
    });
  },
  encode: encodePhi4Mini,
});
