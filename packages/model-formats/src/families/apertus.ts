import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsText, pythonJsonText } from "../engine/arguments.js";
import { readListAfterMarker } from "../engine/call-list.js";
import { defineSyntax } from "../engine/define-syntax.js";
import { MarkerSet } from "../engine/marker-set.js";
import { plainCheck, type ReasoningSyntax, textLoop } from "../engine/text-loop.js";

export const APERTUS_TOOLS_PREFIX = "<|tools_prefix|>";
export const APERTUS_TOOLS_SUFFIX = "<|tools_suffix|>";
/** Apertus's reasoning markers, `<|inner_prefix|>` … `<|inner_suffix|>`. */
export const APERTUS_INNER: ReasoningSyntax = {
  open: "<|inner_prefix|>",
  close: "<|inner_suffix|>",
  lead: "",
  trail: "",
  after: "",
  before: "",
};
const SUFFIX = new MarkerSet([APERTUS_TOOLS_SUFFIX]);
const ITEM = { separator: "", argumentKeys: [], keyed: true } as const;

/**
 * Encodes calls as Apertus' template renders them: `<|tools_prefix|>[{"NAME": ARGS}, …]<|tools_suffix|>`, with the
 * arguments as the wire text (the template concatenates the string).
 *
 * @example
 * encodeApertus([{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }]);
 * // '<|tools_prefix|>[{"get_weather": {"city": "Tokyo"}}]<|tools_suffix|>'
 */
export function encodeApertus(calls: readonly EncodableToolCall[]): string {
  const items = calls.map((call) => `{${pythonJsonText(call.function.name)}: ${argumentsText(call)}}`);
  return `${APERTUS_TOOLS_PREFIX}[${items.join(", ")}]${APERTUS_TOOLS_SUFFIX}`;
}

/**
 * Swiss AI Apertus: `<|tools_prefix|>[{"get_weather": {"city": "Tokyo"}}, …]<|tools_suffix|>` (each element's one key
 * names the tool, its value is the arguments); reasoning in `<|inner_prefix|>…<|inner_suffix|>`.
 *
 * Rules: the arguments object keeps the model's bytes; an element with more than one key is not a call
 * (`call_invalid`); a missing `<|tools_suffix|>` keeps the calls (`call_unclosed`).
 *
 * @example
 * apertus.parse('Let me check. <|tools_prefix|>[{"get_weather": {"city": "Paris"}}]<|tools_suffix|>');
 * // { content: "Let me check. ", toolCalls: [{ function: { name: "get_weather", arguments: '{"city": "Paris"}' }, … }], … }
 */
export const apertus: ToolCallSyntax = defineSyntax({
  id: "apertus",
  name: 'Apertus (<|tools_prefix|>[{"NAME": {…}}]<|tools_suffix|>)',
  startMarkers: [APERTUS_TOOLS_PREFIX],
  plain: plainCheck(APERTUS_TOOLS_PREFIX, [APERTUS_INNER.open]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [APERTUS_TOOLS_PREFIX],
      reasoning: APERTUS_INNER,
      onCall: (marker, channel) =>
        readListAfterMarker(reader, out, context, { marker, channel, item: ITEM, close: SUFFIX }),
    });
  },
  encode: encodeApertus,
});
