export {
  chatMessagesToResponseInput,
  responseInputToChatMessages,
  type Unconverted,
} from "./convert-messages.js";
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
