import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { nameAndArgumentsJson } from "../engine/arguments.js";
import { readListAfterMarker } from "../engine/call-list.js";
import { defineSyntax } from "../engine/define-syntax.js";
import { MarkerSet } from "../engine/marker-set.js";
import { plainCheck, type ReasoningSyntax, textLoop } from "../engine/text-loop.js";

export const TOOLCALL_OPEN = "<TOOLCALL>";
export const TOOLCALL_CLOSE = "</TOOLCALL>";
const CLOSE = new MarkerSet([TOOLCALL_CLOSE]);
const ITEM = { separator: "", argumentKeys: ["arguments", "parameters"] } as const;
/** The template writes `<think>\n…\n</think>` before a past answer; its generation prompt opens `<think>\n`. */
const NEMOTRON_THINK: ReasoningSyntax = {
  open: "<think>",
  close: "</think>",
  lead: "\n",
  trail: "\n",
  after: "",
  before: "",
};

/**
 * Encodes calls as NVIDIA Nemotron Nano v2's template renders them:
 * `<TOOLCALL>[{"name": "NAME", "arguments": {…}}, …]</TOOLCALL>` (the arguments' wire text as it is).
 *
 * @example
 * encodeNemotronNanoV2([{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }]);
 * // '<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]</TOOLCALL>'
 */
export function encodeNemotronNanoV2(calls: readonly EncodableToolCall[]): string {
  return `${TOOLCALL_OPEN}[${calls.map(nameAndArgumentsJson).join(", ")}]${TOOLCALL_CLOSE}`;
}

/**
 * NVIDIA Nemotron Nano v2 (`nvidia/NVIDIA-Nemotron-Nano-9B-v2`): `<TOOLCALL>[{"name": …, "arguments": {…}}, …]</TOOLCALL>`
 * after any content, reasoning in `<think>…</think>` (the generation prompt opens it unless `/no_think`: parse with
 * `startInReasoning`), as llama.cpp's Nemotron V2 format reads it.
 *
 * Rules: each element's arguments object keeps the model's bytes (`"parameters"` is read as an alias); a missing
 * `</TOOLCALL>` keeps the calls (`call_unclosed`); an element that is not a call keeps the list in content; one call
 * object in place of the list is a list of one (`list_unwrapped`, as every family whose list has a closing wrapper).
 *
 * @example
 * nemotronNanoV2.parse('<TOOLCALL>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]</TOOLCALL>').toolCalls[0].function;
 * // { name: "get_weather", arguments: '{"city": "Tokyo"}' }
 */
export const nemotronNanoV2: ToolCallSyntax = defineSyntax({
  id: "nemotron-nano-v2",
  name: "Nemotron Nano v2 (<TOOLCALL>[…]</TOOLCALL>)",
  startMarkers: [TOOLCALL_OPEN],
  plain: plainCheck(TOOLCALL_OPEN, [NEMOTRON_THINK.open, NEMOTRON_THINK.close]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [TOOLCALL_OPEN],
      reasoning: NEMOTRON_THINK,
      onCall: (marker, channel) =>
        readListAfterMarker(reader, out, context, { marker, channel, item: ITEM, close: CLOSE }),
    });
  },
  encode: encodeNemotronNanoV2,
});
