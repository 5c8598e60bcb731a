import type { BaseMessage } from "@langchain/core/messages";
import type { ChatMessage, EncodeOptions } from "@toolcall/core";
import { collectToolCalls } from "./collect-tool-calls.js";
import { messageTypeOf } from "./message-type.js";

/** What `toNeutralMessages` takes: how to write `args` that carry no provider text of their own. */
export interface ToNeutralOptions {
  /** How to write `args` that carry no provider text of their own (hand-built calls). Default: compact JSON. */
  encode?: EncodeOptions;
}

/** Fields of an assistant message that OpenAI-compatible providers read, kept by LangChain in `additional_kwargs`. */
export const ASSISTANT_KWARGS = ["reasoning_content", "audio", "function_call", "refusal"] as const;

/** The role LangChain's `ChatOpenAI` marks a developer message with, in `additional_kwargs`. */
export const OPENAI_ROLE_KEY = "__openai_role__";

function withName(target: ChatMessage, message: BaseMessage): ChatMessage {
  if (typeof message.name === "string") target.name = message.name;
  return target;
}

/**
 * One LangChain message in the neutral OpenAI Chat Completions shape core reads. Anything that is not a LangChain
 * message (or a type with no OpenAI counterpart, like `RemoveMessage`) comes back as it is.
 *
 * - `AIMessage`/`AIMessageChunk` → `assistant`, with `tool_calls` from `tool_calls` and `invalid_tool_calls` (see
 *   {@link collectToolCalls}); empty content is `null`, as OpenAI writes an assistant turn without text.
 * - `ToolMessage` → `tool` with its `tool_call_id`; `HumanMessage` → `user`; `SystemMessage` → `system` (or
 *   `developer`); `FunctionMessage` → `function`; `ChatMessage` → its role.
 *
 * @example
 * toNeutralMessage(new ToolMessage({ content: "sunny", tool_call_id: "c1" }));
 * // { role: "tool", tool_call_id: "c1", content: "sunny" }
 */
export function toNeutralMessage(message: unknown, options: ToNeutralOptions = {}): ChatMessage | unknown {
  const type = messageTypeOf(message);
  if (type === undefined) return message;
  const lc = message as BaseMessage & Record<string, unknown>;
  const kwargs = (lc.additional_kwargs ?? {}) as Record<string, unknown>;
  switch (type) {
    case "human":
      return withName({ role: "user", content: lc.content }, lc);
    case "system":
      return withName(
        { role: kwargs[OPENAI_ROLE_KEY] === "developer" ? "developer" : "system", content: lc.content },
        lc,
      );
    case "tool":
      return withName({ role: "tool", tool_call_id: lc.tool_call_id, content: lc.content }, lc);
    case "function":
      return withName({ role: "function", content: lc.content }, lc);
    case "generic":
      return withName({ role: lc.role, content: lc.content }, lc);
    case "ai": {
      const content = lc.content === "" ? null : lc.content;
      const assistant = withName({ role: "assistant", content }, lc);
      const calls = collectToolCalls(lc, options);
      if (calls !== undefined) assistant.tool_calls = calls.map((entry) => entry.call);
      for (const key of ASSISTANT_KWARGS) {
        if (kwargs[key] !== undefined && kwargs[key] !== null) assistant[key] = kwargs[key];
      }
      return assistant;
    }
    default:
      return message;
  }
}

/**
 * A LangChain history in the neutral OpenAI shape, one entry per message (same indexes), for core's rules or for
 * any OpenAI-compatible consumer. Entries that are not LangChain messages pass through unchanged.
 *
 * @example
 * toNeutralMessages([new HumanMessage("weather?"), aiMessageFromChatOpenAI, new ToolMessage({ content: "sunny", tool_call_id: "c1" })]);
 * // [{ role: "user", … }, { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name, arguments } }] }, { role: "tool", … }]
 */
export function toNeutralMessages(
  messages: readonly BaseMessage[],
  options: ToNeutralOptions = {},
): ChatMessage[] {
  return messages.map((message) => toNeutralMessage(message, options) as ChatMessage);
}
