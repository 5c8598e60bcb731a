import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { nameAndArgumentsJson } from "../engine/arguments.js";
import { readListAfterMarker } from "../engine/call-list.js";
import { defineSyntax } from "../engine/define-syntax.js";
import { MarkerSet } from "../engine/marker-set.js";
import { plainCheck, type ReasoningSyntax, type ResponseSyntax, textLoop } from "../engine/text-loop.js";

export const TOOL_CALLS_OPEN = "<tool_calls>";
export const TOOL_CALLS_CLOSE = "</tool_calls>";
/** The prefix Hunyuan's template writes before an answer with no call ("Assistant:"). */
export const HUNYUAN_ANSWER_PREFIX = "助手：";
const CLOSE = new MarkerSet([TOOL_CALLS_CLOSE]);
const ITEM = { separator: "", argumentKeys: ["arguments", "parameters"] } as const;
const HUNYUAN_THINK: ReasoningSyntax = {
  open: "<think>",
  close: "</think>",
  lead: "\n",
  trail: "\n",
  after: "\n",
  before: "",
};
const HUNYUAN_ANSWER: ResponseSyntax = { open: "<answer>", close: "</answer>", lead: "\n", trail: "\n" };
const PREFIX = new MarkerSet([HUNYUAN_ANSWER_PREFIX]);

const item = nameAndArgumentsJson;

/**
 * Encodes calls as Hunyuan-A13B's template renders them: `<tool_calls>[{"name": "NAME", "arguments": {…}}, …]</tool_calls>`.
 *
 * @example
 * encodeHunyuan([{ function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } }]);
 * // '<tool_calls>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]</tool_calls>'
 */
export function encodeHunyuan(calls: readonly EncodableToolCall[]): string {
  return `${TOOL_CALLS_OPEN}[${calls.map(item).join(", ")}]${TOOL_CALLS_CLOSE}`;
}

/**
 * Encodes calls as Jamba writes them (the shape of vLLM's `jamba` parser tests, one call per line):
 * `<tool_calls>[\n    {"name": "NAME", "arguments": {…}},\n    …\n]</tool_calls>`.
 *
 * @example
 * encodeJamba([{ function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } }]);
 * // '<tool_calls>[\n    {"name": "get_weather", "arguments": {"city": "Tokyo"}}\n]</tool_calls>'
 */
export function encodeJamba(calls: readonly EncodableToolCall[]): string {
  return `${TOOL_CALLS_OPEN}[\n${calls.map((call) => `    ${item(call)}`).join(",\n")}\n]${TOOL_CALLS_CLOSE}`;
}

/**
 * Tencent Hunyuan-A13B: `<tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>` after any content; reasoning in
 * `<think>\n…\n</think>\n`, the answer in `<answer>\n…\n</answer>`; the template writes `助手：` before an answer
 * with no call.
 *
 * Rules: each element's arguments object keeps the model's bytes; `助手：` where the content begins is syntax (vLLM
 * drops it too); the `<answer>` wrapper is syntax where the content begins; a missing `</tool_calls>` keeps the
 * calls (`call_unclosed`). A call inside `<think>` is read as a call (`call_in_reasoning`; vLLM leaves it in the
 * text).
 *
 * @example
 * hunyuan.parse('<tool_calls>[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]</tool_calls>').toolCalls[0].function;
 * // { name: "get_weather", arguments: '{"city": "Tokyo"}' }
 */
export const hunyuan: ToolCallSyntax = defineSyntax({
  id: "hunyuan",
  name: "Hunyuan-A13B (<tool_calls>[…]</tool_calls>)",
  startMarkers: [TOOL_CALLS_OPEN],
  plain: plainCheck(TOOL_CALLS_OPEN, [HUNYUAN_THINK.open, HUNYUAN_ANSWER.open, HUNYUAN_ANSWER_PREFIX]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [TOOL_CALLS_OPEN],
      reasoning: HUNYUAN_THINK,
      response: HUNYUAN_ANSWER,
      *atStart() {
        out.text("content", yield* reader.space());
        const prefix = yield* reader.peek(PREFIX);
        if (prefix === null) return;
        reader.consume(prefix.length);
        out.separator("content", "");
        reader.journalCommit();
      },
      onCall: (marker, channel) =>
        readListAfterMarker(reader, out, context, { marker, channel, item: ITEM, close: CLOSE }),
    });
  },
  encode: encodeHunyuan,
});

/**
 * AI21 Jamba 1.5 / 1.6 / 1.7: `<tool_calls>[{"name": …, "arguments": {…}}, …]</tool_calls>` (special tokens), after any
 * content. Rules as {@link hunyuan}, with no reasoning block.
 *
 * @example
 * jamba.parse('Sure!<tool_calls>[\n    {"name": "get_weather", "arguments": {"city": "Dallas"}}\n]</tool_calls>').content;
 * // "Sure!"
 */
export const jamba: ToolCallSyntax = defineSyntax({
  id: "jamba",
  name: "Jamba (<tool_calls>[…]</tool_calls>)",
  startMarkers: [TOOL_CALLS_OPEN],
  plain: plainCheck(TOOL_CALLS_OPEN, []),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [TOOL_CALLS_OPEN],
      onCall: (marker, channel) =>
        readListAfterMarker(reader, out, context, { marker, channel, item: ITEM, close: CLOSE }),
    });
  },
  encode: encodeJamba,
});
