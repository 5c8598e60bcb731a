import type { ChatMessage, ToolCall } from "@toolcall/core";
import { isPlainObject, originOf, serializeJson, withOrigin } from "@toolcall/core/kit";

type Fields = Record<string, unknown>;

/** The roles a LangChain message dict has in core's view. */
export type DictRole = "user" | "assistant" | "system" | "developer" | "tool";

/**
 * How one serialized form wraps a message's fields: `{type, data}` (`mapChatMessagesToStoredMessages`, Python's
 * `messages_to_dict`) or `{lc: 1, type: "constructor", id, kwargs}` (`toJSON`, `dumpd`).
 */
export interface DictEnvelope {
  /** The key of the fields (`data`, `kwargs`). */
  readonly key: "data" | "kwargs";
  /** The message's role in the neutral view, or `undefined` for a message it does not hold. */
  roleOf(message: Fields): DictRole | undefined;
  /** A new tool message in this form, like the others of `list` (Python's dicts repeat their type inside `data`). */
  toolResult(options: {
    content: unknown;
    toolCallId: unknown;
    name: unknown;
    list: readonly unknown[];
  }): Fields;
}

/** Where a neutral message or call came from: the message's index, and for a call its list and place in it. */
export interface DictOrigin {
  message: number;
  list?: "tool_calls" | "invalid_tool_calls";
  index?: number;
}

/** The fields of a message in an envelope, or `undefined`. */
export function fieldsOf(options: { message: unknown; envelope: DictEnvelope }): Fields | undefined {
  const { message, envelope } = options;
  if (!isPlainObject(message)) return undefined;
  const fields = message[envelope.key];
  return isPlainObject(fields) ? fields : undefined;
}

function jsonText(value: unknown): unknown {
  const written = serializeJson(value);
  return written.success ? written.value : value;
}

/** A content's text: a string as it is, a list of blocks as its text blocks joined, other blocks JSON text. */
export function textOfContent(options: { content: unknown; tool: boolean }): unknown {
  const { content } = options;
  if (!Array.isArray(content)) return content;
  const texts = content.filter((block) => isPlainObject(block) && block.type === "text");
  if (options.tool && texts.length !== content.length) return jsonText(content);
  return texts.map((block) => (typeof block.text === "string" ? block.text : "")).join("");
}

/** The neutral call of a LangChain tool call (`args`, an object, as its JSON text) or invalid one (`args`, text). */
function neutralCall(call: unknown, origin: DictOrigin): ToolCall {
  const fields = isPlainObject(call) ? call : {};
  const args = origin.list === "tool_calls" ? jsonText(fields.args) : (fields.args ?? "");
  return withOrigin(
    { id: fields.id, type: "function", function: { name: fields.name, arguments: args } } as ToolCall,
    origin,
  );
}

/**
 * The neutral message of one LangChain message dict, or `undefined` when it is not one the view holds (a
 * `FunctionMessage`, a `RemoveMessage`, a value that is no message): the record keeps it where it is.
 */
export function neutralOfDict(options: {
  message: unknown;
  index: number;
  envelope: DictEnvelope;
}): ChatMessage | undefined {
  const { message, index, envelope } = options;
  const fields = fieldsOf({ message, envelope });
  const role = fields === undefined ? undefined : envelope.roleOf(message as Fields);
  if (fields === undefined || role === undefined) return undefined;
  const origin: DictOrigin = { message: index };
  if (role === "tool") {
    return withOrigin(
      {
        role,
        tool_call_id: fields.tool_call_id,
        content: textOfContent({ content: fields.content, tool: true }),
      } as ChatMessage,
      origin,
    );
  }
  if (role !== "assistant")
    return withOrigin(
      { role, content: textOfContent({ content: fields.content, tool: false }) } as ChatMessage,
      origin,
    );
  const calls: ToolCall[] = [];
  for (const list of ["tool_calls", "invalid_tool_calls"] as const) {
    const held = fields[list];
    if (!Array.isArray(held)) continue;
    held.forEach((call, j) => {
      calls.push(neutralCall(call, { message: index, list, index: j }));
    });
  }
  const text = textOfContent({ content: fields.content, tool: false });
  const neutral: ChatMessage = {
    role,
    content: calls.length > 0 && (text === "" || text === undefined) ? null : (text as string),
  };
  if (calls.length > 0) neutral.tool_calls = calls;
  return withOrigin(neutral, origin);
}

/** The origin of a neutral message or call, when it has one of this view. */
export function dictOriginOf(value: unknown): DictOrigin | undefined {
  const origin = originOf(value) as DictOrigin | undefined;
  return isPlainObject(origin) && typeof origin.message === "number" ? origin : undefined;
}
