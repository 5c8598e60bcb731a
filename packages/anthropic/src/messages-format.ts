import type { ToolDefinition } from "@toolcall/core";
import { type ConversationFormat, type FormatReading, isPlainObject } from "@toolcall/core/kit";
import {
  ANTHROPIC_BLOCK_TYPES,
  type AnthropicMessageView,
  addressKey,
  applyBlockEdits,
  type BlockAddress,
  readAnthropicMessages,
} from "./anthropic-blocks.js";

type Shape =
  | { kind: "request"; messages: unknown[] }
  | { kind: "response" }
  | { kind: "list"; messages: unknown[] };

function hasAnthropicBlock(messages: readonly unknown[]): boolean {
  return messages.some(
    (message) =>
      isPlainObject(message) &&
      Array.isArray(message.content) &&
      message.content.some(
        (block) =>
          isPlainObject(block) && typeof block.type === "string" && ANTHROPIC_BLOCK_TYPES.has(block.type),
      ),
  );
}

/** Tools with an `input_schema`, or Anthropic's versioned server tools (`web_search_20250305`, `bash_20250124`). */
function isAnthropicTools(tools: unknown): boolean {
  return (
    Array.isArray(tools) &&
    tools.some(
      (tool) =>
        isPlainObject(tool) &&
        ("input_schema" in tool || (typeof tool.type === "string" && /_\d{8}$/.test(tool.type))),
    )
  );
}

function isResponse(value: unknown): value is Record<string, unknown> & { content: unknown[] } {
  return (
    isPlainObject(value) &&
    value.type === "message" &&
    value.role === "assistant" &&
    Array.isArray(value.content)
  );
}

function shapeOf(value: unknown): Shape | undefined {
  if (isResponse(value)) return { kind: "response" };
  if (Array.isArray(value)) {
    const messages = value.every((m) => isPlainObject(m) && "role" in m) && hasAnthropicBlock(value);
    return messages ? { kind: "list", messages: value } : undefined;
  }
  if (!isPlainObject(value) || !Array.isArray(value.messages) || value.messages.length === 0)
    return undefined;
  const signals =
    hasAnthropicBlock(value.messages) ||
    isAnthropicTools(value.tools) ||
    ((typeof value.system === "string" || Array.isArray(value.system)) && "max_tokens" in value);
  return signals ? { kind: "request", messages: value.messages } : undefined;
}

/** Tools with an `input_schema`, as core reads tools (`{name, parameters}`); server tools have none. */
function toolsOf(value: unknown): ToolDefinition[] | undefined {
  if (!isPlainObject(value) || !Array.isArray(value.tools)) return undefined;
  return value.tools
    .filter((tool) => isPlainObject(tool) && typeof tool.name === "string" && "input_schema" in tool)
    .map((tool) => ({
      name: (tool as { name: string }).name,
      parameters: (tool as { input_schema: unknown }).input_schema,
    }));
}

function viewsOf(messages: readonly unknown[]): AnthropicMessageView[] {
  return messages.map((message, index) => {
    const record = isPlainObject(message) ? message : {};
    const content = record.content;
    const addresses: BlockAddress[] = Array.isArray(content)
      ? content.map((_, block) => ({ message: index, block }))
      : [{ message: index, block: -1 }];
    return { role: record.role, content, addresses };
  });
}

function placeOfAddress(prefix: string, address: BlockAddress, field: Array<string | number>): string {
  const base =
    address.block === -1
      ? `${prefix}[${address.message}].content`
      : `${prefix}[${address.message}].content[${address.block}]`;
  return field.length === 0 ? base : `${base}.${field.join(".")}`;
}

/**
 * Anthropic Messages: a request body (`{model, max_tokens, system?, messages, tools?}`, tools with `input_schema`),
 * a response (`{"type": "message", "role": "assistant", content: [...]}`: an answer; `stop_reason: "max_tokens"`
 * makes broken input truncated), or a bare list of messages with Anthropic blocks. Read as
 * {@link readAnthropicMessages} reads blocks; writing back replaces, drops or adds blocks (a synthesized
 * `tool_result` goes first in the next user message, or in a new one) and keeps every other block, key and order.
 *
 * @example
 * const reading = anthropicMessagesFormat.read({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools });
 * reading.conversations[0].messages; // tool_use blocks as calls, tool_result blocks as tool messages
 */
export const anthropicMessagesFormat: ConversationFormat = {
  id: "anthropic-messages",
  name: "Anthropic Messages",
  expected:
    'a request {"messages": [{role, content: [blocks]}], "tools": [{name, input_schema}]}, a response {"type": "message", …}, or a list of messages with tool_use / tool_result / thinking blocks',
  unit: "record",
  priority: 30,
  matches: (value) => shapeOf(value) !== undefined,
  read(value): FormatReading {
    const shape: Shape | undefined = Array.isArray(value)
      ? { kind: "list", messages: value }
      : isPlainObject(value) && Array.isArray(value.messages)
        ? { kind: "request", messages: value.messages }
        : shapeOf(value);
    if (shape === undefined) {
      return {
        conversations: [],
        issues: [
          { code: "record_not_conversation", severity: "error", message: "not Anthropic Messages", path: [] },
        ],
        write: () => ({ ok: true, value }),
      };
    }
    const record = value as Record<string, unknown>;
    const messages = shape.kind === "response" ? [value] : shape.messages;
    const reading = readAnthropicMessages(viewsOf(messages));
    const prefix = shape.kind === "request" ? "messages" : "";
    const placeOfBlock = (address: BlockAddress, field: Array<string | number>) =>
      shape.kind === "response"
        ? address.block === -1
          ? "content"
          : `content[${address.block}]${field.length ? `.${field.join(".")}` : ""}`
        : placeOfAddress(prefix, address, field);
    const tools = toolsOf(value);
    return {
      conversations: [
        {
          messages: reading.messages,
          ...(tools ? { tools } : {}),
          ...(shape.kind === "response"
            ? { answer: true, finishReason: record.stop_reason === "max_tokens" ? "length" : null }
            : {}),
          placeOf(path) {
            const place = reading.placeAt(path);
            if (place === undefined) return `${prefix || "messages"} (message ${String(path[0])})`;
            return placeOfBlock(place.address, place.field);
          },
        },
      ],
      issues: reading.issues.map(({ address, ...found }) => ({
        ...found,
        path: [...(prefix ? [prefix] : []), address.message, "content", address.block],
        place: placeOfBlock(address, []),
      })),
      write([next]) {
        if (next === undefined) return { ok: true, value };
        const result = reading.edits(next);
        if (!result.ok) return result;
        const { edits } = result;
        if (shape.kind === "response") {
          const content = applyBlockEdits(0, record.content, edits);
          if (content === undefined || edits.messagesAfter.size > 0) {
            return { ok: false, reason: "an answer cannot lose every block or gain a message" };
          }
          return { ok: true, value: content === record.content ? value : { ...record, content } };
        }
        let changed = false;
        const out: unknown[] = [];
        messages.forEach((message, index) => {
          const content = isPlainObject(message) ? applyBlockEdits(index, message.content, edits) : undefined;
          // A message without `content` is kept unless a rule dropped it (`undefined` means both).
          const dropped =
            isPlainObject(message) &&
            content === undefined &&
            (message.content !== undefined || edits.dropped.has(addressKey({ message: index, block: -1 })));
          if (!isPlainObject(message) || (content === undefined && !dropped)) out.push(message);
          else if (dropped) changed = true;
          else if (content === message.content) out.push(message);
          else {
            changed = true;
            out.push({ ...message, content });
          }
          const added = edits.messagesAfter.get(index);
          if (added !== undefined) {
            changed = true;
            out.push({ role: "user", content: added });
          }
        });
        if (!changed) return { ok: true, value };
        return { ok: true, value: shape.kind === "list" ? out : { ...record, messages: out } };
      },
    };
  },
};
