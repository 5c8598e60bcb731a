import type { ConversationFormat } from "@toolcall/core/kit";
import { cohereChatFormat } from "./cohere-chat-format.js";

/**
 * Every Cohere format, for a tool composing formats (`createFormatRegistry([...cohereFormats, …])`).
 *
 * @example
 * createFormatRegistry(cohereFormats).detect(body, "record")?.format.id; // "cohere-chat"
 */
export const cohereFormats: readonly ConversationFormat[] = [cohereChatFormat];
