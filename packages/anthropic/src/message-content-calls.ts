import type { ToolCallSyntax } from "@toolcall/core/kit";
import { isPlainObject, randomCallId, readContentCalls } from "@toolcall/core/kit";

/** A call read from a whole message's `text` block, as the `tool_use` block it became. */
export interface RecoveredToolUse {
  /** The new block's index in the message's content. */
  index: number;
  /** The fresh `toolu_…` id it was given. */
  toolUseId: string;
  name: string;
  /** The syntax id the call was written in (`qwen3-coder`, `gemma4`, …). */
  syntax: string;
}

/** What {@link recoverMessageContentCalls} made of a message. */
export interface MessageContentCalls {
  /** The message with its calls as `tool_use` blocks; the same object when none was found. */
  message: unknown;
  calls: RecoveredToolUse[];
}

/** A fresh Messages API tool id: `toolu_` and 24 letters and digits, as core's `randomCallId` draws them. */
function freshToolUseId(): string {
  return `toolu_${randomCallId().slice("call_".length)}`;
}

/**
 * The calls a server left in a whole Messages API answer's `text` blocks, read by core's `readContentCalls` in each
 * syntax (R10: only what a syntax reads without doubt), as `tool_use` blocks with fresh ids placed right after the
 * text they came from; the text outside the calls stays (a block left blank is dropped). `stop_reason: "end_turn"`
 * becomes `"tool_use"` when a call was found. Anything that is not a message, and a message without calls, comes
 * back as it is.
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
  for (const block of message.content as unknown[]) {
    if (!isPlainObject(block) || block.type !== "text" || typeof block.text !== "string") {
      content.push(block);
      continue;
    }
    const read = readContentCalls({ text: block.text, syntaxes: args.syntaxes, tools: args.tools });
    const uses: Record<string, unknown>[] = [];
    for (const { toolCall, syntax } of read.calls) {
      let input: unknown;
      try {
        input = JSON.parse(toolCall.function.arguments);
      } catch {
        input = undefined;
      }
      // A syntax hands JSON object text; anything else is not a call this door can carry as a `tool_use` block.
      if (!isPlainObject(input)) continue;
      uses.push({ type: "tool_use", id: freshToolUseId(), name: toolCall.function.name, input, syntax });
    }
    if (uses.length === 0) {
      content.push(block);
      continue;
    }
    if (typeof read.content === "string" && read.content.trim() !== "")
      content.push({ ...block, text: read.content });
    for (const use of uses) {
      const { syntax, ...toolUse } = use;
      calls.push({
        index: content.length,
        toolUseId: toolUse.id as string,
        name: toolUse.name as string,
        syntax: syntax as string,
      });
      content.push(toolUse);
    }
  }
  if (calls.length === 0) return { message, calls };
  const stopReason = message.stop_reason === "end_turn" ? "tool_use" : message.stop_reason;
  return { message: { ...message, content, stop_reason: stopReason }, calls };
}
