import type { ProviderProfile } from "../provider-profile.js";
import { CHECKED, FIX } from "./shared.js";

const MISSING_RESULTS =
  "messages.{index}: `tool_use` ids were found without `tool_result` blocks immediately after: {ids}. Each `tool_use` block must have a corresponding `tool_result` block in the next message.";

/** The Anthropic Messages API (directly, or through Vertex AI and Bedrock's Anthropic route). */
export const anthropic: ProviderProfile = {
  id: "anthropic",
  name: "Anthropic Messages",
  checkedAgainst: {
    api: "POST https://api.anthropic.com/v1/messages",
    models: ["claude-sonnet-4-5", "claude-opus-4-6", "claude-opus-4-8"],
    date: CHECKED,
    sources: ["anthropics/claude-code#1237", "anthropics/claude-code#13460", "LibreChat-AI/agents#124"],
  },
  indexing: "merged-roles",
  errorBody: { type: "error", error: { type: "$type", message: "$message" } },
  errorFields: { type: "invalid_request_error" },
  note: "Messages are numbered as Anthropic numbers them: system messages leave the list and a run of tool results and user messages is one user message. Thinking blocks (and their signatures) are not in core's neutral view: they are the Anthropic adapter's to keep.",
  constraints: [
    {
      code: "tool_call_id_invalid",
      summary:
        "A tool_use id outside ^[a-zA-Z0-9_-]+$ (Kimi's `functions.NAME:0`, ids with `.` `:` `/` `@`).",
      message: "messages.{index}.content.{part}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
      status: 400,
      params: { pattern: "^[a-zA-Z0-9_-]+$", idStyle: "replace-invalid" },
      fix: FIX.replaceInvalid,
      evidence: "reported",
      sources: [
        "CommandCodeAI/command-code#323",
        "BlockRunAI/ClawRouter#17",
        "maximhq/bifrost#5097",
        "tailcallhq/forgecode#1142",
      ],
    },
    {
      code: "tool_result_missing",
      summary: "A tool_use without a tool_result in the next message.",
      message: MISSING_RESULTS,
      status: 400,
      fix: FIX.missing,
      evidence: "reported",
      sources: ["anthropics/claude-code#1237", "anthropics/claude-code#2697", "anthropics/claude-code#5989"],
    },
    {
      code: "tool_results_interleaved",
      summary: "Another message between a tool_use and its tool_result.",
      message: MISSING_RESULTS,
      status: 400,
      fix: FIX.interleaved,
      evidence: "inferred",
      sources: ["anthropics/claude-code#1237"],
      note: 'The text itself asks for the results "immediately after", "in the next message"; a report of this exact history was not found.',
    },
    {
      code: "tool_result_orphan",
      summary: "A tool_result whose tool_use_id no tool_use of the previous message has.",
      message:
        "messages.{index}.content.{part}: unexpected `tool_use_id` found in `tool_result` blocks: {id}. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.",
      status: 400,
      fix: FIX.orphan,
      evidence: "reported",
      sources: ["anthropics/claude-code#13460", "anthropics/claude-code#18947", "microsoft/vscode#267838"],
    },
    {
      code: "id_duplicate",
      summary:
        "A tool_use id used by an earlier tool_use of the request (a call id reused by another provider, a turn replayed twice).",
      message: "messages.{index}.content.{part}: `tool_use` ids must be unique",
      status: 400,
      variants: ["messages.{index}.content.{part}: tool_use ids must be unique"],
      fix: FIX.duplicate,
      evidence: "reported",
      sources: [
        "anthropics/claude-code#20901",
        "anthropics/claude-code#28515",
        "trycua/cua#524",
        "anomalyco/opencode#1279",
        "vastsa/PI-Desktop#718",
      ],
      note: "The variant (without backticks) is seen in later reports. DeepSeek's Anthropic-compatible endpoint answers the same text (vastsa/PI-Desktop#718).",
    },
    {
      code: "arguments_not_object",
      summary: "A tool_use input that is not an object (text, an array, `[]` from PHP).",
      message: "messages.{index}.content.{part}.tool_use.input: Input should be a valid dictionary",
      status: 400,
      fix: FIX.arguments,
      evidence: "reported",
      sources: [
        "anthropics/claude-code#6696",
        "anthropics/anthropic-sdk-typescript#648",
        "prism-php/prism#659",
      ],
    },
    {
      code: "text_content_empty",
      summary: 'An empty text block (`""` content, or an empty text part), anywhere.',
      message: "messages: text content blocks must be non-empty",
      status: 400,
      fix: FIX.blankText,
      evidence: "reported",
      sources: ["anthropics/claude-code#59812", "LibreChat-AI/agents#124", "BiFangKNT/mtga#68"],
    },
    {
      code: "text_content_whitespace",
      summary: 'A message whose only text is whitespace (`"\\n\\n"` beside calls, as Claude itself returns).',
      message: "messages: text content blocks must contain non-whitespace text",
      status: 400,
      fix: FIX.blankText,
      evidence: "reported",
      sources: [
        "anthropics/claude-code#23440",
        "home-assistant/core#175637",
        "LibreChat-AI/agents#124",
        "anomalyco/opencode#31259",
      ],
    },
  ],
};

const BLANK_BLOCK =
  "The text field in the ContentBlock object at messages.{index}.content.{part} is blank. Add text to the text field, and try again.";

/** AWS Bedrock Converse (every model family it serves: Claude, Llama, Nova, Mistral, Kimi, GLM…). */
export const bedrockConverse: ProviderProfile = {
  id: "bedrock-converse",
  name: "AWS Bedrock Converse",
  checkedAgainst: {
    api: "POST /model/{modelId}/converse (bedrock-runtime)",
    models: [
      "anthropic.claude-sonnet-4",
      "meta.llama4-maverick",
      "moonshot.kimi-k2-thinking",
      "amazon.nova-micro",
      "zai.glm-5",
    ],
    date: CHECKED,
    sources: [
      "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolUseBlock.html",
      "pydantic/pydantic-ai:tests/models/cassettes/test_bedrock@4fda38988f2939fa6ea9cdefcf120693e10ef491",
      "pydantic/pydantic-ai#2327",
    ],
  },
  indexing: "merged-roles",
  errorBody: { message: "$message" },
  errorHeaders: { "x-amzn-errortype": "ValidationException" },
  note: "A request whose history holds toolUse or toolResult blocks must also carry `toolConfig` (\"The toolConfig field must be defined when using toolUse and toolResult content blocks.\"): that is the request's, not the history's, and `@toolcall/bedrock` checks it. Some models on Converse (Llama 4) also refuse text and tool blocks in one turn; that is model-specific and not checked here.",
  constraints: [
    {
      code: "tool_call_id_invalid",
      summary: "A toolUseId outside [a-zA-Z0-9_.:-]+ or longer than 64 characters.",
      message:
        "1 validation error detected: Value '{id}' at 'messages.{index}.member.content.{part}.member.toolUse.toolUseId' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_.:-]+",
      status: 400,
      params: { pattern: "^[a-zA-Z0-9_.:-]+$", maxLength: 64, idStyle: "replace-invalid" },
      fix: FIX.replaceInvalid,
      evidence: "documented",
      sources: [
        "https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolUseBlock.md",
        "pydantic/pydantic-ai:tests/models/cassettes/test_bedrock/test_bedrock_moonshotai_tool_call.yaml@4fda38988f2939fa6ea9cdefcf120693e10ef491",
      ],
      note: "The pattern and length are documented (older pages said [a-zA-Z0-9_-]+; Kimi's `functions.get_temperature:0` was answered 200 in the recording named). The text is AWS's usual validation wording, not seen for this field (AWS may number from 1).",
    },
    {
      code: "tool_result_missing",
      summary: "A toolUse without toolResult blocks in the next message.",
      message: "Expected toolResult blocks at messages.{next_index}.content for the following Ids: {ids}",
      status: 400,
      fix: FIX.missing,
      evidence: "reported",
      sources: ["zeroclaw-labs/zeroclaw#1476", "gethnet/litellm-connector-copilot#101"],
    },
    {
      code: "tool_results_interleaved",
      summary: "Another message between a toolUse and its toolResult.",
      message: "Expected toolResult blocks at messages.{next_index}.content for the following Ids: {ids}",
      status: 400,
      fix: FIX.interleaved,
      evidence: "inferred",
      sources: ["strands-agents/sdk-python#120"],
      note: "Bedrock wants the toolResult right after its toolUse (strands#120); the text for this case is the missing-results one, assumed.",
    },
    {
      code: "tool_result_orphan",
      summary: "More toolResult blocks than the previous turn has toolUse blocks.",
      message:
        "The number of toolResult blocks at messages.{index}.content exceeds the number of toolUse blocks of previous turn.",
      status: 400,
      fix: FIX.orphan,
      evidence: "reported",
      sources: ["pydantic/pydantic-ai#2327", "evalstate/fast-agent#624"],
    },
    {
      code: "arguments_not_object",
      summary: "A toolUse input that is not a JSON object.",
      message:
        "The format of the value at messages.{index}.content.{part}.toolUse.input is invalid. Provide a json object for the field and try again.",
      status: 400,
      fix: FIX.arguments,
      evidence: "inferred",
      sources: ["sigoden/aichat#1550"],
      note: "The report shows this text for toolResult.content.json; the toolUse.input wording is assumed to match.",
    },
    {
      code: "text_content_empty",
      summary: 'An empty text block (`{"text": ""}`), or a message with no block at all.',
      message: BLANK_BLOCK,
      status: 400,
      variants: [
        "The content field in the Message object at messages.{index} is empty. Add a ContentBlock object to the content field and try again.",
      ],
      fix: FIX.blankText,
      evidence: "reported",
      sources: [
        "continuedev/continue#9767",
        "OpenHands/OpenHands#5339",
        "boto/botocore#3525",
        "earendil-works/pi#3443",
      ],
      note: "The variant is the answer for a message whose content list is empty (earendil-works/pi#3443).",
    },
    {
      code: "text_content_whitespace",
      summary: "A text block of whitespace only.",
      message: BLANK_BLOCK,
      status: 400,
      fix: FIX.blankText,
      evidence: "inferred",
      sources: ["continuedev/continue#9232", "earendil-works/pi#3443"],
      note: 'Bedrock calls the text "blank"; that whitespace-only text is refused the same way is what clients that trim before sending assume (pi#3443 skips text whose trim is empty).',
    },
  ],
};
