import type { ConversationFormat, FormatReading } from "@toolcall/core/kit";
import { isPlainObject, storedListOf } from "@toolcall/core/kit";
import { readDicts } from "./langchain-stored-format.js";
import type { DictEnvelope, DictRole } from "./message-dict-view.js";

const CLASS_ROLES: Readonly<Record<string, DictRole>> = {
  HumanMessage: "user",
  HumanMessageChunk: "user",
  AIMessage: "assistant",
  AIMessageChunk: "assistant",
  SystemMessage: "system",
  SystemMessageChunk: "system",
  ToolMessage: "tool",
  ToolMessageChunk: "tool",
};

/** The class name of a serialized constructor (`["langchain_core", "messages", "AIMessage"]` → `AIMessage`). */
function classOf(value: Record<string, unknown>): unknown {
  return Array.isArray(value.id) ? value.id[value.id.length - 1] : undefined;
}

/** `{lc: 1, type: "constructor", id: [...], kwargs}`: a serialized LangChain object. */
export function isSerializedMessage(value: unknown): boolean {
  return (
    isPlainObject(value) &&
    value.lc === 1 &&
    value.type === "constructor" &&
    Array.isArray(value.id) &&
    isPlainObject(value.kwargs)
  );
}

const envelope: DictEnvelope = {
  key: "kwargs",
  roleOf(message) {
    const name = classOf(message);
    if (name === "ChatMessage" || name === "ChatMessageChunk") {
      const role = (message.kwargs as Record<string, unknown>).role;
      return role === "user" || role === "assistant" || role === "system" ? role : undefined;
    }
    return typeof name === "string" && Object.hasOwn(CLASS_ROLES, name) ? CLASS_ROLES[name] : undefined;
  },
  toolResult: ({ content, toolCallId, name }) => ({
    lc: 1,
    type: "constructor",
    id: ["langchain_core", "messages", "ToolMessage"],
    kwargs: {
      content,
      tool_call_id: toolCallId,
      ...(typeof name === "string" ? { name } : {}),
      status: "error",
      additional_kwargs: {},
      response_metadata: {},
    },
  }),
};

/**
 * LangChain messages serialized as constructors (`JSON.stringify(message)` / `toJSON()` in JavaScript, `dumpd` in
 * Python: `{"lc": 1, "type": "constructor", "id": ["langchain_core", "messages", "AIMessage"], "kwargs": {…}}`, as
 * LangGraph states and checkpoints, LangSmith and Langfuse traces hold them), a bare list or an object with
 * `messages`. The `kwargs` are read and written back as the stored form's `data` is (see `langchainStoredFormat`);
 * a synthesized result is a `ToolMessage` constructor with `status: "error"`, which `load` revives.
 *
 * @example
 * const reading = langchainSerializedFormat.read([
 *   { lc: 1, type: "constructor", id: ["langchain_core", "messages", "ToolMessage"], kwargs: { content: "sunny", tool_call_id: "c1" } },
 * ]);
 * reading.conversations[0]?.messages; // [{ role: "tool", tool_call_id: "c1", content: "sunny" }]
 */
export const langchainSerializedFormat: ConversationFormat = {
  id: "langchain-serialized",
  name: "LangChain serialized messages (lc: 1 constructors)",
  expected:
    'a list of {"lc": 1, "type": "constructor", "id": [..., "AIMessage"], "kwargs": {content, tool_calls?}}, or an object with "messages"',
  unit: "record",
  priority: 25,
  matches: (value) => {
    const found = storedListOf({ value, isMessage: isSerializedMessage });
    return (
      found?.list.some((message) => envelope.roleOf(message as Record<string, unknown>) !== undefined) ===
      true
    );
  },
  read(value): FormatReading {
    return readDicts({
      value,
      envelope,
      isMessage: isSerializedMessage,
      what: "LangChain serialized messages",
    });
  },
};
