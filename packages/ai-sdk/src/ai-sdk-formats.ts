import type { ConversationFormat } from "@toolcall/core/kit";
import { aiSdkModelMessagesFormat } from "./model-messages-format.js";
import { aiSdkUiMessagesFormat } from "./ui-messages-format.js";

/**
 * Every format the AI SDK saves tool calls in, for a tool composing formats
 * (`createFormatRegistry([...aiSdkFormats, …])`).
 *
 * @example
 * createFormatRegistry(aiSdkFormats).detect([{ id: "u1", role: "user", parts: [{ type: "text", text: "hi" }] }], "record")?.format.id; // "ai-sdk-ui-messages"
 */
export const aiSdkFormats: readonly ConversationFormat[] = [aiSdkUiMessagesFormat, aiSdkModelMessagesFormat];
