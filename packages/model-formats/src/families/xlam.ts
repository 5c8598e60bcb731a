import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { nameAndArgumentsJson } from "../engine/arguments.js";
import { readUnopenedList } from "../engine/call-list.js";
import { defineSyntax } from "../engine/define-syntax.js";
import { MarkerSet } from "../engine/marker-set.js";
import { plainCheck, THINK, textLoop } from "../engine/text-loop.js";

/** A list of calls, or the empty list the template writes for a turn with no call and no text. */
const LIST_START = new MarkerSet(["[{", "[ {", "[\n{", "[]"]);
/** A Markdown code fence around the list (vLLM's `xlam` parser reads it). */
const FENCE = new MarkerSet(["```json\n", "```json ", "```\n"]);
const FENCE_CLOSE = new MarkerSet(["```"]);
const ITEM = { separator: "", argumentKeys: ["arguments", "parameters"] } as const;

/**
 * Encodes calls as the xLAM-2 templates render them: `[{"name": "NAME", "arguments": {…}}, …]`.
 *
 * @example
 * encodeXlam([{ function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } }]);
 * // '[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]'
 */
export function encodeXlam(calls: readonly EncodableToolCall[]): string {
  const items = calls.map(nameAndArgumentsJson);
  return `[${items.join(", ")}]`;
}

/**
 * Salesforce xLAM (xLAM-2 on Llama and Qwen): the answer is a bare JSON list of calls,
 * `[{"name": …, "arguments": {…}}, …]`, with no marker; `[]` is a turn with no call.
 *
 * Rules: a list of calls is read where the content begins (the start of the text, or after a `<think>` block), bare
 * or in a Markdown code fence (`` ```json ``), and only whole: a list that is not complete, or whose elements are not
 * all calls, is content, exactly as written, and so is any list later in the text (prose can quote JSON); the
 * arguments object keeps the model's bytes; any white space may follow `[` (a list written with `indent`). The calls
 * are announced once the list is complete.
 *
 * @example
 * xlam.parse('[{"name": "get_weather", "arguments": {"city": "Tokyo"}}]').toolCalls[0].function;
 * // { name: "get_weather", arguments: '{"city": "Tokyo"}' }
 */
export const xlam: ToolCallSyntax = defineSyntax({
  id: "xlam",
  name: "xLAM (a bare JSON list of calls)",
  startMarkers: ["[", "```"],
  // No marker to scan for: only the first characters can start a call.
  plain: plainCheck(null, ["[", "```json", "```\n", THINK.open]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [],
      reasoning: THINK,
      *atStart() {
        out.text("content", yield* reader.space());
        reader.journalCommit();
        const fence = yield* reader.peek(FENCE);
        if (fence === null) {
          yield* readUnopenedList(reader, out, context, {
            item: ITEM,
            issue: null,
            start: LIST_START,
            spaced: true,
          });
          return;
        }
        const prefix = reader.consume(fence.length);
        const read = yield* readUnopenedList(reader, out, context, {
          item: ITEM,
          issue: null,
          start: LIST_START,
          prefix,
          spaced: true,
        });
        if (!read) return;
        const space = yield* reader.space();
        const close = yield* reader.peek(FENCE_CLOSE);
        if (close !== null) reader.consume(close.length);
        else out.text("content", space);
      },
      onCall: function* () {},
    });
  },
  encode: encodeXlam,
});
