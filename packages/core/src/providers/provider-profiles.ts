import { isPlainObject } from "../define-property.js";
import { anthropic, bedrockConverse } from "./profiles/anthropic.js";
import { deepseekReasoner, deepseekV4Thinking } from "./profiles/deepseek.js";
import { gemini, geminiOpenai } from "./profiles/gemini.js";
import { cerebras, cohere, glm, groq, kimi, minimax, qwenDashscope } from "./profiles/hosted.js";
import { mistral, mistralVllm } from "./profiles/mistral.js";
import { llamaCpp, ollama, ollamaNative, sglang, vllm } from "./profiles/open-servers.js";
import { openaiChat, openaiResponses } from "./profiles/openai.js";
import { CONSTRAINT_CODES, type ProviderProfile } from "./provider-profile.js";

/** Every profile core ships, in the order `listProviderProfiles` gives them. */
const PROFILES: readonly ProviderProfile[] = [
  openaiChat,
  openaiResponses,
  anthropic,
  bedrockConverse,
  gemini,
  geminiOpenai,
  mistral,
  mistralVllm,
  deepseekV4Thinking,
  deepseekReasoner,
  kimi,
  qwenDashscope,
  glm,
  minimax,
  groq,
  cerebras,
  cohere,
  vllm,
  sglang,
  llamaCpp,
  ollama,
  ollamaNative,
];

/** The ids of the profiles core ships. */
export type ProviderId =
  | "openai-chat"
  | "openai-responses"
  | "anthropic"
  | "bedrock-converse"
  | "gemini"
  | "gemini-openai"
  | "mistral"
  | "mistral-vllm"
  | "deepseek-v4-thinking"
  | "deepseek-reasoner"
  | "kimi"
  | "qwen-dashscope"
  | "glm"
  | "minimax"
  | "groq"
  | "cerebras"
  | "cohere"
  | "vllm"
  | "sglang"
  | "llama.cpp"
  | "ollama"
  | "ollama-native";

/** The ids of the profiles core ships, in listing order. */
export const PROVIDER_IDS: readonly ProviderId[] = PROFILES.map((profile) => profile.id as ProviderId);

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const entry of Object.values(value)) deepFreeze(entry);
  }
  return value;
}

for (const profile of PROFILES) deepFreeze(profile);

/**
 * Every provider profile core ships: what each provider rejects in a history, with the literal error text, the
 * HTTP status, the fix and the sources (frozen data). `toolcall providers` prints this list.
 *
 * @example
 * for (const profile of listProviderProfiles()) {
 *   console.log(profile.id, profile.constraints.map((c) => c.code).join(", "));
 * }
 */
export function listProviderProfiles(): readonly ProviderProfile[] {
  return PROFILES;
}

/**
 * The profile with this id, or `undefined` for an id core does not ship.
 *
 * @example
 * getProviderProfile("mistral")?.constraints[0]?.message;
 * // "Tool call id was {id} but must be a-z, A-Z, 0-9, with a length of 9."
 */
export function getProviderProfile(id: string): ProviderProfile | undefined {
  return PROFILES.find((profile) => profile.id === id);
}

/** What the `provider` option of `validateHistory` and `sanitizeHistory` takes: a shipped id, or a profile of your own. */
export type ProviderOption = ProviderId | ProviderProfile;

/**
 * The profile a `provider` option names. An unknown id, or an object that is not a profile, is a programming error
 * (the option comes from the caller's code, not from the model): it throws a `TypeError` naming the known ids.
 */
export function resolveProviderProfile(provider: ProviderOption | string): ProviderProfile {
  if (typeof provider === "string") {
    const profile = getProviderProfile(provider);
    if (profile !== undefined) return profile;
    throw new TypeError(`unknown provider ${JSON.stringify(provider)}; known: ${PROVIDER_IDS.join(", ")}`);
  }
  if (
    !isPlainObject(provider) ||
    typeof provider.id !== "string" ||
    !Array.isArray(provider.constraints) ||
    !provider.constraints.every((c) => isPlainObject(c) && CONSTRAINT_CODES.includes(c.code))
  ) {
    throw new TypeError(
      `provider must be one of ${PROVIDER_IDS.join(", ")} or a profile whose constraints have known codes`,
    );
  }
  return provider;
}
