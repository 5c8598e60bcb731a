import type { ProviderConstraint, ProviderProfile } from "../provider-profile.js";
import { VLLM_ARGUMENTS } from "./open-servers.js";
import { BRIDGE_ASSISTANT, CHECKED, FIX } from "./shared.js";

const ID_TEXT = "Tool call id was {id} but must be a-z, A-Z, 0-9, with a length of 9.";
const COUNT = "Not the same number of function calls and responses";
const USER_AFTER_TOOL = "Unexpected role 'user' after role 'tool'";
const TOOL_AFTER = "Unexpected role 'tool' after role '{previous_role}'";
const VALIDATOR = "mistralai/mistral-common:src/mistral_common/protocol/instruct/validator.py";

/** Mistral's La Plateforme API, as its stricter models validate a history (mistral_common's validator). */
export const mistral: ProviderProfile = {
  id: "mistral",
  name: "Mistral API (La Plateforme)",
  checkedAgainst: {
    api: "POST https://api.mistral.ai/v1/chat/completions",
    models: ["mistral-large-latest", "mistral-medium-2505", "devstral-medium-2512", "devstral-medium-latest"],
    date: CHECKED,
    sources: ["anomalyco/opencode#1680", "karthink/gptel#1203", "zed-industries/zed#37021", VALIDATOR],
  },
  indexing: "messages",
  errorBody: { object: "error", message: "$message", type: "$type", param: "$param", code: "$code" },
  errorFields: { type: "invalid_request_error", param: null, code: null },
  note: "mistral-small-2603 (mistral-small-latest in 2026) was seen accepting other ids and a user message after a tool result; this profile keeps the rules of the stricter models (and of mistral_common, which self-hosted servers run).",
  constraints: [
    {
      code: "tool_call_id_invalid",
      summary: "A call id that is not exactly nine letters and digits.",
      message: ID_TEXT,
      status: 400,
      error: { type: "invalid_function_call", code: "3280" },
      params: { pattern: "^[a-zA-Z0-9]{9}$", idStyle: "alnum9" },
      fix: FIX.alnum9,
      evidence: "documented",
      sources: [VALIDATOR, "anomalyco/opencode#1680", "karthink/gptel#1203", "nearai/ironclaw#1241"],
      note: "Until 2025 the body said `type: invalid_request_error`, `code: null` (BibekBhusal0/zen-custom-js#7).",
    },
    {
      code: "user_after_tool",
      summary: "A user message right after a tool result.",
      message: USER_AFTER_TOOL,
      status: 400,
      error: { type: "invalid_request_message_order", code: "3230" },
      params: { bridgeContent: BRIDGE_ASSISTANT },
      fix: FIX.bridgeAssistant,
      evidence: "reported",
      sources: [
        "datapizza-labs/datapizza-ai#98",
        "zed-industries/zed#37021",
        "NousResearch/hermes-agent#20154",
      ],
    },
    {
      code: "tool_result_missing",
      summary: "An assistant message with more calls than tool results before the next assistant message.",
      message: COUNT,
      status: 400,
      error: { type: "invalid_request_message_order", code: "3230" },
      fix: FIX.missing,
      evidence: "documented",
      sources: [VALIDATOR, "mistralai/client-ts#106", "mistralai/client-python#234", "camel-ai/camel#1467"],
      note: "Older bodies said `type: invalid_request_error`, `code: null` (mistralai/client-ts#106).",
    },
    {
      code: "tool_results_interleaved",
      summary: "A tool result after a message that is not an assistant message or another tool result.",
      message: TOOL_AFTER,
      status: 400,
      error: { type: "invalid_request_message_order", code: "3230" },
      fix: FIX.interleaved,
      evidence: "reported",
      sources: ["charmbracelet/crush#279", VALIDATOR],
    },
    {
      code: "tool_result_orphan",
      summary: "A tool result that answers no call of the assistant message before it.",
      message: TOOL_AFTER,
      messageAfter: { roles: ["assistant", "tool"], message: "Unexpected tool call id {id} in tool results" },
      status: 400,
      error: { type: "invalid_request_message_order", code: "3230" },
      variants: [COUNT],
      fix: FIX.orphan,
      evidence: "reported",
      sources: ["nextcloud/context_agent#140", VALIDATOR],
      note: "After a user or system message the role is refused; after an assistant message or a tool result the id is (`Unexpected tool call id Wr0ngId99 in tool results`, seen with mistral-small in 2026, in public notes whose repository the search index does not name); older validators counted calls and results instead.",
    },
    {
      code: "tool_result_id_missing",
      summary: "A tool result without a tool_call_id.",
      message: "Tool call id has to be defined.",
      status: 400,
      fix: FIX.orphan,
      evidence: "documented",
      sources: [VALIDATOR, "Gage-Technologies/mistral-go#8"],
    },
  ],
};

const VLLM_SOURCE = "vllm-project/vllm:vllm/tokenizers/mistral.py (truncate_tool_call_ids)";

/** vLLM serving a Mistral model with `--tokenizer-mode mistral` (mistral_common validates the history). */
const vllmMistralConstraints: ProviderConstraint[] = [
  {
    code: "tool_call_id_invalid",
    summary:
      "A call id whose last nine characters are not nine letters and digits (vLLM keeps the last nine of a longer id).",
    message: ID_TEXT,
    status: 400,
    params: { pattern: "^[a-zA-Z0-9]{9}$", keepLast: 9, idStyle: "alnum9" },
    fix: FIX.alnum9,
    evidence: "documented",
    sources: [VLLM_SOURCE, VALIDATOR, "mistralai/mistral-vibe#1075"],
    note: "The id in the text is the truncated one (`Tool call id was 0540141_3 …` for `tc_1787000540141_3`).",
  },
  {
    code: "user_after_tool",
    summary: "A user message right after a tool result.",
    message: USER_AFTER_TOOL,
    status: 400,
    params: { bridgeContent: BRIDGE_ASSISTANT },
    fix: FIX.bridgeAssistant,
    evidence: "reported",
    sources: ["mistralai/mistral-vibe#578"],
  },
  {
    code: "tool_result_missing",
    summary: "An assistant message with more calls than tool results before the next assistant message.",
    message: COUNT,
    status: 400,
    fix: FIX.missing,
    evidence: "documented",
    sources: [VALIDATOR],
  },
  {
    code: "tool_results_interleaved",
    summary: "A tool result after a message that is not an assistant message or another tool result.",
    message: TOOL_AFTER,
    status: 400,
    fix: FIX.interleaved,
    evidence: "documented",
    sources: [VALIDATOR],
  },
  VLLM_ARGUMENTS,
];

export const mistralVllm: ProviderProfile = {
  id: "mistral-vllm",
  name: "vLLM serving Mistral models (mistral_common)",
  checkedAgainst: {
    api: "vLLM POST /v1/chat/completions, --tokenizer-mode mistral",
    models: ["Devstral-Small-2", "Mistral-Small-4"],
    date: CHECKED,
    sources: [VLLM_SOURCE, "mistralai/mistral-vibe#578", "mistralai/mistral-vibe#1075"],
  },
  indexing: "messages",
  errorBody: { error: { message: "$message", type: "$type", param: "$param", code: "$code" } },
  errorFields: { type: "BadRequestError", param: null, code: 400 },
  constraints: vllmMistralConstraints,
};
