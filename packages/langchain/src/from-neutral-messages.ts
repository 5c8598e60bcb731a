import {
  AIMessage,
  type BaseMessage,
  FunctionMessage,
  HumanMessage,
  type InvalidToolCall,
  ChatMessage as LangChainChatMessage,
  type ToolCall as LangChainToolCall,
  SystemMessage,
  ToolMessage,
} from "@langchain/core/messages";
import {
  type ChatMessage,
  type DecodeStatus,
  decodeArguments,
  type IssueCode,
  type ToolCall,
  validateToolCall,
} from "@toolcall/core";
import { isDecodedToObject, isFunctionCall, isPlainObject } from "@toolcall/core/kit";
import { argumentsText } from "./arguments-text.js";
import { ASSISTANT_KWARGS, OPENAI_ROLE_KEY } from "./to-neutral-messages.js";

/** What `fromNeutralMessage` takes: the LangChain message the neutral one was made from, whose other fields are kept. */
export interface FromNeutralOptions {
  /**
   * The LangChain message this neutral one was made from: its id, metadata and other fields are kept, and only
   * what the neutral message says (content, calls, `tool_call_id`) is taken from it.
   */
  source?: BaseMessage;
}

type MessageContent = BaseMessage["content"];

function contentOf(content: unknown): MessageContent {
  // LangChain has no null content: an assistant turn without text is "".
  return (content ?? "") as MessageContent;
}

function nameOf(message: ChatMessage): { name?: string } {
  return typeof message.name === "string" ? { name: message.name } : {};
}

/**
 * The code of the first error that keeps a call from running (core's R3), for `InvalidToolCall.error`. A call
 * that R3 finds no error in (its text is a raw sentinel, or nested deeper than a `maxDepth` R3 does not take)
 * gets the code of its decode status.
 */
export function blockingIssue(
  call: ToolCall,
  options: Parameters<typeof validateToolCall>[1] & { maxDepth?: number } = {},
  status?: DecodeStatus,
): IssueCode {
  const found = validateToolCall(call, options).find(
    (issue) => issue.severity === "error" && issue.path[0] === "function",
  );
  if (found !== undefined) return found.code;
  return status === "invalid" ? "arguments_invalid_json" : "arguments_raw_sentinel";
}

/**
 * Splits OpenAI-shaped calls into LangChain's two lists by core's R1 decode: a call with a name whose arguments
 * decode to a mapping is a `ToolCall` (args: that mapping); any other is an `InvalidToolCall` (args: its text,
 * error: the R3 issue code). Calls of another type (`custom`) stay only in `additional_kwargs.tool_calls`.
 * A raw sentinel (`{ _raw_arguments: … }`, what R4's preserve policy stores) decodes to a mapping and is a
 * `ToolCall` here, unlike in a fresh answer (`repairToolCalls`): this builds histories, and `ChatOpenAI` replays only
 * `tool_calls` when there are any, so a call left out of them would orphan its result.
 */
function splitToolCalls(calls: readonly unknown[]): {
  toolCalls: LangChainToolCall[];
  invalidToolCalls: InvalidToolCall[];
} {
  const toolCalls: LangChainToolCall[] = [];
  const invalidToolCalls: InvalidToolCall[] = [];
  for (const call of calls) {
    if (!isPlainObject(call) || !isFunctionCall(call as ToolCall)) continue;
    const fn = isPlainObject(call.function) ? call.function : {};
    const id = typeof call.id === "string" && call.id !== "" ? { id: call.id } : {};
    const name = fn.name;
    const decoded = decodeArguments(fn.arguments);
    if (typeof name === "string" && name !== "" && isDecodedToObject(decoded.status)) {
      toolCalls.push({ ...id, name, args: decoded.arguments, type: "tool_call" });
    } else {
      const args = argumentsText(fn.arguments);
      invalidToolCalls.push({
        ...id,
        ...(typeof name === "string" ? { name } : {}),
        ...(args === undefined ? {} : { args }),
        error: blockingIssue(call as ToolCall, {}, decoded.status),
        type: "invalid_tool_call",
      });
    }
  }
  return { toolCalls, invalidToolCalls };
}

/**
 * Builds an `AIMessage` whose `additional_kwargs.tool_calls` holds the OpenAI-shaped calls as given. The list is
 * attached after construction: the constructor warns about outdated packages whenever that list is set while
 * `tool_calls` is empty, which is the normal state of a turn whose calls are all invalid.
 */
export function createAIMessage(
  fields: ConstructorParameters<typeof AIMessage>[0] & object,
  wire: readonly unknown[] | undefined,
): AIMessage {
  const additional = {
    ...((fields as { additional_kwargs?: Record<string, unknown> }).additional_kwargs ?? {}),
  };
  delete additional.tool_calls;
  const message = new AIMessage({ ...fields, additional_kwargs: additional });
  if (wire !== undefined) message.additional_kwargs.tool_calls = [...wire] as never;
  return message;
}

function assistantFrom(message: ChatMessage, source: BaseMessage | undefined): AIMessage {
  const wire = Array.isArray(message.tool_calls) ? message.tool_calls : undefined;
  const { toolCalls, invalidToolCalls } = splitToolCalls(wire ?? []);
  const base = source as (BaseMessage & { usage_metadata?: unknown }) | undefined;
  const additional: Record<string, unknown> = { ...(base?.additional_kwargs ?? {}) };
  for (const key of ASSISTANT_KWARGS) {
    if (message[key] !== undefined) additional[key] = message[key];
    // The neutral message would carry it (toNeutralMessage copies every value but null): a sanitize took it out
    // (a provider that refuses reasoning sent back), so the LangChain message goes without it too.
    else if (additional[key] !== undefined && additional[key] !== null) delete additional[key];
  }
  const content =
    base !== undefined &&
    (message.content === base.content || (message.content === null && base.content === ""))
      ? base.content
      : contentOf(message.content);
  return createAIMessage(
    {
      content,
      ...nameOf(message),
      ...(base?.id === undefined ? {} : { id: base.id }),
      ...(base === undefined ? {} : { response_metadata: { ...base.response_metadata } }),
      ...(base?.usage_metadata === undefined ? {} : { usage_metadata: base.usage_metadata as never }),
      additional_kwargs: additional,
      tool_calls: toolCalls,
      invalid_tool_calls: invalidToolCalls,
    },
    wire,
  );
}

function toolFrom(message: ChatMessage, source: BaseMessage | undefined): ToolMessage {
  const base = source as (ToolMessage & Record<string, unknown>) | undefined;
  return new ToolMessage({
    ...(base === undefined
      ? {}
      : {
          id: base.id,
          name: base.name,
          artifact: base.artifact,
          status: base.status,
          additional_kwargs: { ...base.additional_kwargs },
          response_metadata: { ...base.response_metadata },
        }),
    ...nameOf(message),
    content: contentOf(message.content),
    tool_call_id: message.tool_call_id as string,
  });
}

/**
 * One neutral OpenAI-shaped message as a LangChain message. An assistant message becomes an `AIMessage` whose
 * `tool_calls`/`invalid_tool_calls` are split by core's R1 decode and whose `additional_kwargs.tool_calls` keeps
 * the calls exactly as given (as `ChatOpenAI` does), so converting back gives the same calls, byte for byte.
 * Entries that are not objects pass through unchanged.
 *
 * @example
 * fromNeutralMessage({ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "w", arguments: "42" } }] });
 * // AIMessage { content: "", tool_calls: [], invalid_tool_calls: [{ id: "c1", name: "w", args: "42", error: "arguments_not_object" }] }
 */
export function fromNeutralMessage(
  message: unknown,
  options: FromNeutralOptions = {},
): BaseMessage | unknown {
  if (!isPlainObject(message)) return message;
  const chat = message as ChatMessage;
  const source = options.source;
  switch (chat.role) {
    case "assistant":
      return assistantFrom(chat, source);
    case "tool":
      return toolFrom(chat, source);
    case "user":
      return new HumanMessage({ content: contentOf(chat.content), ...nameOf(chat) });
    case "system":
      return new SystemMessage({ content: contentOf(chat.content), ...nameOf(chat) });
    case "developer":
      return new SystemMessage({
        content: contentOf(chat.content),
        ...nameOf(chat),
        additional_kwargs: { [OPENAI_ROLE_KEY]: "developer" },
      });
    case "function":
      return new FunctionMessage({ content: contentOf(chat.content), name: String(chat.name ?? "") });
    default:
      return new LangChainChatMessage({
        content: contentOf(chat.content),
        role: String(chat.role),
        ...nameOf(chat),
      });
  }
}

/**
 * A neutral OpenAI-shaped history as LangChain messages, one per entry (same indexes). Lossless for valid calls:
 * `toNeutralMessages(fromNeutralMessages(history))` gives the same calls back.
 *
 * @example
 * const messages = fromNeutralMessages(storedOpenAIHistory);
 * await model.invoke(messages);
 */
export function fromNeutralMessages(messages: readonly ChatMessage[]): BaseMessage[] {
  return messages.map((message) => fromNeutralMessage(message) as BaseMessage);
}
