import type { ProviderConstraint, ProviderProfile } from "../provider-profile.js";
import { BRIDGE_USER, CHECKED, FIX, SKIP_SIGNATURE } from "./shared.js";

const COUNT =
  "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.";
const RESPONSE_POSITION =
  "Please ensure that function response turn comes immediately after a function call turn.";

/** What Gemini 3 refuses, on its native API and on its OpenAI-compatible endpoint alike. */
const constraints: ProviderConstraint[] = [
  {
    code: "thought_signature_missing",
    summary:
      "A call of the current turn (after the last user message) without its thought signature (Gemini 3 models).",
    message:
      "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:{name}` , position {index}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",
    status: 400,
    variants: [
      "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:{name}` , position {index}. please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",
      "Unable to submit request because function call `{name}` in the {index}. content block is missing a `thought_signature`.",
    ],
    params: { signature: SKIP_SIGNATURE },
    fix: FIX.signature,
    evidence: "documented",
    sources: [
      "https://ai.google.dev/gemini-api/docs/thought-signatures",
      "https://docs.cloud.google.com/vertex-ai/generative-ai/docs/thought-signatures",
      "manthanabc/paws#103",
      "csells/dartantic#86",
      "nanbingxyz/5ire#405",
      "strands-agents/sdk-python#1298",
    ],
    note: "`position` is written as the message's index in `contents`; what Gemini counts there is not confirmed. Gemini 2.5 does not refuse unsigned calls (nanbingxyz/5ire#405), and only the current turn is validated.",
  },
  {
    code: "function_call_position",
    summary:
      "A model turn with calls that does not follow a user turn or a function response (first, or after a model turn).",
    message:
      "Please ensure that function call turn comes immediately after a user turn or after a function response turn.",
    status: 400,
    params: { bridgeContent: BRIDGE_USER },
    fix: FIX.bridgeUser,
    evidence: "reported",
    sources: [
      "google-gemini/gemini-cli#11814",
      "google-gemini/gemini-cli#26486",
      "continuedev/continue#11164",
      "Antigravity-Manager#3396",
    ],
  },
  {
    code: "tool_result_missing",
    summary: "Fewer function responses than the function call turn has calls.",
    message: COUNT,
    status: 400,
    fix: FIX.missing,
    evidence: "reported",
    sources: [
      "google-gemini/gemini-cli#4217",
      "google-gemini/gemini-cli#5443",
      "google-gemini/gemini-cli#16415",
    ],
  },
  {
    code: "tool_result_orphan",
    summary: "A function response that answers no call of the turn before it.",
    message: RESPONSE_POSITION,
    status: 400,
    variants: [COUNT],
    fix: FIX.orphan,
    evidence: "reported",
    sources: ["langchain-ai/langchain#27799", "google-gemini/gemini-cli#26956"],
  },
  {
    code: "tool_results_interleaved",
    summary: "Another turn between a function call turn and its responses.",
    message: RESPONSE_POSITION,
    status: 400,
    fix: FIX.interleaved,
    evidence: "inferred",
    sources: ["langchain-ai/langchain#27799"],
    note: "A user message between calls and responses may merge with the responses into one user turn; the text for this history was not seen.",
  },
];

/** Gemini's native API (`generateContent`), Gemini 3 models. */
export const gemini: ProviderProfile = {
  id: "gemini",
  name: "Google Gemini API (native, Gemini 3)",
  checkedAgainst: {
    api: "POST https://generativelanguage.googleapis.com/v1beta/models/{model}:generateContent",
    models: ["gemini-3-pro-preview", "gemini-3.1-pro-preview", "gemini-3-flash"],
    date: CHECKED,
    sources: ["https://ai.google.dev/gemini-api/docs/thought-signatures", "google-gemini/gemini-cli#4217"],
  },
  indexing: "contents",
  errorBody: { error: { code: "$status", message: "$message", status: "$type" } },
  errorFields: { type: "INVALID_ARGUMENT" },
  note: "Core's neutral view carries a call's thought signature where Google's OpenAI-compatible endpoint does: `tool_calls[i].extra_content.google.thought_signature`; an adapter to the native API maps it to the part's `thoughtSignature`.",
  constraints,
};

/** Gemini's OpenAI-compatible endpoint: the same rules, Google's error wrapped in a list. */
export const geminiOpenai: ProviderProfile = {
  id: "gemini-openai",
  name: "Google Gemini, OpenAI-compatible endpoint (Gemini 3)",
  checkedAgainst: {
    api: "POST https://generativelanguage.googleapis.com/v1beta/openai/chat/completions",
    models: ["gemini-3-pro-preview", "gemini-3.1-pro-preview"],
    date: CHECKED,
    sources: [
      "https://discuss.ai.google.dev/t/openai-api-compatibility-broken-due-to-thought-signature-on-gemini-3-pro-preview/109823",
      "manthanabc/paws#103",
    ],
  },
  indexing: "contents",
  errorBody: [{ error: { code: "$status", message: "$message", status: "$type" } }],
  errorFields: { type: "INVALID_ARGUMENT" },
  note: "The signature travels in `tool_calls[i].extra_content.google.thought_signature`, as this endpoint returns it.",
  constraints,
};
