import type { ToolCallSyntax } from "@toolcall/core/kit";
import { isPlainObject } from "@toolcall/core/kit";
import { type RecoveredToolUse, TextBlockCalls, type TextBlockStep } from "./text-block-calls.js";

export type { RecoveredToolUse } from "./text-block-calls.js";

/** What {@link recoverMessageContentCalls} made of a message. */
export interface MessageContentCalls {
  /** The message with its calls as `tool_use` blocks; the same object when none was found. */
  message: unknown;
  calls: RecoveredToolUse[];
}

/**
 * The calls a server left in a whole Messages API answer's `text` blocks, read by core's `ContentCallReader` in each
 * syntax (R10: only what a syntax reads without doubt), as `tool_use` blocks with fresh ids where the calls were:
 * the text before a call stays a `text` block before it, the text after one after it (a stretch left blank is
 * dropped), text a syntax marks as reasoning becomes a `thinking` block. It is what a streamed answer becomes
 * (`MessagesStreamRepair` reads each text block with the same `TextBlockCalls`). `stop_reason: "end_turn"` becomes
 * `"tool_use"` when a call was found. Anything that is not a message, and a message without calls, comes back as
 * it is.
 *
 * @example
 * import { qwen3Coder } from "@toolcall/model-formats";
 * const text = "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>";
 * const found = recoverMessageContentCalls({ message: { type: "message", content: [{ type: "text", text }] }, syntaxes: [qwen3Coder] });
 * found.calls[0]?.name; // "get_weather"
 */
export function recoverMessageContentCalls(args: {
  message: unknown;
  syntaxes: readonly ToolCallSyntax[];
  /** The request's tools (Messages API `tools`): a syntax that carries values as text types them by schema. */
  tools?: readonly unknown[] | null;
}): MessageContentCalls {
  const { message } = args;
  if (!isPlainObject(message) || !Array.isArray(message.content) || args.syntaxes.length === 0)
    return { message, calls: [] };
  const calls: RecoveredToolUse[] = [];
  const content: unknown[] = [];
  let changed = false;
  for (const block of message.content as unknown[]) {
    if (!isPlainObject(block) || block.type !== "text" || typeof block.text !== "string") {
      content.push(block);
      continue;
    }
    const reader = new TextBlockCalls({ syntaxes: args.syntaxes, tools: args.tools, block });
    const steps = [...reader.push(block.text), ...reader.end()];
    if (!reader.changed) {
      content.push(block);
      continue;
    }
    changed = true;
    blocksOf({ steps, content, calls });
  }
  if (!changed) return { message, calls };
  if (calls.length === 0) return { message: { ...message, content }, calls };
  const stopReason = message.stop_reason === "end_turn" ? "tool_use" : message.stop_reason;
  return { message: { ...message, content, stop_reason: stopReason }, calls };
}

/** The blocks a text block's steps add up to, appended to `content` (a `tool_use` block's input parsed once whole). */
function blocksOf(args: {
  steps: readonly TextBlockStep[];
  content: unknown[];
  calls: RecoveredToolUse[];
}): void {
  const base = args.content.length;
  let input = "";
  for (const step of args.steps) {
    if (step.type === "start") {
      args.content.push({ ...step.block });
      if (step.call !== undefined) args.calls.push({ index: base + step.sub, ...step.call });
      input = "";
    } else if (step.type === "delta") {
      const block = args.content[base + step.sub] as Record<string, unknown>;
      const { delta } = step;
      if (delta.type === "text_delta") block.text = `${block.text}${delta.text}`;
      else if (delta.type === "thinking_delta") block.thinking = `${block.thinking}${delta.thinking}`;
      else if (delta.type === "input_json_delta") input += delta.partial_json;
    } else {
      const block = args.content[base + step.sub] as Record<string, unknown>;
      if (block.type === "tool_use") block.input = JSON.parse(input);
    }
  }
}
