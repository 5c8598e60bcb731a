import type { ConversationFormat } from "@toolcall/core/kit";
import { bedrockConverseFormat } from "./converse-format.js";

/**
 * Every Bedrock format, for a tool composing formats (`createFormatRegistry([...bedrockFormats, …])`).
 *
 * @example
 * createFormatRegistry(bedrockFormats).detect(body, "record")?.format.id; // "bedrock-converse"
 */
export const bedrockFormats: readonly ConversationFormat[] = [bedrockConverseFormat];
