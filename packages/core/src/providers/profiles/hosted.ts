import type { ProviderProfile } from "../provider-profile.js";
import { CHECKED, FIX, OPENAI_BODY } from "./shared.js";

/** Moonshot's Kimi API with thinking models. */
export const kimi: ProviderProfile = {
  id: "kimi",
  name: "Moonshot Kimi API (thinking models)",
  checkedAgainst: {
    api: "POST https://api.moonshot.ai/v1/chat/completions",
    models: ["kimi-k2.5", "kimi-k2.6", "kimi-k2-thinking"],
    date: CHECKED,
    sources: ["sipeed/picoclaw#588", "continuedev/continue#11600", "danny-avila/LibreChat#11563"],
  },
  indexing: "messages",
  errorBody: { error: { message: "$message", type: "$type" } },
  errorFields: { type: "invalid_request_error" },
  note: "Kimi's own call ids (`functions.NAME:IDX`) are what its template expects: other ids are accepted by the API but degrade the model (no HTTP error). Anthropic and Mistral refuse Kimi's ids.",
  constraints: [
    {
      code: "reasoning_missing",
      summary: "An assistant message with calls without `reasoning_content` while thinking is on.",
      message:
        "thinking is enabled but reasoning_content is missing in assistant tool call message at index {index}",
      status: 400,
      fix: FIX.reasoningFill,
      evidence: "reported",
      sources: [
        "sipeed/picoclaw#588",
        "continuedev/continue#11600",
        "continuedev/continue#11711",
        "mastra-ai/mastra#12592",
        "Lapis0x0/obsidian-yolo#243",
      ],
    },
    {
      code: "arguments_not_object",
      summary: "Stored arguments that are not JSON object text.",
      message:
        "Invalid request: messages.{index}.tool_calls.{call}.function.arguments: arguments must be a valid JSON object string",
      status: 400,
      error: { type: "invalid_prompt" },
      fix: FIX.arguments,
      evidence: "inferred",
      sources: ["codegraff#752", "MoonshotAI/kimi-cli#2196"],
      note: "The report does not name the provider; the text's shape is Moonshot's. kimi-cli sanitizes stored arguments to `{}` for the same reason.",
    },
  ],
};

/** Alibaba Cloud Model Studio (DashScope), OpenAI-compatible mode. */
export const qwenDashscope: ProviderProfile = {
  id: "qwen-dashscope",
  name: "Qwen on DashScope (compatible mode)",
  checkedAgainst: {
    api: "POST https://dashscope.aliyuncs.com/compatible-mode/v1/chat/completions",
    models: ["qwen3.5-plus", "qwen3-coder-plus", "qwen-plus"],
    date: CHECKED,
    sources: ["HKUDS/nanobot#1487", "QwenLM/qwen-code#606"],
  },
  indexing: "messages",
  errorBody: OPENAI_BODY,
  errorFields: { type: "invalid_request_error", param: null, code: "invalid_parameter_error" },
  constraints: [
    {
      code: "arguments_invalid_json",
      summary: 'Stored arguments that are not JSON text (`""` included).',
      message:
        '<400> InternalError.Algo.InvalidParameter: The "function.arguments" parameter of the code model must be in JSON format.',
      status: 400,
      fix: FIX.arguments,
      evidence: "reported",
      sources: ["HKUDS/nanobot#1487", "HKUDS/nanobot#2469"],
    },
    {
      code: "tool_result_missing",
      summary: "A call without a tool result before the next assistant message.",
      message:
        '<400> InternalError.Algo.InvalidParameter: An assistant message with "tool_calls" must be followed by tool messages responding to each "tool_call_id". The following tool_call_ids did not have response messages: message[{index}].role',
      status: 400,
      fix: FIX.missing,
      evidence: "reported",
      sources: ["QwenLM/qwen-code#606"],
      note: "What DashScope names after the colon (`message[532].role` in the report) is not confirmed: it is written as the assistant message's index.",
    },
    {
      code: "tool_result_orphan",
      summary: "A tool result that answers no call of the assistant message before it.",
      message:
        '<400> InternalError.Algo.InvalidParameter: messages with role "tool" must be a response to a preceeding message with "tool_calls".',
      status: 400,
      fix: FIX.orphan,
      evidence: "reported",
      sources: ["philschmid/mcp-openai-gemini-llama-example#5"],
    },
  ],
};

/** Zhipu GLM (open.bigmodel.cn, z.ai). */
export const glm: ProviderProfile = {
  id: "glm",
  name: "Zhipu GLM API",
  checkedAgainst: {
    api: "POST https://open.bigmodel.cn/api/paas/v4/chat/completions (and api.z.ai)",
    models: ["glm-4.6", "glm-5", "glm-5.1"],
    date: CHECKED,
    sources: ["MetaGLM/zhipuai-sdk-python-v4#14", "lobehub#11408"],
  },
  indexing: "messages",
  errorBody: { error: { code: "$code", message: "$message" } },
  errorFields: { code: "1214" },
  note: "1214 is GLM's one answer for a message list it refuses; the triggers below are the ones reported.",
  constraints: [
    {
      code: "id_duplicate",
      summary: "A call id used twice in the history.",
      message: "The messages parameter is illegal. Please check the documentation.",
      status: 400,
      variants: ["messages 参数非法。请检查文档。"],
      fix: FIX.duplicate,
      evidence: "reported",
      sources: ["MetaGLM/zhipuai-sdk-python-v4#14"],
    },
    {
      code: "tool_result_missing",
      summary: "A call without a tool result before the next assistant message.",
      message: "The messages parameter is illegal. Please check the documentation.",
      status: 400,
      variants: [
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)",
      ],
      fix: FIX.missing,
      evidence: "inferred",
      sources: ["lobehub#11408", "continuedev/continue#13259"],
      note: "The reports show 1214 after calls; that a missing result is the trigger is our reading.",
    },
  ],
};

/** MiniMax. */
export const minimax: ProviderProfile = {
  id: "minimax",
  name: "MiniMax API",
  checkedAgainst: {
    api: "POST https://api.minimax.io/v1/chat/completions (and its Anthropic-compatible endpoint)",
    models: ["MiniMax-M2", "MiniMax-M2.5"],
    date: CHECKED,
    sources: ["HKUDS/nanobot#2858", "can1357/oh-my-pi#181"],
  },
  indexing: "messages",
  errorBody: { type: "error", error: { type: "$type", message: "$message", http_code: "400" } },
  errorFields: { type: "bad_request_error" },
  constraints: [
    {
      code: "arguments_invalid_json",
      summary: "Stored arguments that are not JSON text.",
      message: "invalid params, invalid function arguments json string, tool_call_id: {id} (2013)",
      status: 400,
      fix: FIX.arguments,
      evidence: "reported",
      sources: ["HKUDS/nanobot#2858", "can1357/oh-my-pi#181", "earendil-works/pi#5468"],
      note: "The body shape is from a report through MiniMax's Anthropic-compatible endpoint.",
    },
    {
      code: "tool_result_orphan",
      summary:
        "A tool result whose id no call of its turn has (a history cut after a call, a result replayed twice).",
      message: "invalid params, tool result's tool id({id}) not found (2013)",
      status: 400,
      fix: FIX.orphan,
      evidence: "reported",
      sources: ["MiniMax-AI/MiniMax-M2#76", "earendil-works/pi#5468"],
      note: "Seen with MiniMax-M2.1, M2.5 and M2.7; 2013 is MiniMax's code for every invalid parameter (also `invalid chat setting`, `function parameters is empty`).",
    },
    {
      code: "tool_results_interleaved",
      summary: "A message between a call and its result (Codex's chat mode puts one there).",
      message: "invalid params, tool result's tool id({id}) not found (2013)",
      status: 400,
      fix: FIX.interleaved,
      evidence: "inferred",
      sources: ["MiniMax-AI/MiniMax-M2#69"],
      note: "The report says MiniMax answers 2013 when a tool result does not follow its call right away; the text for that case was not captured, and is assumed to be the not-found one.",
    },
  ],
};

/** GroqCloud's OpenAI-compatible API. */
export const groq: ProviderProfile = {
  id: "groq",
  name: "Groq",
  checkedAgainst: {
    api: "POST https://api.groq.com/openai/v1/chat/completions",
    models: ["llama-3.3-70b-versatile", "openai/gpt-oss-120b", "moonshotai/kimi-k2-instruct"],
    date: CHECKED,
    sources: ["tidyverse/ellmer#162", "hackclub/ai#22"],
  },
  indexing: "messages",
  errorBody: { error: { message: "$message", type: "$type" } },
  errorFields: { type: "invalid_request_error" },
  constraints: [
    {
      code: "assistant_content_not_string",
      summary: "An assistant message whose content is not a string (`null` beside calls).",
      message:
        "'messages.{index}' : for 'role:assistant' the following must be satisfied[('messages.{index}.content' : value must be a string)]",
      status: 400,
      fix: FIX.contentString,
      evidence: "reported",
      sources: ["tidyverse/ellmer#162"],
      note: "Seen in 2024; whether Groq still refuses `null` beside calls is not confirmed.",
    },
    {
      code: "tool_result_id_missing",
      summary: "A tool result without a tool_call_id.",
      message:
        "'messages.{index}' : for 'role:tool' the following must be satisfied[('messages.{index}.tool_call_id' : property 'tool_call_id' is missing)]",
      status: 400,
      fix: FIX.orphan,
      evidence: "reported",
      sources: ["hackclub/ai#22"],
      note: "Seen through a Groq-backed proxy.",
    },
  ],
};

/** Cerebras Inference. */
export const cerebras: ProviderProfile = {
  id: "cerebras",
  name: "Cerebras Inference",
  checkedAgainst: {
    api: "POST https://api.cerebras.ai/v1/chat/completions",
    models: ["zai-glm-4.7", "llama-4-scout-17b-16e-instruct", "gpt-oss-120b"],
    date: CHECKED,
    sources: ["Alishahryar1/free-claude-code#1136", "livekit/agents#2403"],
  },
  indexing: "messages",
  errorBody: { message: "$message", type: "$type", param: "$param", code: "$code" },
  errorFields: { type: "invalid_request_error", param: "validation_error", code: "wrong_api_format" },
  constraints: [
    {
      code: "reasoning_rejected",
      summary: "An assistant message that carries `reasoning_content`.",
      message:
        "messages.{index}.assistant.reasoning_content: property 'messages.{index}.assistant.reasoning_content' is unsupported",
      status: 400,
      params: { reasoningMove: "content-think" },
      fix: FIX.reasoningThink,
      evidence: "reported",
      sources: ["Alishahryar1/free-claude-code#1136"],
      note: "The report shows the text followed by `...`: it may go on.",
    },
    {
      code: "assistant_content_not_string",
      summary: "An assistant message with `null` content (beside calls).",
      message: "'NoneType' object is not iterable",
      status: 400,
      error: { param: "messages" },
      fix: FIX.contentString,
      evidence: "inferred",
      sources: ["livekit/agents#2403"],
      note: "The report shows this after a call; that `null` content is the cause is our reading.",
    },
  ],
};

const COHERE_MISSING =
  "invalid request: An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: {ids}";

/** Cohere's v2 Chat API (Command A and later), whose messages follow OpenAI Chat's shapes plus `tool_plan`. */
export const cohere: ProviderProfile = {
  id: "cohere",
  name: "Cohere Chat API v2",
  checkedAgainst: {
    api: "POST https://api.cohere.com/v2/chat",
    models: ["command-a-03-2025", "command-r7b-12-2024"],
    date: CHECKED,
    sources: ["oracle/langchain-oracle#10", "vercel/ai#5794", "https://docs.cohere.com/v2/docs/tool-use"],
  },
  indexing: "messages",
  errorBody: { message: "$message" },
  note: "Command R and R+ did not require a result after each call; Command A does (oracle/langchain-oracle#10).",
  constraints: [
    {
      code: "tool_result_missing",
      summary: "An assistant message with calls not followed by a tool message for each call.",
      message: COHERE_MISSING,
      status: 400,
      fix: FIX.missing,
      evidence: "reported",
      sources: ["oracle/langchain-oracle#10"],
      note: "Seen with command-a-03-2025 when an integration stripped tool messages from the history.",
    },
    {
      code: "tool_results_interleaved",
      summary: "Another message between an assistant message with calls and the calls' results.",
      message: COHERE_MISSING,
      status: 400,
      fix: FIX.interleaved,
      evidence: "inferred",
      sources: ["oracle/langchain-oracle#10"],
      note: "The text asks for tool messages to follow the calls; the same answer for results that come late is assumed.",
    },
    {
      code: "text_beside_calls",
      summary: "An assistant message with calls whose content holds text (a plan goes in `tool_plan`).",
      message:
        "text content is not allowed when tool_calls are provided. If you wish to pass a tool plan, either pass thinking content (with thinking enabled) or use 'tool_plan': 'messages[{index}].content[{part}]'",
      status: 400,
      fix: "The text moves to the message's `tool_plan` when it has none (its other content parts stay); a message that already has a plan is left as it is (merging two plans has no single answer), so that history is still refused.",
      evidence: "reported",
      sources: ["vercel/ai#5794"],
      note: "Seen when an SDK wrote the model's text beside its calls as `content` on the next request. The text names the content part; for a list whose text is not its first part, the part number given here (0) is inferred.",
    },
  ],
};
