export { cohereChatFormat, TEXT_BESIDE_CALLS } from "./cohere-chat-format.js";
export { sanitizeCohereChat, validateCohereChat } from "./cohere-door.js";
export { cohereFormats } from "./cohere-formats.js";
