export {
  chatMessagesToResponseInput,
  responseInputToChatMessages,
  type Unconverted,
} from "./convert-messages.js";
export { openaiChatChunksFormat } from "./formats/chat-chunks-format.js";
export { openaiChatCompletionFormat } from "./formats/chat-completion-format.js";
export { isChatMessageLike, openaiChatFormat } from "./formats/chat-format.js";
export { codexRolloutFormat } from "./formats/codex-rollout-format.js";
export { openaiFormats } from "./formats/openai-formats.js";
export { openaiResponsesFormat } from "./formats/responses-format.js";
export {
  applyItemEdits,
  type ItemEdits,
  type ItemsReading,
  isResponseItem,
  readResponseItems,
} from "./formats/responses-items.js";
export { guardOpenAI } from "./guard-openai.js";
export type {
  ArgumentsReport,
  HistoryReport,
  OpenAIApi,
  OpenAIRepairOptions,
  RepairReport,
  RepairSource,
} from "./options.js";
export { repairChatCompletion } from "./repair-chat-completion.js";
export { repairChatCompletionStream } from "./repair-chat-completion-stream.js";
export { repairResponse } from "./repair-response.js";
export { repairResponseStream } from "./repair-response-stream.js";
export { sanitizeChatMessages } from "./sanitize-chat-messages.js";
export { sanitizeResponseInput } from "./sanitize-response-input.js";
