/** Gemma 4's string quote token: strings in native tool calls sit between two of these. */
export const QUOTE_TOKEN = '<|"|>';
/** Opens a native tool call: `<|tool_call>call:NAME{…}<tool_call|>`. */
export const TOOL_CALL_OPEN = "<|tool_call>";
/** Closes a native tool call. */
export const TOOL_CALL_CLOSE = "<tool_call|>";
/** Opens a channel (`<|channel>thought\n…<channel|>`): its text is the model's, never parsed for calls. */
export const CHANNEL_OPEN = "<|channel>";
/** Closes a channel. */
export const CHANNEL_CLOSE = "<channel|>";
