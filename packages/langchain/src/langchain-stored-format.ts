import type { ChatMessage } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatReading,
  guardedReading,
  isPlainObject,
  storedListOf,
  withStoredList,
} from "@toolcall/core/kit";
import { type DictEnvelope, type DictRole, neutralOfDict } from "./message-dict-view.js";
import { writeMessageDicts } from "./message-dict-write.js";
import { placeOfDict } from "./place-of-dict.js";

type Fields = Record<string, unknown>;

const STORED_ROLES: Readonly<Record<string, DictRole>> = {
  human: "user",
  ai: "assistant",
  system: "system",
  developer: "developer",
  tool: "tool",
  // Python writes a chunk's class name as its type (`AIMessageChunk`); JavaScript writes `ai` for both.
  AIMessageChunk: "assistant",
  HumanMessageChunk: "user",
  SystemMessageChunk: "system",
  ToolMessageChunk: "tool",
};

/** `{type, data}`: a stored message, `data` its fields. */
export function isStoredMessage(value: unknown): boolean {
  return (
    isPlainObject(value) &&
    typeof value.type === "string" &&
    isPlainObject(value.data) &&
    !("role" in value) &&
    !("lc" in value)
  );
}

const envelope: DictEnvelope = {
  key: "data",
  roleOf(message) {
    if (message.type === "chat") {
      const role = (message.data as Fields).role;
      return role === "user" || role === "assistant" || role === "system" ? role : undefined;
    }
    const type = message.type as string;
    return Object.hasOwn(STORED_ROLES, type) ? STORED_ROLES[type] : undefined;
  },
  toolResult({ content, toolCallId, name, list }) {
    // Python's `messages_to_dict` repeats the type inside `data` with every field; the JS form does not.
    const python = list.some(
      (message) => isPlainObject(message) && isPlainObject(message.data) && "type" in message.data,
    );
    const data: Fields = python
      ? {
          content,
          additional_kwargs: {},
          response_metadata: {},
          type: "tool",
          name: name ?? null,
          id: null,
          tool_call_id: toolCallId,
          artifact: null,
          status: "error",
        }
      : {
          content,
          tool_call_id: toolCallId,
          ...(typeof name === "string" ? { name } : {}),
          status: "error",
          additional_kwargs: {},
          response_metadata: {},
        };
    return { type: "tool", data };
  },
};

/**
 * LangChain's stored messages: `mapChatMessagesToStoredMessages` in JavaScript and `messages_to_dict` in Python
 * (`[{"type": "ai", "data": {content, tool_calls, invalid_tool_calls, additional_kwargs, …}}]`, as chat message
 * histories keep them in Redis, Postgres or files), a bare list or an object with `messages`. An AI message's
 * `tool_calls` (`args`, an object, read as its JSON text) and `invalid_tool_calls` (`args`, the model's text) are its
 * calls; a `tool` message is a result. Writing back changes only what a rule changed: a repaired call's `args` as an
 * object (an invalid call that now parses becomes a tool call), the OpenAI `additional_kwargs.tool_calls` and
 * Anthropic `tool_use` blocks beside it kept in step; a synthesized result is a `tool` message with `status: "error"`.
 * Function, remove and unknown messages stay where they are, outside the view.
 *
 * @example
 * const reading = langchainStoredFormat.read([
 *   { type: "ai", data: { content: "", tool_calls: [{ id: "c1", name: "weather", args: { city: "Paris" }, type: "tool_call" }] } },
 * ]);
 * reading.conversations[0]?.messages[0]?.tool_calls?.[0]?.function.arguments; // '{"city":"Paris"}'
 */
export const langchainStoredFormat: ConversationFormat = {
  id: "langchain-stored",
  name: "LangChain stored messages ({type, data}, messages_to_dict)",
  expected:
    'a list of {"type": "human" | "ai" | "system" | "tool", "data": {content, tool_calls?, tool_call_id?}}, or an object with "messages"',
  unit: "record",
  priority: 25,
  matches: (value) => {
    const found = storedListOf({ value, isMessage: isStoredMessage });
    return found?.list.some((message) => envelope.roleOf(message as Fields) !== undefined) === true;
  },
  read(value): FormatReading {
    return readDicts({ value, envelope, isMessage: isStoredMessage, what: "LangChain stored messages" });
  },
};

/** A record of message dicts in an envelope, read for the record engine. */
export function readDicts(options: {
  value: unknown;
  envelope: DictEnvelope;
  isMessage: (value: unknown) => boolean;
  what: string;
}): FormatReading {
  const { value, envelope: form } = options;
  return guardedReading({ value, what: options.what, read: () => readFound({ ...options, form }) });
}

function readFound(options: {
  value: unknown;
  form: DictEnvelope;
  isMessage: (value: unknown) => boolean;
  what: string;
}): FormatReading {
  const { value, form } = options;
  const found = storedListOf({ value, isMessage: options.isMessage, allowEmpty: true });
  if (found === undefined) {
    return {
      conversations: [],
      issues: [
        { code: "record_not_conversation", severity: "error", message: `not ${options.what}`, path: [] },
      ],
      write: () => ({ ok: true, value }),
    };
  }
  const messages: ChatMessage[] = [];
  found.list.forEach((message, index) => {
    const neutral = neutralOfDict({ message, index, envelope: form });
    if (neutral !== undefined) messages.push(neutral);
  });
  return {
    conversations: [
      { messages, placeOf: (path) => placeOfDict({ messages, path, key: found.key, field: form.key }) },
    ],
    issues: [],
    write([next]) {
      if (next === undefined) return { ok: true, value };
      const written = writeMessageDicts({ list: found.list, next, envelope: form });
      return written.ok ? { ok: true, value: withStoredList({ value, found, list: written.list }) } : written;
    },
  };
}
