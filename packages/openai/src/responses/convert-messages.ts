import { isPlainObject } from "@toolcall/core/kit";
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
} from "openai/resources/chat/completions";
import type { ResponseInputItem } from "openai/resources/responses/responses";
import { isChatFunctionCall } from "../chat/is-chat-function-call.js";

/** Items or messages one API has and the other cannot hold, with where they were. */
export interface Unconverted<T> {
  index: number;
  value: T;
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) =>
      part && typeof part === "object" && typeof (part as { text?: unknown }).text === "string"
        ? (part as { text: string }).text
        : "",
    )
    .join("");
}

function toInputParts(content: string | ChatCompletionContentPart[]): unknown {
  if (typeof content === "string") return content;
  return content.map((part) => {
    switch (part.type) {
      case "text":
        return { type: "input_text", text: part.text };
      case "image_url":
        return {
          type: "input_image",
          image_url: part.image_url.url,
          detail: part.image_url.detail ?? "auto",
        };
      default:
        return part;
    }
  });
}

function toChatParts(content: unknown): string | ChatCompletionContentPart[] {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((part) => {
    const p = part as { type?: string; text?: string; image_url?: string; detail?: string };
    if (p.type === "input_text" || p.type === "output_text") return { type: "text", text: p.text ?? "" };
    if (p.type === "input_image" && typeof p.image_url === "string") {
      return { type: "image_url", image_url: { url: p.image_url, detail: (p.detail ?? "auto") as "auto" } };
    }
    return part as ChatCompletionContentPart;
  });
}

/**
 * Chat Completions messages as Responses API input items, keeping call/result pairing (`tool_calls[].id` becomes
 * `call_id`, a tool message becomes a `function_call_output` with the same `call_id`). Arguments text is carried
 * as it is. A call without `type` beside a `function` is a function call (as core reads it). Legacy `function`
 * messages, assistant messages with a call that is neither a function call (with its `function`) nor a custom call,
 * and the tool results of such calls have no Responses form: they come back in `unconverted` (the other calls of
 * such a message are converted; an output that answers no call would be refused).
 *
 * @example
 * const { input } = chatMessagesToResponsesInput(messages);
 * await client.responses.create({ model, input, tools });
 */
export function chatMessagesToResponsesInput(messages: readonly ChatCompletionMessageParam[]): {
  input: ResponseInputItem[];
  unconverted: Unconverted<ChatCompletionMessageParam>[];
} {
  const input: ResponseInputItem[] = [];
  const unconverted: Unconverted<ChatCompletionMessageParam>[] = [];
  const skippedCalls = new Set<string>();
  messages.forEach((message, index) => {
    switch (message.role) {
      case "system":
      case "developer":
      case "user":
        input.push({
          type: "message",
          role: message.role,
          content: toInputParts(message.content as string),
        } as ResponseInputItem);
        break;
      case "assistant": {
        const text = textOf(message.content);
        if (text !== "" || !message.tool_calls?.length)
          input.push({ type: "message", role: "assistant", content: text });
        let unreadable = false;
        for (const call of message.tool_calls ?? []) {
          if (isChatFunctionCall(call) && isPlainObject(call.function)) {
            input.push({
              type: "function_call",
              call_id: call.id,
              name: call.function.name,
              arguments: call.function.arguments,
            });
          } else if (call?.type === "custom" && isPlainObject(call.custom)) {
            input.push({
              type: "custom_tool_call",
              call_id: call.id,
              name: call.custom.name,
              input: call.custom.input,
            });
          } else {
            unreadable = true;
            if (typeof call?.id === "string") skippedCalls.add(call.id);
          }
        }
        // A call that is neither a function (with its `function`) nor a custom call has no Responses form.
        if (unreadable) unconverted.push({ index, value: message });
        break;
      }
      case "tool":
        // The result of a call left out stays out too: an output that answers no call is refused.
        if (skippedCalls.has(message.tool_call_id)) {
          unconverted.push({ index, value: message });
          break;
        }
        input.push({
          type: "function_call_output",
          call_id: message.tool_call_id,
          output: toInputParts(message.content as string) as string,
        });
        break;
      case "function":
        unconverted.push({ index, value: message });
        break;
      default: {
        const never: never = message;
        unconverted.push({ index, value: never });
      }
    }
  });
  return { input, unconverted };
}

/**
 * Responses API input items as Chat Completions messages, keeping call/result pairing: consecutive
 * `function_call` items (with the assistant message before them) become one assistant message with `tool_calls`,
 * each `function_call_output` a tool message. Items Chat Completions cannot hold (reasoning, built-in tool calls)
 * come back in `unconverted`.
 *
 * @example
 * const { messages } = responsesInputToChatMessages(input);
 */
export function responsesInputToChatMessages(input: string | readonly ResponseInputItem[]): {
  messages: ChatCompletionMessageParam[];
  unconverted: Unconverted<ResponseInputItem>[];
} {
  if (typeof input === "string") return { messages: [{ role: "user", content: input }], unconverted: [] };
  const messages: ChatCompletionMessageParam[] = [];
  const unconverted: Unconverted<ResponseInputItem>[] = [];
  let assistant: ChatCompletionAssistantMessageParam | undefined;
  const addCall = (call: ChatCompletionMessageToolCall) => {
    if (assistant === undefined) {
      assistant = { role: "assistant", content: null, tool_calls: [] };
      messages.push(assistant);
    }
    assistant.tool_calls = [...(assistant.tool_calls ?? []), call];
  };
  input.forEach((item, index) => {
    const type = (item as { type?: string }).type ?? "message";
    if (type === "function_call") {
      const call = item as Extract<ResponseInputItem, { type: "function_call" }>;
      addCall({
        id: call.call_id,
        type: "function",
        function: { name: call.name, arguments: call.arguments },
      });
      return;
    }
    if (type === "custom_tool_call") {
      const call = item as Extract<ResponseInputItem, { type: "custom_tool_call" }>;
      addCall({ id: call.call_id, type: "custom", custom: { name: call.name, input: call.input } });
      return;
    }
    assistant = undefined;
    if (type === "function_call_output") {
      const output = item as Extract<ResponseInputItem, { type: "function_call_output" }>;
      messages.push({
        role: "tool",
        tool_call_id: output.call_id,
        content: toChatParts(output.output) as string,
      });
      return;
    }
    if (type === "message" && "role" in item) {
      const role = (item as { role: string }).role;
      const content = (item as { content: unknown }).content;
      if (role === "assistant") {
        assistant = { role: "assistant", content: textOf(content) };
        messages.push(assistant);
      } else if (role === "user" || role === "system" || role === "developer") {
        messages.push({ role, content: toChatParts(content) } as ChatCompletionMessageParam);
      } else unconverted.push({ index, value: item });
      return;
    }
    unconverted.push({ index, value: item });
  });
  return { messages, unconverted };
}
