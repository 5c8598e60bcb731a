import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsJson } from "../engine/arguments.js";
import { defineSyntax } from "../engine/define-syntax.js";
import { type JsonBlockSyntax, readJsonBlock } from "../engine/json-block.js";
import { MarkerSet } from "../engine/marker-set.js";
import { plainCheck, textLoop } from "../engine/text-loop.js";

/** Ends a GigaChat message (the template writes it with two newlines after). */
export const GIGACHAT_MESSAGE_SEP = "<|message_sep|>";
/** Opens GigaChat 3's call turn: the role `function call` and its separator (the template adds a newline). */
export const GIGACHAT_CALL_ROLE = "function call<|role_sep|>";
/** Opens a call in GigaChat 3.1's output (one token in place of the role line). */
export const GIGACHAT31_CALL_OPEN = "<|function_call|>";
/** What the template writes between the assistant's text and the call turn. */
const TURN_BREAK = `${GIGACHAT_MESSAGE_SEP}\n\n${GIGACHAT_CALL_ROLE}`;
/** What may close a call: the message separator, or the end of sequence a server left in. */
const CLOSE = new MarkerSet([GIGACHAT_MESSAGE_SEP, "</s>"]);

/**
 * One call after its role line: the JSON object, then the message separator, a `</s>`, or the end of the text (the
 * separator is a stop token a server strips: its absence at the end says nothing).
 */
const CALL: JsonBlockSyntax = { argumentKeys: ["arguments"], close: CLOSE, unclosed: "silent" };

/**
 * Encodes calls as GigaChat 3's template renders a call turn after the assistant's text: per call
 * `<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "NAME", "arguments": ARGS}` with the arguments as `tojson`
 * writes a mapping. (The template renders the first call of a message only.)
 *
 * @example
 * encodeGigaChat3([{ function: { name: "get_weather", arguments: '{"city":"Moscow"}' } }]);
 * // '<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "get_weather", "arguments": {"city": "Moscow"}}'
 */
export function encodeGigaChat3(calls: readonly EncodableToolCall[]): string {
  return calls
    .map((call) => `${TURN_BREAK}\n{"name": "${call.function.name}", "arguments": ${argumentsJson(call)}}`)
    .join("");
}

/**
 * Sber GigaChat 3 (`ai-sage/GigaChat3-10B-A1.8B`, `GigaChat3-702B-A36B`) and 3.1: the call is a turn of the role
 * `function call`, `…<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": …, "arguments": {…}}`, or in 3.1's output
 * `<|function_call|>{"name": …, "arguments": {…}}`.
 *
 * Rules: the text before the call is content (the `<|message_sep|>` that ends it is syntax); the call object needs
 * `name` and an `arguments` object (other argument keys are reported, never read as `{}`), and keeps the model's
 * bytes; the message separator or a `</s>` left by the server closes it, and so does the end of the text; a call cut
 * short or not a call object stays in content as written (`call_truncated`, `call_invalid`). No reasoning markers.
 *
 * @example
 * gigaChat3.parse('Let me check.<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "get_weather", "arguments": {"city": "Moscow"}}').content;
 * // "Let me check."
 */
export const gigaChat3: ToolCallSyntax = defineSyntax({
  id: "gigachat3",
  name: "GigaChat 3 (function call<|role_sep|> JSON)",
  startMarkers: [GIGACHAT_CALL_ROLE, GIGACHAT31_CALL_OPEN],
  // Every call holds `|>`; prose rarely does.
  plain: plainCheck("|>", []),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [TURN_BREAK, GIGACHAT_CALL_ROLE, GIGACHAT31_CALL_OPEN],
      onCall: (marker, channel) => readJsonBlock(reader, out, context, { ...CALL, marker, channel }),
    });
  },
  encode: encodeGigaChat3,
});
