import type { ChatMessage, ToolCall } from "@toolcall/core";
import { isFunctionCall, isPlainObject } from "@toolcall/core/kit";
import { getTag, NEUTRAL_ORIGIN, setTag } from "./origin.js";
import { sameValue } from "./same-value.js";
import { inputOfArguments } from "./tool-call-input.js";
import { outputOfContent } from "./tool-result-content.js";

/** `messages`: `ModelMessage`s (string content allowed); `prompt`: a model call's prompt (content always a list). */
export type MessageForm = "messages" | "prompt";

interface FreshContext {
  form: MessageForm;
  /** The name of the call a tool message answers (tool results carry it in the AI SDK). */
  toolName?: string;
}

interface NeutralOriginTag extends FreshContext {
  message: ChatMessage;
}

/** AI SDK parts of neutral content: text (OpenAI text parts share the AI SDK's shape), other parts as they are. */
export function partsOfContent(content: unknown): unknown[] {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  return content.map((part: unknown) =>
    isPlainObject(part) && part.type === "text" ? { type: "text", text: part.text } : part,
  );
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => (isPlainObject(part) && typeof part.text === "string" ? part.text : ""))
    .join("");
}

/** The AI SDK tool-call part of a neutral call. */
export function toolCallPartOf(call: ToolCall): Record<string, unknown> {
  const fn = isPlainObject(call.function) ? call.function : {};
  const part: Record<string, unknown> = {
    type: "tool-call",
    toolCallId: call.id,
    toolName: fn.name,
    input: inputOfArguments(fn.arguments),
  };
  const extra = call.extra_content;
  if (isPlainObject(extra) && isPlainObject(extra.google) && extra.google.thought_signature !== undefined) {
    part.providerOptions = { google: { thoughtSignature: extra.google.thought_signature } };
  }
  return part;
}

function build(message: ChatMessage, context: FreshContext): unknown {
  switch (message.role) {
    case "system":
    case "developer":
      return { role: "system", content: textOf(message.content) };
    case "user":
      if (typeof message.content === "string" && context.form === "messages")
        return { role: "user", content: message.content };
      return {
        role: "user",
        content:
          typeof message.content === "string"
            ? [{ type: "text", text: message.content }]
            : partsOfContent(message.content),
      };
    case "assistant": {
      const calls = Array.isArray(message.tool_calls) ? message.tool_calls : [];
      const reasoning = message.reasoning_content;
      if (
        context.form === "messages" &&
        calls.length === 0 &&
        typeof reasoning !== "string" &&
        typeof message.content === "string"
      )
        return { role: "assistant", content: message.content };
      const parts: unknown[] = [];
      if (typeof reasoning === "string") parts.push({ type: "reasoning", text: reasoning });
      parts.push(...partsOfContent(message.content));
      for (const call of calls) {
        if (isPlainObject(call) && isFunctionCall(call as ToolCall))
          parts.push(toolCallPartOf(call as ToolCall));
      }
      return { role: "assistant", content: parts };
    }
    case "tool":
      return {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: message.tool_call_id,
            toolName: context.toolName ?? "",
            output: outputOfContent(message.content),
          },
        ],
      };
    default:
      return message;
  }
}

/**
 * The AI SDK message of a neutral message that came from no AI SDK message: `system` (and `developer`) → system,
 * `user` → user, `assistant` → reasoning, text and tool-call parts (input: see `inputOfArguments`), `tool` → a tool
 * message with one result. Other roles have no AI SDK form and pass through. The result remembers the neutral
 * message, so converting it back unchanged gives that very message (every field, arguments byte for byte).
 */
export function freshFromNeutral(message: ChatMessage, context: FreshContext): unknown {
  const built = build(message, context);
  if (built !== message && isPlainObject(built)) {
    setTag(built, NEUTRAL_ORIGIN, { ...context, message } satisfies NeutralOriginTag, false);
  }
  return built;
}

/** The neutral message an AI SDK message was made from, when it has not changed since; otherwise `undefined`. */
export function unchangedNeutral(message: Record<string, unknown>): ChatMessage | undefined {
  const origin = getTag<NeutralOriginTag>(message, NEUTRAL_ORIGIN);
  if (origin === undefined || !isPlainObject(origin.message)) return undefined;
  return sameValue(build(origin.message, origin), message) ? origin.message : undefined;
}
