import type { ProviderProfile } from "../provider-profile.js";
import { CHECKED, FIX, OPENAI_BODY } from "./shared.js";

const INSUFFICIENT =
  "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)";

/** DeepSeek V4 in thinking mode (the default), where reasoning must be sent back on every turn with calls. */
export const deepseekV4Thinking: ProviderProfile = {
  id: "deepseek-v4-thinking",
  name: "DeepSeek V4, thinking mode",
  checkedAgainst: {
    api: "POST https://api.deepseek.com/chat/completions",
    models: ["deepseek-v4-pro", "deepseek-v4-flash"],
    date: CHECKED,
    sources: ["https://api-docs.deepseek.com/guides/thinking_mode", "earendil-works/pi#3636"],
  },
  indexing: "messages",
  errorBody: OPENAI_BODY,
  errorFields: { type: "invalid_request_error", param: null, code: "invalid_request_error" },
  note: "Thinking mode is on by default. Between two user messages, reasoning of a turn without calls is ignored; reasoning of a turn with calls must be sent back in every later request.",
  constraints: [
    {
      code: "reasoning_missing",
      summary: "An assistant message with calls sent back without its `reasoning_content`.",
      message: "The `reasoning_content` in the thinking mode must be passed back to the API.",
      status: 400,
      variants: [
        "Missing `reasoning_content` field in the assistant message at message index {index}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls",
      ],
      fix: FIX.reasoningFill,
      evidence: "documented",
      sources: [
        "https://api-docs.deepseek.com/guides/thinking_mode",
        "earendil-works/pi#3636",
        "crewAIInc/crewAI#5878",
        "anomalyco/opencode#24722",
        "continuedev/continue#11290",
      ],
      note: 'The variant is DeepSeek-V3.2\'s wording (GitNexus#43). The docs ask for the reasoning the model returned; `""` is what clients send when it was not kept, and it is accepted (continuedev/continue#11290).',
    },
    {
      code: "tool_result_missing",
      summary: "A call without a tool result before the next assistant message.",
      message: INSUFFICIENT,
      status: 400,
      fix: FIX.missing,
      evidence: "reported",
      sources: ["langgenius/dify#32222"],
    },
    {
      code: "tool_results_interleaved",
      summary: "Another message between an assistant message with calls and the calls' results.",
      message: INSUFFICIENT,
      status: 400,
      fix: FIX.interleaved,
      evidence: "inferred",
      sources: ["langgenius/dify#32222"],
      note: "Assumed as OpenAI's rule, which DeepSeek's texts follow.",
    },
    {
      code: "tool_result_orphan",
      summary: "A tool result that answers no call of the assistant message before it.",
      message: "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
      status: 400,
      fix: FIX.orphan,
      evidence: "inferred",
      sources: ["itmisx/deepx-code#94"],
      note: "The report does not say for certain that DeepSeek answered it.",
    },
    {
      code: "id_duplicate",
      summary: "A call id used by an earlier call of the history (OpenAI accepts it; DeepSeek does not).",
      message: "Duplicate value for 'tool_call_id' of {id} in message[{index}]",
      status: 400,
      fix: FIX.duplicate,
      evidence: "reported",
      sources: [
        "earendil-works/pi#6796",
        "craft-ai-agents/craft-agents-oss#621",
        "craft-ai-agents/craft-agents-oss#630",
      ],
      note: "Seen with deepseek-v4-pro after a session from another provider reused ids. Which message DeepSeek numbers (the call's or its result's) is not shown by the reports: `{index}` is the assistant message with the repeated call.",
    },
  ],
};

/** The older deepseek-reasoner (DeepSeek-R1), which refused reasoning sent back. */
export const deepseekReasoner: ProviderProfile = {
  id: "deepseek-reasoner",
  name: "DeepSeek deepseek-reasoner (R1)",
  checkedAgainst: {
    api: "POST https://api.deepseek.com/chat/completions, model deepseek-reasoner",
    models: ["deepseek-reasoner (DeepSeek-R1, 2025)"],
    date: CHECKED,
    sources: ["https://api-docs.deepseek.com/zh-cn/guides/reasoning_model", "Euyug/Mirai-Gpt-Plugin#4"],
  },
  indexing: "messages",
  errorBody: OPENAI_BODY,
  errorFields: { type: "invalid_request_error", param: null, code: "invalid_request_error" },
  note: "The rule flipped: the deepseek-reasoner name later served V3.2's thinking mode, then V4's, which require reasoning back on turns with calls (see deepseek-v4-thinking). R1 did not support function calling.",
  constraints: [
    {
      code: "reasoning_rejected",
      summary: "An assistant message that carries `reasoning_content`.",
      message:
        "The reasoning_content is an intermediate result for display purposes only and will not be included in the context for inference. Please remove the reasoning_content from your message to reduce network traffic.",
      status: 400,
      params: { reasoningMove: "remove" },
      fix: FIX.reasoningRemove,
      evidence: "documented",
      sources: ["https://api-docs.deepseek.com/zh-cn/guides/reasoning_model", "Euyug/Mirai-Gpt-Plugin#4"],
    },
  ],
};
