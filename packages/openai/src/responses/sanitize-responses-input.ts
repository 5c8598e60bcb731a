import { type ChatMessage, type SanitizeChange, sanitizeHistory, type ToolCall } from "@toolcall/core";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { type OpenAIRepairOptions, sanitizeOptionsOf } from "../options.js";

/** The input item (or items) a neutral message or call was made from; object spread carries it along. */
const SOURCE = Symbol("toolcall.openai.source");

type Sourced = { [SOURCE]?: ResponseInputItem };
type FunctionCallItem = Extract<ResponseInputItem, { type: "function_call" }>;
type OutputItem = Extract<ResponseInputItem, { type: "function_call_output" }>;

function typeOf(item: ResponseInputItem): string {
  return (item as { type?: string }).type ?? "message";
}

/**
 * Builds core's neutral view: calls grouped into assistant turns, outputs as tool messages, the rest opaque. A
 * stored call's item id is `extra_content.openai.item_id`, and the reasoning item right before a group is named in
 * the group's `reasoning_details` (as core's `openai-responses` profile reads them); the item itself stays opaque.
 */
function toNeutral(items: readonly ResponseInputItem[]): { neutral: ChatMessage[]; itemIndex: number[] } {
  const neutral: ChatMessage[] = [];
  const itemIndex: number[] = [];
  let group: ChatMessage | undefined;
  items.forEach((item, index) => {
    const type = typeOf(item);
    if (type === "function_call") {
      const call = item as FunctionCallItem;
      const toolCall: ToolCall & Sourced = {
        id: call.call_id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
        ...(typeof call.id === "string" && call.id !== ""
          ? { extra_content: { openai: { item_id: call.id } } }
          : {}),
        [SOURCE]: item,
      };
      if (group === undefined) {
        const before = items[index - 1] as { type?: string; id?: unknown } | undefined;
        group = { role: "assistant", content: null, tool_calls: [] };
        if (before?.type === "reasoning")
          group.reasoning_details = [
            { type: "reasoning.encrypted", id: before.id, format: "openai-responses-v1" },
          ];
        neutral.push(group);
        itemIndex.push(index);
      }
      (group.tool_calls as ToolCall[]).push(toolCall);
      return;
    }
    group = undefined;
    itemIndex.push(index);
    if (type === "function_call_output") {
      const output = item as OutputItem;
      neutral.push({
        role: "tool",
        tool_call_id: output.call_id,
        content: output.output,
        [SOURCE]: item,
      } as ChatMessage);
    } else if (type === "message" && (item as { role?: string }).role === "assistant") {
      // An assistant turn boundary for pairing; its content is not core's business, so it is never empty here.
      neutral.push({ role: "assistant", content: "(message)", [SOURCE]: item } as ChatMessage);
    } else {
      neutral.push({ role: "item", [SOURCE]: item } as ChatMessage);
    }
  });
  return { neutral, itemIndex };
}

function fromNeutral(neutral: readonly ChatMessage[]): ResponseInputItem[] {
  const items: ResponseInputItem[] = [];
  for (const message of neutral) {
    const source = (message as Sourced)[SOURCE];
    if (Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls as Array<ToolCall & Sourced>) {
        const original = call[SOURCE] as FunctionCallItem;
        const args = call.function?.arguments as string;
        const id = call.id as string;
        // A provider fix may have left the stored item id out (no reasoning item to go with it).
        const hadItemId = typeof original.id === "string" && original.id !== "";
        const keepsItemId = !hadItemId || call.extra_content !== undefined;
        if (original.arguments === args && original.call_id === id && keepsItemId) {
          items.push(original);
        } else {
          const { id: _itemId, ...rest } = original;
          items.push(
            keepsItemId
              ? { ...original, call_id: id, arguments: args }
              : { ...rest, call_id: id, arguments: args },
          );
        }
      }
    } else if (message.role === "tool") {
      const original = source as OutputItem | undefined;
      const id = message.tool_call_id as string;
      const output = message.content as OutputItem["output"];
      if (original === undefined) items.push({ type: "function_call_output", call_id: id, output });
      else
        items.push(
          original.call_id === id && original.output === output
            ? original
            : { ...original, call_id: id, output },
        );
    } else if (source !== undefined) {
      items.push(source);
    }
  }
  return items;
}

/**
 * Sanitizes Responses API input before it is sent (R4), so a poisoned history never reaches a strict provider:
 * `function_call` arguments made valid, each call paired with exactly one `function_call_output` by `call_id`,
 * orphan outputs dropped, missing ones synthesized. Items that are not function calls or their outputs pass through
 * untouched; the same array comes back when nothing needs fixing.
 *
 * @example
 * const { input } = sanitizeResponsesInput(items, { repairs: coreRepairs });
 * await client.responses.create({ model, input, tools });
 */
export function sanitizeResponsesInput<I extends string | readonly ResponseInputItem[]>(
  input: I,
  options: OpenAIRepairOptions = {},
): { input: I; changes: SanitizeChange[] } {
  if (typeof input === "string" || !Array.isArray(input)) return { input, changes: [] };
  const { neutral, itemIndex } = toNeutral(input as readonly ResponseInputItem[]);
  const result = sanitizeHistory(neutral, sanitizeOptionsOf(options));
  if (result.changes.length === 0) return { input, changes: [] };
  // Changes name the input item: for a call, the first function_call item of its group.
  const changes = result.changes.map((change) => ({
    ...change,
    messageIndex: itemIndex[change.messageIndex] as number,
  }));
  for (const change of changes)
    options.onRepair?.({ kind: "history", api: "responses", source: "request", change });
  return { input: fromNeutral(result.messages) as unknown as I, changes };
}
