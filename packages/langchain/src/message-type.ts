import { AIMessageChunk, BaseMessage } from "@langchain/core/messages";

/** LangChain's message types (`message.type`), as every 1.x release names them. */
export type MessageType =
  | "human"
  | "ai"
  | "system"
  | "tool"
  | "function"
  | "generic"
  | "remove"
  | "developer";

/**
 * The type of a LangChain message (`"ai"`, `"tool"`, …), or `undefined` for anything that is not one.
 *
 * @example
 * messageTypeOf(new HumanMessage("hi")); // "human"
 * messageTypeOf({ role: "user" }); // undefined
 */
export function messageTypeOf(value: unknown): MessageType | (string & {}) | undefined {
  if (!BaseMessage.isInstance(value)) return undefined;
  const message = value as BaseMessage & { type?: unknown };
  if (typeof message.type === "string") return message.type;
  return message._getType();
}

/**
 * True for an AI message or AI message chunk.
 *
 * @example
 * isAIMessageLike(new AIMessageChunk({ content: "" })); // true
 */
export function isAIMessageLike(value: unknown): value is BaseMessage {
  return messageTypeOf(value) === "ai";
}

/**
 * True for an AI message chunk (it carries `tool_call_chunks` and merges with `concat`).
 *
 * @example
 * isAIChunk(new AIMessageChunk({ content: "" })); // true
 */
export function isAIChunk(value: unknown): value is AIMessageChunk {
  return isAIMessageLike(value) && AIMessageChunk.isInstance(value);
}
