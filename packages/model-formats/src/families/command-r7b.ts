import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsJson, pythonJsonText } from "../engine/arguments.js";
import { readListAfterMarker } from "../engine/call-list.js";
import { defineSyntax } from "../engine/define-syntax.js";
import { MarkerSet } from "../engine/marker-set.js";
import { plainCheck, type ReasoningSyntax, type ResponseSyntax, textLoop } from "../engine/text-loop.js";

export const COMMAND_START_ACTION = "<|START_ACTION|>";
export const COMMAND_END_ACTION = "<|END_ACTION|>";
/** Command R7B's reasoning markers, `<|START_THINKING|>` … `<|END_THINKING|>`. */
export const COMMAND_THINKING: ReasoningSyntax = {
  open: "<|START_THINKING|>",
  close: "<|END_THINKING|>",
  lead: "",
  trail: "",
  after: "",
  before: "",
};
/** Command R7B's answer markers, `<|START_RESPONSE|>` … `<|END_RESPONSE|>`. */
export const COMMAND_RESPONSE: ResponseSyntax = {
  open: "<|START_RESPONSE|>",
  close: "<|END_RESPONSE|>",
  lead: "",
  trail: "",
};
const END_ACTION = new MarkerSet([COMMAND_END_ACTION]);
const ITEM = {
  separator: "",
  nameKeys: ["tool_name", "name"],
  argumentKeys: ["parameters", "arguments"],
  idKey: "tool_call_id",
} as const;

/**
 * Writes calls as a Command template renders its action: `<|START_ACTION|>[`, per call
 * `    {"tool_call_id": "ID", "tool_name": "NAME", "parameters": {…}}`, then `]<|END_ACTION|>`, with `newline` after
 * `[`, after each `,` and before `]` (Command R7B's template writes `\n` there, Command A's nothing). The template
 * numbers the calls of a conversation itself; a call keeps its id when it is such a number, else gets its index.
 */
export function encodeCommandAction(calls: readonly EncodableToolCall[], newline: string): string {
  const items = calls.map((call, index) => {
    const id = typeof call.id === "string" && /^\d+$/.test(call.id) ? call.id : String(index);
    return `    {"tool_call_id": "${id}", "tool_name": ${pythonJsonText(call.function.name)}, "parameters": ${argumentsJson(call)}}`;
  });
  return `${COMMAND_START_ACTION}[${newline}${items.join(`,${newline}`)}${newline}]${COMMAND_END_ACTION}`;
}

/** A Command family: R7B's grammar and reader (one for every Command model), with its own id, name and encoder. */
export function defineCommandSyntax(options: {
  id: string;
  name: string;
  encode: (calls: readonly EncodableToolCall[]) => string;
}): ToolCallSyntax {
  return defineSyntax({
    id: options.id,
    name: options.name,
    startMarkers: [COMMAND_START_ACTION],
    plain: plainCheck(COMMAND_START_ACTION, [COMMAND_THINKING.open, COMMAND_RESPONSE.open]),
    *run(reader, out, context) {
      yield* textLoop(reader, out, context, {
        callMarkers: [COMMAND_START_ACTION],
        reasoning: COMMAND_THINKING,
        response: COMMAND_RESPONSE,
        onCall: (marker, channel) =>
          readListAfterMarker(reader, out, context, { marker, channel, item: ITEM, close: END_ACTION }),
      });
    },
    encode: options.encode,
  });
}

/**
 * Encodes calls as Command R7B's template renders them: `<|START_ACTION|>[\n`, per call
 * `    {"tool_call_id": "ID", "tool_name": "NAME", "parameters": {…}}` (joined by `,\n`), then `\n]<|END_ACTION|>`.
 * The template numbers the calls of a conversation itself; a call keeps its id when it is such a number, else gets
 * its index in `calls`. (The template writes `<|START_THINKING|>…<|END_THINKING|>` before the action: reasoning,
 * not part of the calls.)
 *
 * @example
 * encodeCommandR7b([{ function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } }]);
 * // '<|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Tokyo"}}\n]<|END_ACTION|>'
 */
export function encodeCommandR7b(calls: readonly EncodableToolCall[]): string {
  return encodeCommandAction(calls, "\n");
}

/**
 * Cohere Command R7B: `<|START_THINKING|>…<|END_THINKING|><|START_ACTION|>[{"tool_call_id": "0", "tool_name": …,
 * "parameters": {…}}, …]<|END_ACTION|>`, or an answer in `<|START_RESPONSE|>…<|END_RESPONSE|>`.
 *
 * Rules: `tool_call_id` is the call's id (the template numbers calls across the conversation); `tool_name` (or
 * `name`) names it and `parameters` (or `arguments`) keeps the model's bytes; a missing `<|END_ACTION|>` keeps the
 * calls (`call_unclosed`); the response markers are syntax where the answer begins (the start of the text, or after
 * the thinking block), so `content` is the answer's text.
 *
 * @example
 * commandR7b.parse('<|START_THINKING|>I will look it up.<|END_THINKING|><|START_ACTION|>[\n    {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Tokyo"}}\n]<|END_ACTION|>').toolCalls[0];
 * // { id: "0", type: "function", function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }
 */
export const commandR7b: ToolCallSyntax = defineCommandSyntax({
  id: "command-r7b",
  name: "Command R7B (<|START_ACTION|>[…]<|END_ACTION|>)",
  encode: encodeCommandR7b,
});
