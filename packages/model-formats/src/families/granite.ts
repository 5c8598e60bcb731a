import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { nameAndArgumentsJson } from "../engine/arguments.js";
import { readListAfterMarker, readUnopenedList } from "../engine/call-list.js";
import { defineSyntax } from "../engine/define-syntax.js";
import { BARE_THINK, plainCheck, type ResponseSyntax, textLoop } from "../engine/text-loop.js";

/** Granite 3.0, 3.2 and 3.3 (a special token). */
export const GRANITE_TOOL_CALL = "<|tool_call|>";
/** Granite 3.1 (plain text). */
export const GRANITE_31_TOOL_CALL = "<tool_call>";
const ITEM = { separator: "", argumentKeys: ["arguments", "parameters"] } as const;
const THINK = BARE_THINK;
const RESPONSE: ResponseSyntax = { open: "<response>", close: "</response>", lead: "", trail: "" };

/**
 * Encodes calls as Granite 3 writes them (its templates render only a message's content; the system prompt asks for
 * `<|tool_call|>` followed by a JSON list): `<|tool_call|>[{"name": "NAME", "arguments": {…}}, …]`.
 *
 * @example
 * encodeGranite([{ function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } }]);
 * // '<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]'
 */
export function encodeGranite(calls: readonly EncodableToolCall[]): string {
  const items = calls.map(nameAndArgumentsJson);
  return `${GRANITE_TOOL_CALL}[${items.join(", ")}]`;
}

/**
 * IBM Granite 3.x: `<|tool_call|>[{"name": …, "arguments": {…}}, …]` (3.1: `<tool_call>[…]`); with thinking on
 * (3.2, 3.3), `<think>…</think><response>…</response>`. Granite 4 writes Hermes' `<tool_call>{…}</tool_call>`: use
 * `hermes` (detection finds it).
 *
 * Rules: each element of the list is a call whose arguments object keeps the model's bytes (`"parameters"` is read
 * like `"arguments"`); a list at the very start with the marker missing (a server that strips special tokens; vLLM
 * reads it too) is read (`call_unopened`); a marker not followed by a list stays in content (`call_invalid`); the
 * `<response>` wrapper is syntax where the content begins.
 *
 * @example
 * granite.parse('<|tool_call|>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]').toolCalls[0].function;
 * // { name: "get_weather", arguments: '{"city": "Tokyo"}' }
 */
export const granite: ToolCallSyntax = defineSyntax({
  id: "granite",
  name: "Granite 3 (<|tool_call|>[…])",
  startMarkers: [GRANITE_TOOL_CALL, GRANITE_31_TOOL_CALL],
  // One scan: "_call" is in both markers, and its first character is rare in prose (a needle that starts with a
  // common letter makes the native scan stop at every one).
  plain: plainCheck("_call", [THINK.open, RESPONSE.open, "[{", "[ {", "[\n{"]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [GRANITE_TOOL_CALL, GRANITE_31_TOOL_CALL],
      reasoning: THINK,
      response: RESPONSE,
      *atStart() {
        yield* readUnopenedList(reader, out, context, {
          item: ITEM,
          issue: `${GRANITE_TOOL_CALL} is missing before a JSON list of calls: read as calls`,
        });
      },
      onCall: (marker, channel) => readListAfterMarker(reader, out, context, { marker, channel, item: ITEM }),
    });
  },
  encode: encodeGranite,
});
