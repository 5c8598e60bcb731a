import type { ProviderProfile } from "../provider-profile.js";
import { CHECKED, FIX, OPENAI_BODY } from "./shared.js";

const MISSING_RESULTS =
  "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: {ids}";

/** OpenAI Chat Completions. */
export const openaiChat: ProviderProfile = {
  id: "openai-chat",
  name: "OpenAI Chat Completions",
  checkedAgainst: {
    api: "POST https://api.openai.com/v1/chat/completions",
    models: ["gpt-4o", "gpt-4.1", "gpt-5", "o4-mini"],
    date: CHECKED,
    sources: ["sdcb/chats#132", "BerriAI/litellm#10083", "agno-agi/agno#5382", "mcp-use/mcp-use#94"],
  },
  indexing: "messages",
  errorBody: OPENAI_BODY,
  errorFields: { type: "invalid_request_error", param: null, code: null },
  note: "OpenAI does not parse stored arguments: malformed arguments text is accepted here (and refused by the servers that parse it).",
  constraints: [
    {
      code: "tool_result_missing",
      summary: "A call without a tool result before the next assistant message.",
      message: MISSING_RESULTS,
      status: 400,
      error: { param: "messages.[{next_index}].role" },
      fix: FIX.missing,
      evidence: "reported",
      sources: ["sdcb/chats#132", "BerriAI/litellm#10083", "aliasrobotics/cai#111"],
    },
    {
      code: "tool_results_interleaved",
      summary: "Another message between an assistant message with calls and the calls' results.",
      message: MISSING_RESULTS,
      status: 400,
      error: { param: "messages.[{next_index}].role" },
      fix: FIX.interleaved,
      evidence: "inferred",
      sources: ["sdcb/chats#132"],
      note: "The text says results must follow the calls; a report of this exact history was not found.",
    },
    {
      code: "tool_result_orphan",
      summary: "A tool result that answers no call of the assistant message before it.",
      message:
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
      status: 400,
      error: { param: "messages.[{index}].role" },
      variants: [
        "Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls'.",
      ],
      fix: FIX.orphan,
      evidence: "reported",
      sources: ["miurla/morphic#136", "openai/openai-go#43", "sdcb/chats#132", "run-llama/llama_index#10493"],
      note: "`preceeding` is OpenAI's spelling; a later report shows `preceding`.",
    },
    {
      code: "tool_result_id_missing",
      summary: "A tool result without a tool_call_id.",
      message: "Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.",
      status: 400,
      error: { param: "messages.[{index}].tool_call_id" },
      fix: FIX.orphan,
      evidence: "reported",
      sources: ["MadcowD/ell#325"],
    },
    {
      code: "tool_call_id_invalid",
      summary: "A call id longer than 40 characters.",
      message:
        "Invalid 'messages[{index}].tool_calls[{call}].id': string too long. Expected a string with maximum length 40, but got a string with length {length} instead.",
      status: 400,
      error: { param: "messages[{index}].tool_calls[{call}].id", code: "string_above_max_length" },
      params: { maxLength: 40, idStyle: "shorten" },
      fix: FIX.shorten,
      evidence: "reported",
      sources: ["agno-agi/agno#5382", "camel-ai/camel#2215", "microsoft/autogen#6377", "vercel/ai#17233"],
      note: "vercel/ai#17233 (2026-07) could not reproduce it: a 51-character id was accepted. 40 is kept as the safe limit.",
    },
    {
      code: "name_invalid",
      summary: "A function name in the history outside ^[a-zA-Z0-9_-]+$.",
      message:
        "Invalid 'messages[{index}].tool_calls[{call}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
      status: 400,
      error: { param: "messages[{index}].tool_calls[{call}].function.name", code: "invalid_value" },
      params: { pattern: "^[a-zA-Z0-9_-]+$", maxLength: 64 },
      fix: FIX.name,
      evidence: "reported",
      sources: ["mcp-use/mcp-use#90", "mcp-use/mcp-use#94", "danishjsheikh/swagger-mcp#13"],
      note: "Some routes (o4-mini via Microsoft) show the pattern '^[a-zA-Z0-9_\\.-]+$': dots allowed there.",
    },
  ],
};

/** The OpenAI Responses API, with reasoning models. */
export const openaiResponses: ProviderProfile = {
  id: "openai-responses",
  name: "OpenAI Responses API (reasoning models)",
  checkedAgainst: {
    api: "POST https://api.openai.com/v1/responses",
    models: ["gpt-5", "gpt-5.2", "gpt-5.5"],
    date: CHECKED,
    sources: ["continuedev/continue#10018", "continuedev/continue#10092", "continuedev/continue#8933"],
  },
  indexing: "items",
  errorBody: OPENAI_BODY,
  errorFields: { type: "invalid_request_error", param: "input", code: null },
  note: "In core's neutral view a call's stored item id is `tool_calls[i].extra_content.openai.item_id` and reasoning items are `reasoning_details` entries with `format: \"openai-responses-v1\"` (`sanitizeResponsesInput` of @toolcall/openai builds them from input items).",
  constraints: [
    {
      code: "tool_result_missing",
      summary: "A function_call without its function_call_output.",
      message: "No tool output found for function call {id}.",
      status: 400,
      fix: FIX.missing,
      evidence: "reported",
      sources: ["Azure/azure-sdk-for-python#46092", "lace-ai/gai#49"],
    },
    {
      code: "tool_result_orphan",
      summary: "A function_call_output whose call_id no function_call has.",
      message: "No tool call found for function call output with call_id {id}.",
      status: 400,
      fix: FIX.orphan,
      evidence: "reported",
      sources: ["continuedev/continue#10092", "james-6-23/codex2api#414", "microsoft/vscode#320060"],
    },
    {
      code: "reasoning_item_missing",
      summary: "A stored function_call item sent without the reasoning item that preceded it.",
      message:
        "Item '{item_id}' of type 'function_call' was provided without its required 'reasoning' item: '{reasoning_id}'.",
      status: 400,
      fix: FIX.itemId,
      evidence: "reported",
      sources: [
        "continuedev/continue#10018",
        "continuedev/continue#10880",
        "cline/cline#12242",
        "0xPlaygrounds/rig#751",
        "anomalyco/opencode:packages/opencode/src/provider/transform.ts",
      ],
      note: "The reasoning item's id is not in the history when it was dropped: it is written `…`.",
    },
    {
      code: "reasoning_item_orphan",
      summary: "A reasoning item with nothing after it.",
      message: "Item '{reasoning_id}' of type 'reasoning' was provided without its required following item.",
      status: 400,
      fix: FIX.reasoningOrphan,
      evidence: "reported",
      sources: ["continuedev/continue#8933", "vercel/ai#7099", "vercel/ai#8379"],
    },
    {
      code: "id_duplicate",
      summary:
        "A function_call sent twice (the same call replayed in a later turn, or two calls sharing an id).",
      message:
        "Duplicate item found with id {item_id}. Remove duplicate items from your input and try again.",
      status: 400,
      variants: ["Duplicate 'call_id': {id}"],
      fix: FIX.duplicate,
      evidence: "reported",
      sources: [
        "openai/openai-agents-python#1789",
        "vercel/ai#13383",
        "MacPaw/OpenAI#432",
        "earendil-works/pi#9057",
      ],
      note: "OpenAI names the repeated item's own id (`fc_…`, the call's `extra_content.openai.item_id` in core's view), written `…` when the history does not keep it. The variant is an OpenAI-compatible Responses endpoint's wording for a repeated `call_id` (earendil-works/pi#9057).",
    },
  ],
};
