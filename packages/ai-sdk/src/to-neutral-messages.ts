import type { ChatMessage, ToolCall } from "@toolcall/core";
import { isPlainObject } from "@toolcall/core/kit";
import type { ModelMessage } from "ai";
import { unchangedNeutral } from "./fresh-from-neutral.js";
import {
  AI_SDK_ORIGIN,
  AI_SDK_PART,
  type AiSdkOrigin,
  CarriedMessage,
  getTag,
  NEUTRAL_ORIGIN,
  setTag,
} from "./origin.js";
import { argumentsOfInput } from "./tool-call-input.js";
import { contentOfOutput } from "./tool-result-content.js";

type Part = Record<string, unknown>;

/** The thought signature `@ai-sdk/openai-compatible` sends with a call (`providerOptions.google.thoughtSignature`). */
export function thoughtSignatureOf(providerOptions: unknown): unknown {
  if (!isPlainObject(providerOptions) || !isPlainObject(providerOptions.google)) return undefined;
  return providerOptions.google.thoughtSignature;
}

/** How neutral entries are made: tags enumerable (they survive copies), and text inputs read as sanitizers read them. */
export interface NeutralTags {
  enumerable: boolean;
  /** See `argumentsOfInput`. */
  textAsMapping?: boolean;
}

/** The neutral call of a tool-call part, tagged with the part's index when `tags` says so. */
export function neutralCallOf(part: Part, index: number, tags?: NeutralTags): ToolCall {
  const args = argumentsOfInput(part.input, { textAsMapping: tags?.textAsMapping === true });
  const fn: Record<string, unknown> = { name: part.toolName };
  if (args !== undefined) fn.arguments = args;
  const call: ToolCall = { id: part.toolCallId, type: "function", function: fn };
  const signature = thoughtSignatureOf(part.providerOptions);
  if (signature !== undefined) call.extra_content = { google: { thought_signature: signature } };
  if (tags !== undefined) setTag(call, AI_SDK_PART, index, tags.enumerable);
  return call;
}

/** The neutral message of an assistant message: text joined, reasoning joined, calls the client runs. */
export function neutralOfAssistant(message: Part, tags?: NeutralTags): ChatMessage {
  const content = message.content;
  if (!Array.isArray(content)) return { role: "assistant", content };
  let text = "";
  let reasoning: string | undefined;
  const calls: ToolCall[] = [];
  content.forEach((part: unknown, index) => {
    if (!isPlainObject(part)) return;
    if (part.type === "text" && typeof part.text === "string") text += part.text;
    else if (part.type === "reasoning" && typeof part.text === "string")
      reasoning = (reasoning ?? "") + part.text;
    // A call the provider ran has its result in this same message: it is the provider's, not the history's.
    else if (part.type === "tool-call" && part.providerExecuted !== true)
      calls.push(neutralCallOf(part, index, tags));
  });
  const neutral: ChatMessage = { role: "assistant", content: calls.length > 0 && text === "" ? null : text };
  if (reasoning !== undefined) neutral.reasoning_content = reasoning;
  if (calls.length > 0) neutral.tool_calls = calls;
  return neutral;
}

/** The neutral tool message of the result at `index` of a tool message's content. */
export function neutralOfToolResult(part: Part): ChatMessage {
  return { role: "tool", tool_call_id: part.toolCallId, content: contentOfOutput(part.output) };
}

function neutralOfContent(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  return content.map((part: unknown) =>
    isPlainObject(part) && part.type === "text" ? { type: "text", text: part.text } : part,
  );
}

/**
 * The neutral entries of one AI SDK message: one neutral message, one per tool result of a tool message, a
 * {@link CarriedMessage} for a tool message with no result (for a sanitizer), or the value itself when it is not an
 * AI SDK message. A message made by `fromNeutralMessages` and not changed since gives back the neutral message it
 * was made from.
 */
export function neutralEntriesOf(
  message: unknown,
  options: {
    enumerable: boolean;
    sanitizer: boolean;
    unchangedSince?: (message: Part) => ChatMessage | undefined;
  },
): unknown[] {
  if (!isPlainObject(message)) return [message];
  if (options.unchangedSince !== undefined && getTag(message, NEUTRAL_ORIGIN) !== undefined) {
    const neutral = options.unchangedSince(message);
    if (neutral !== undefined) return [neutral];
  }
  const tag = (neutral: ChatMessage, part?: number): ChatMessage => {
    const origin: AiSdkOrigin = {
      message,
      ...(part === undefined ? {} : { part }),
      sanitizer: options.sanitizer,
    };
    setTag(neutral, AI_SDK_ORIGIN, origin, options.enumerable);
    return neutral;
  };
  switch (message.role) {
    case "system":
      return [tag({ role: "system", content: message.content })];
    case "user":
      return [tag({ role: "user", content: neutralOfContent(message.content) })];
    case "assistant":
      return [
        tag(
          neutralOfAssistant(message, { enumerable: options.enumerable, textAsMapping: options.sanitizer }),
        ),
      ];
    case "tool": {
      const entries: unknown[] = [];
      if (Array.isArray(message.content)) {
        message.content.forEach((part: unknown, index) => {
          if (isPlainObject(part) && part.type === "tool-result")
            entries.push(tag(neutralOfToolResult(part), index));
        });
      }
      if (entries.length === 0 && options.sanitizer) entries.push(new CarriedMessage(message));
      return entries;
    }
    default:
      return [message];
  }
}

/**
 * AI SDK messages (`ModelMessage`s, or a model call's prompt) in core's neutral view, the OpenAI Chat Completions
 * shape, as `@ai-sdk/openai-compatible` would send them: an assistant message's text parts joined into `content`
 * (`null` beside calls when there is none), its reasoning parts into `reasoning_content`, its tool-call parts into
 * `tool_calls` (arguments: see {@link argumentsOfInput}; a Gemini thought signature into `extra_content`); each
 * tool result its own `tool` message (`content`: the output's text or JSON text). Calls a provider ran
 * (`providerExecuted`), approvals, files and provider options have no place there and stay with the AI SDK message:
 * {@link fromNeutralMessages} puts them back. A tool message of approval responses only has no neutral message.
 * Values that are not AI SDK messages pass through.
 *
 * @example
 * toNeutralMessages([
 *   { role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "weather", input: { city: "Paris" } }] },
 *   { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "weather", output: { type: "text", value: "sunny" } }] },
 * ]);
 * // [{ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: '{"city":"Paris"}' } }] },
 * //  { role: "tool", tool_call_id: "c1", content: "sunny" }]
 */
export function toNeutralMessages(messages: readonly ModelMessage[]): ChatMessage[] {
  if (!Array.isArray(messages)) return [];
  return toNeutralEntries(messages, { enumerable: false, sanitizer: false }) as ChatMessage[];
}

/** {@link toNeutralMessages} with the choices the sanitizers make: tags that survive copies, carried messages. */
export function toNeutralEntries(
  messages: readonly unknown[],
  options: { enumerable: boolean; sanitizer: boolean },
): unknown[] {
  const entries: unknown[] = [];
  for (const message of messages) {
    let converted: unknown[];
    try {
      converted = neutralEntriesOf(message, { ...options, unchangedSince: unchangedNeutral });
    } catch {
      // A message that cannot be read (a throwing getter, a revoked proxy) passes through as it is.
      converted = [message];
    }
    entries.push(...converted);
  }
  return entries;
}
