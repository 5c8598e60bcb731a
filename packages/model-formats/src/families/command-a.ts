import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { defineCommandSyntax, encodeCommandAction } from "./command-r7b.js";

/**
 * Encodes calls as Command A's template renders them (transformers trims the newline after each block tag):
 * `<|START_ACTION|>[`, per call `    {"tool_call_id": "ID", "tool_name": "NAME", "parameters": {…}}` (joined by `,`),
 * then `]<|END_ACTION|>`. The template numbers the calls of a conversation itself; a call keeps its id when it is such
 * a number, else gets its index in `calls`. The plan the template writes before the action
 * (`<|START_THINKING|>tool_plan<|END_THINKING|>`) is the turn's reasoning, not part of the calls: this is the action
 * the template writes alone when reasoning is off.
 *
 * @example
 * encodeCommandA([{ function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } }]);
 * // '<|START_ACTION|>[    {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Tokyo"}}]<|END_ACTION|>'
 */
export function encodeCommandA(calls: readonly EncodableToolCall[]): string {
  return encodeCommandAction(calls, "");
}

/**
 * Cohere Command A (`CohereLabs/command-a-reasoning-08-2025`, tool use and reasoning):
 * `<|START_THINKING|>plan<|END_THINKING|><|START_ACTION|>[    {"tool_call_id": "0", "tool_name": …, "parameters":
 * {…}}]<|END_ACTION|>`, or `<|START_THINKING|>…<|END_THINKING|><|START_RESPONSE|>answer<|END_RESPONSE|>`.
 *
 * Rules: Command R7B's grammar (the same reader: ids, names, `parameters` kept byte for byte, `call_unclosed` without
 * `<|END_ACTION|>`, the response markers as syntax); the thinking before an action is the turn's reasoning, which
 * the template takes back as `tool_plan`; citation spans (`<co>…</co: 0:[1]>`) stay in the text. Only the encoder
 * differs: the template writes the list without the newlines Command R7B's writes.
 *
 * @example
 * commandA.parse('<|START_THINKING|>Look it up.<|END_THINKING|><|START_ACTION|>[    {"tool_call_id": "0", "tool_name": "get_weather", "parameters": {"city": "Tokyo"}}]<|END_ACTION|>').reasoning;
 * // "Look it up."
 */
export const commandA: ToolCallSyntax = defineCommandSyntax({
  id: "command-a",
  name: "Command A (<|START_ACTION|>[…]<|END_ACTION|>)",
  encode: encodeCommandA,
});
