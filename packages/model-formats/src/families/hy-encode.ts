import type { EncodableToolCall } from "@toolcall/core/kit";
import { argumentsMapping, pythonJsonText } from "../engine/arguments.js";

/** The suffix the published Hy3 and Hy4-preview checkpoints put on their structural tokens (`<tool_calls:opensource>`). */
export const HY_SUFFIX = ":opensource";

/** The structural tags of one checkpoint's spelling (`suffix` `""`: Hy3-preview's unsuffixed tokens). */
export interface HyTags {
  suffix: string;
  callsOpen: string;
  callsClose: string;
  callOpen: string;
  callClose: string;
  sep: string;
  keyOpen: string;
  keyClose: string;
  valueOpen: string;
  valueClose: string;
  thinkOpen: string;
  thinkClose: string;
}

/**
 * The tags as a checkpoint with this token suffix writes them.
 *
 * @example
 * hyTags(":opensource").callOpen; // "<tool_call:opensource>"
 */
export function hyTags(suffix: string): HyTags {
  const tag = (name: string) => `<${name}${suffix}>`;
  return {
    suffix,
    callsOpen: tag("tool_calls"),
    callsClose: tag("/tool_calls"),
    callOpen: tag("tool_call"),
    callClose: tag("/tool_call"),
    sep: tag("tool_sep"),
    keyOpen: tag("arg_key"),
    keyClose: tag("/arg_key"),
    valueOpen: tag("arg_value"),
    valueClose: tag("/arg_value"),
    thinkOpen: tag("think"),
    thinkClose: tag("/think"),
  };
}

/** A value as Hy's templates write it: strings as they are, anything else as `json.dumps(ensure_ascii=False)`. */
function hyValue(value: unknown): string {
  return typeof value === "string" ? value : pythonJsonText(value);
}

/**
 * Encodes calls as Hy3's template renders them (`tencent/Hy3`, tokens suffixed `:opensource`):
 * `<tool_calls>\n`, per call `<tool_call>NAME<tool_sep>\n` and per argument
 * `<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n`, then `</tool_call>\n`, and `</tool_calls>`.
 *
 * @example
 * encodeHyV3([{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }], { suffix: "" });
 * // "<tool_calls>\n<tool_call>get_weather<tool_sep>\n<arg_key>city</arg_key>\n<arg_value>Tokyo</arg_value>\n</tool_call>\n</tool_calls>"
 */
export function encodeHyV3(calls: readonly EncodableToolCall[], options?: { suffix?: string }): string {
  const t = hyTags(options?.suffix ?? HY_SUFFIX);
  const body = calls
    .map((call) => {
      const pairs = Object.entries(argumentsMapping(call))
        .map(([k, v]) => `${t.keyOpen}${k}${t.keyClose}\n${t.valueOpen}${hyValue(v)}${t.valueClose}\n`)
        .join("");
      return `${t.callOpen}${call.function.name}${t.sep}\n${pairs}${t.callClose}\n`;
    })
    .join("");
  return `${t.callsOpen}\n${body}${t.callsClose}`;
}

/**
 * Encodes calls as Hy4-preview writes them (vLLM's tests of its `hy_v4` parser, which mirror that checkpoint's
 * tokens): no `<tool_sep>` and no whitespace inside a call, `<tool_calls>\n`, per call
 * `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>…</tool_call>\n`, then `</tool_calls>`.
 *
 * @example
 * encodeHyV4([{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }], { suffix: "" });
 * // "<tool_calls>\n<tool_call>get_weather<arg_key>city</arg_key><arg_value>Tokyo</arg_value></tool_call>\n</tool_calls>"
 */
export function encodeHyV4(calls: readonly EncodableToolCall[], options?: { suffix?: string }): string {
  const t = hyTags(options?.suffix ?? HY_SUFFIX);
  const body = calls
    .map((call) => {
      const pairs = Object.entries(argumentsMapping(call))
        .map(([k, v]) => `${t.keyOpen}${k}${t.keyClose}${t.valueOpen}${hyValue(v)}${t.valueClose}`)
        .join("");
      return `${t.callOpen}${call.function.name}${pairs}${t.callClose}\n`;
    })
    .join("");
  return `${t.callsOpen}\n${body}${t.callsClose}`;
}
