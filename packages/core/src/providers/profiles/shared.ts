/** The day the profiles' facts were last checked against their sources. */
export const CHECKED = "2026-11-23";

/** The bridge messages a role-order fix inserts: short, and plainly not the model's or the user's words. */
export const BRIDGE_ASSISTANT = "(tool results received)";
export const BRIDGE_USER = "(continue)";

/** The signature Google documents for replayed calls that carry none (calls that did not come from Gemini). */
export const SKIP_SIGNATURE = "skip_thought_signature_validator";

/** OpenAI's error body; most OpenAI-compatible servers answer with it. */
export const OPENAI_BODY = { error: { message: "$message", type: "$type", param: "$param", code: "$code" } };

/** What `sanitizeHistory({ provider })` does for each check, in plain words (the profiles' `fix`). */
export const FIX = {
  missing:
    'A tool result is synthesized for each unanswered call (R4; `missingResult: "drop-call"` drops the call instead), recorded with its full content.',
  interleaved:
    "The messages between the assistant message and its results move, unchanged, to just after the results; each move is recorded.",
  orphan: "The result is dropped (R4); the change record keeps it whole.",
  duplicate: "The later call gets `<id>_<n>`, and the results of its turn follow it (R4); recorded.",
  arguments:
    'The arguments become object text (R4): what decodes to an object gets its canonical text, anything else `{"_raw_arguments": raw}` under the default `preserve` policy (`drop` removes the call with its results, `empty` sends `{}` with a note on its result); recorded.',
  alnum9:
    "Each refused id is remapped to nine letters and digits (its last nine letters and digits, left-padded with `0`; a hash of it on a collision), the same in the call and its results; each change records the old id and the new one.",
  replaceInvalid:
    "Each refused character of the id becomes `_` (cut to the length limit, a hash suffix on a collision), the same in the call and its results; each change records the old id and the new one.",
  shorten:
    "Ids over the limit are cut, with a short hash of the whole id appended so they stay unique, the same in the call and its results; each change records the old id and the new one.",
  name: "Refused characters of the name become `_` (cut to the limit); the change records the old name.",
  bridgeAssistant: `A bridge assistant message (\`${BRIDGE_ASSISTANT}\`) is inserted between the tool result and the user message; recorded.`,
  bridgeUser: `A bridge user message (\`${BRIDGE_USER}\`) is inserted before the assistant message; recorded.`,
  reasoningFill:
    'Reasoning the message carries as `reasoning` is copied to `reasoning_content`; otherwise `reasoning_content` is set to `""`, which the provider accepts (clients send it when the reasoning was not kept); recorded.',
  reasoningThink:
    "`reasoning_content` moves into the content as `<think>…</think>` before the text, so the model still sees it; recorded.",
  reasoningRemove: "`reasoning_content` is removed; the change record keeps it whole.",
  signature: `The first call of each unsigned step gets the signature \`${SKIP_SIGNATURE}\`, which Google documents for calls that did not come from Gemini; recorded.`,
  itemId:
    "The call's stored item id (`extra_content.openai.item_id`) is left out, so the call is sent as a new `function_call` item that needs no reasoning item (as Codex does); the change records the id.",
  reasoningOrphan: "The message holding only reasoning is removed; the change record keeps it whole.",
  blankText:
    "Blank text is taken out: beside calls the content becomes `null`, a blank text part goes, an assistant message with nothing else is removed, a user message gets the text `(empty)`; each change records what it replaced.",
  contentString:
    'Absent content becomes `""`; a list of parts becomes the text of its text parts; the change records the original.',
} as const;
