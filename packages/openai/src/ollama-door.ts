import { createRecordEngine } from "@toolcall/core";
import type { RecordCheck, RecordRepair } from "@toolcall/core/kit";
import { ollamaChatFormat } from "./formats/ollama-chat-format.js";

const engine = createRecordEngine({
  providers: { mode: "named", ids: ["ollama-native"] },
  provider: "ollama-native",
});

/**
 * What Ollama's native `/api/chat` refuses in a request body, and what core's rules find, in Ollama's own words where
 * core's `ollama-native` profile has them (arguments that are not an object).
 *
 * @example
 * validateOllamaChat(body).issues; // [{ code: "arguments_invalid_json", refusedBy: ["ollama-native"], … }]
 */
export function validateOllamaChat(body: unknown): RecordCheck {
  return engine.check(ollamaChatFormat, body);
}

/**
 * The request body repaired for Ollama's native `/api/chat` (core's rules, then the `ollama-native` profile's fixes),
 * written back in Ollama's shapes (arguments as objects): `value` is the body to send when anything changed.
 *
 * @example
 * const { value, changes } = sanitizeOllamaChat(body);
 */
export function sanitizeOllamaChat(body: unknown): RecordRepair {
  return engine.repair(ollamaChatFormat, body);
}
