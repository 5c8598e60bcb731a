import type { ConversationFormat } from "@toolcall/core/kit";
import { langchainSerializedFormat } from "./langchain-serialized-format.js";
import { langchainStoredFormat } from "./langchain-stored-format.js";

/**
 * Every format LangChain saves messages in, for a tool composing formats
 * (`createFormatRegistry([...langchainFormats, …])`).
 *
 * @example
 * createFormatRegistry(langchainFormats).detect([{ type: "human", data: { content: "hi" } }], "record")?.format.id; // "langchain-stored"
 */
export const langchainFormats: readonly ConversationFormat[] = [
  langchainStoredFormat,
  langchainSerializedFormat,
];
