import type { ProviderConstraint, ProviderProfile } from "../provider-profile.js";
import { CHECKED, FIX, OPENAI_BODY } from "./shared.js";

const JSON_ERROR_NOTE =
  "The provider words the parse error in its own parser's terms; {json_error} is ours for the same failure.";

/** vLLM parses every stored arguments text with json.loads before the template runs. */
export const VLLM_ARGUMENTS: ProviderConstraint = {
  code: "arguments_invalid_json",
  summary: 'Stored arguments that are not JSON text (`""` reads as `{}`).',
  message: "{json_error}",
  status: 400,
  params: { allowEmpty: true },
  fix: FIX.arguments,
  evidence: "documented",
  sources: [
    "vllm-project/vllm:vllm/entrypoints/chat_utils.py (_postprocess_messages)",
    "vllm-project/vllm#43995",
    "local-inference-lab/vllm#684",
    "OpenHands/software-agent-sdk#2887",
  ],
  note: `The text is Python's json.JSONDecodeError message (\`Unterminated string starting at: line 1 column 1121 (char 1120)\`). ${JSON_ERROR_NOTE} Python's json.loads also takes NaN and Infinity, which this check refuses.`,
};

/** vLLM's OpenAI-compatible server (chat templates from Hugging Face). */
export const vllm: ProviderProfile = {
  id: "vllm",
  name: "vLLM",
  checkedAgainst: {
    api: "vLLM POST /v1/chat/completions and /v1/responses",
    models: ["vLLM with json.loads of stored arguments in chat_utils (2025–2026)"],
    date: CHECKED,
    sources: [
      "vllm-project/vllm:vllm/entrypoints/chat_utils.py (_postprocess_messages)",
      "vllm-project/vllm#43995",
    ],
  },
  indexing: "messages",
  errorBody: { error: { message: "$message", type: "$type", param: "$param", code: "$code" } },
  errorFields: { type: "BadRequestError", param: null, code: 400 },
  note: 'vLLM parses every stored arguments text with json.loads before the template runs; `""` and `null` read as `{}`. Non-object JSON passes here and then depends on the template.',
  constraints: [VLLM_ARGUMENTS],
};

/** SGLang's OpenAI-compatible server. */
export const sglang: ProviderProfile = {
  id: "sglang",
  name: "SGLang",
  checkedAgainst: {
    api: "SGLang POST /v1/chat/completions",
    models: ["SGLang after PR #28035 (2026-06)"],
    date: CHECKED,
    sources: ["sgl-project/sglang#28035", "sgl-project/sglang#6556", "mudler/LocalAI#10558"],
  },
  indexing: "messages",
  errorBody: { object: "error", message: "$message", type: "$type", param: "$param", code: "$code" },
  errorFields: { type: "BadRequestError", param: null, code: 400 },
  constraints: [
    {
      code: "arguments_not_object",
      summary: "Stored arguments that do not parse to a JSON object.",
      message: "'str object' has no attribute 'items'",
      status: 400,
      fix: FIX.arguments,
      evidence: "inferred",
      sources: ["sgl-project/sglang#28035", "sgl-project/sglang#6556", "mudler/LocalAI#10558"],
      note: "SGLang parses stored arguments and (since #28035) wants an object, with a text that was not captured; before it, text that failed to parse stayed a string and templates failed with this text.",
    },
  ],
};

/** llama.cpp's llama-server. */
export const llamaCpp: ProviderProfile = {
  id: "llama.cpp",
  name: "llama.cpp (llama-server)",
  checkedAgainst: {
    api: "llama-server POST /v1/chat/completions (--jinja)",
    models: ["templates that take object arguments: GLM, Qwen3 and most recent ones"],
    date: CHECKED,
    sources: ["ggml-org/llama.cpp#25510", "ggml-org/llama.cpp:common/chat.cpp (func_args_not_string)"],
  },
  indexing: "messages",
  errorBody: { error: { code: "$status", message: "$message", type: "$type" } },
  errorFields: { type: "server_error" },
  constraints: [
    {
      code: "arguments_invalid_json",
      summary: 'Stored arguments that are not JSON text (`""` included).',
      message: "Failed to parse tool call arguments as JSON: {json_error}",
      status: 500,
      fix: FIX.arguments,
      evidence: "documented",
      sources: [
        "ggml-org/llama.cpp:common/chat.cpp (func_args_not_string)",
        "ggml-org/llama.cpp#25510",
        "ggml-org/llama.cpp#22948",
        "ggml-org/llama.cpp#21771",
      ],
      note: `Answered with HTTP 500, not 4xx. ${JSON_ERROR_NOTE} (nlohmann::json: \`[json.exception.parse_error.101] parse error at line 1, column 2: …\`)`,
    },
  ],
};

/** Ollama's OpenAI-compatible endpoint. */
export const ollama: ProviderProfile = {
  id: "ollama",
  name: "Ollama (OpenAI-compatible endpoint)",
  checkedAgainst: {
    api: "Ollama POST /v1/chat/completions",
    models: ["any"],
    date: CHECKED,
    sources: ["ollama/ollama:openai/openai.go@00988753ff743bf26117964f6e43f9ebf10bce30"],
  },
  indexing: "messages",
  errorBody: OPENAI_BODY,
  errorFields: { type: "invalid_request_error", param: null, code: null },
  note: "The native /api/chat wants arguments as a JSON object value and answers `json: cannot unmarshal string into Go struct field ChatRequest.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments` (aliasrobotics/cai#76).",
  constraints: [
    {
      code: "arguments_not_object",
      summary: 'Stored arguments that do not unmarshal to a JSON object (`""`, arrays, broken text).',
      message: "invalid tool call arguments",
      status: 400,
      fix: FIX.arguments,
      evidence: "documented",
      sources: [
        "ollama/ollama:openai/openai.go@00988753ff743bf26117964f6e43f9ebf10bce30 (FromCompletionToolCall)",
        "aliasrobotics/cai#76",
      ],
      note: "Whether Go's decoder takes the text `null` here was not checked; this check refuses it, and the fix sends `{}`.",
    },
  ],
};

/** Ollama's native endpoint, which takes a call's `arguments` as a JSON object value. */
export const ollamaNative: ProviderProfile = {
  id: "ollama-native",
  name: "Ollama (native /api/chat)",
  checkedAgainst: {
    api: "Ollama POST /api/chat",
    models: ["any"],
    date: CHECKED,
    sources: ["aliasrobotics/cai#76", "neuron-core/neuron-ai#219"],
  },
  indexing: "messages",
  errorBody: { error: "$message" },
  note: "In core's neutral view a call's arguments are text; the `ollama-chat` format reads Ollama's objects as their text and writes them back as objects, so the check refuses what cannot be written back as one. Results name their call by `tool_name` and are paired by position; there is no id to refuse.",
  constraints: [
    {
      code: "arguments_not_object",
      summary:
        "Arguments that are not a JSON object (text that is not one is sent as a string, which Go cannot unmarshal).",
      message:
        "json: cannot unmarshal string into Go struct field ChatRequest.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments",
      status: 400,
      fix: FIX.arguments,
      evidence: "reported",
      sources: ["aliasrobotics/cai#76", "neuron-core/neuron-ai#219"],
      note: "An array is refused the same way with `array` for `string` in Go's words (the text seen for arrays was an output parse, langchain-ai/langchain#36550). A report through farfalle saw HTTP 500 for the same text.",
    },
  ],
};
