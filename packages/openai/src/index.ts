export {
  type ChatMessage,
  coreRepairs,
  createJsonrepairRepair,
  type DecodeStatus,
  type FinishReason,
  getProviderProfile,
  type Issue,
  type IssueCode,
  listProviderProfiles,
  type ProviderId,
  type ProviderOption,
  type Result,
  type SanitizeChange,
  type SanitizePolicy,
  type ToolcallOptions,
} from "@toolcall/core";
export {
  type ContentCallsOption,
  parseRepairNames,
  type RepairRule,
  TOOLCALL_REPORT_KEY,
  type ToolcallCallReport,
  type ToolcallReport,
} from "@toolcall/core/kit";
export { ChatChunkRepair, type ChoiceEdit } from "./chat/chat-chunk-repair.js";
export { repairChatCompletion, repairChatCompletionSteps } from "./chat/repair-chat-completion.js";
export { repairChatCompletionStream } from "./chat/repair-chat-completion-stream.js";
export { sanitizeChatMessages } from "./chat/sanitize-chat-messages.js";
export type {
  ContentCallExtractor,
  ExtractedToolCall,
  ExtractionContext,
  ExtractionEvent,
  ExtractionIssue,
} from "./exchange/content-call-extractor.js";
export { extractionIssue } from "./exchange/content-call-extractor.js";
export type { ExtractionReport } from "./exchange/extract-content-calls.js";
export { CONTENT_CALL_REPAIR, REPAIRS_HEADER } from "./exchange/repair-summary.js";
export { parseSseFrame, type SseFrame, SseFrames, writeSseFrame } from "./exchange/sse-frames.js";
export { syntaxContentCalls } from "./exchange/syntax-content-calls.js";
export { openaiChatChunksFormat } from "./formats/chat-chunks-format.js";
export { openaiChatCompletionFormat } from "./formats/chat-completion-format.js";
export { isChatMessageLike, openaiChatFormat } from "./formats/chat-format.js";
export { codexRolloutFormat } from "./formats/codex-rollout-format.js";
export { kimiCliContextFormat } from "./formats/kimi-cli-context-format.js";
export { ollamaChatFormat } from "./formats/ollama-chat-format.js";
export { openaiFormats } from "./formats/openai-formats.js";
export { openaiResponsesFormat } from "./formats/responses-format.js";
export {
  applyItemEdits,
  type ItemEdits,
  type ItemsReading,
  isResponseItem,
  readResponseItems,
} from "./formats/responses-items.js";
export { openaiResponsesStreamFormat } from "./formats/responses-stream-format.js";
export { type Fetch, type FetchInput, type GuardFetchOptions, guardFetch } from "./guard-fetch.js";
export { type GuardOpenAIOptions, guardOpenAI } from "./guard-openai.js";
export { sanitizeOllamaChat, validateOllamaChat } from "./ollama-door.js";
export type {
  ArgumentsReport,
  HistoryReport,
  OpenAIApi,
  OpenAIRepairOptions,
  RepairReport,
  RepairSource,
} from "./options.js";
export type { RepairedEvent } from "./repaired-event.js";
export {
  chatMessagesToResponsesInput,
  responsesInputToChatMessages,
  type Unconverted,
} from "./responses/convert-messages.js";
export { repairResponsesResult, repairResponsesResultSteps } from "./responses/repair-responses-result.js";
export { repairResponsesStream } from "./responses/repair-responses-stream.js";
export { ResponsesEventRepair } from "./responses/responses-event-repair.js";
export { sanitizeResponsesInput } from "./responses/sanitize-responses-input.js";
export { RESPONSE_STEP_SIZE } from "./step-pace.js";
