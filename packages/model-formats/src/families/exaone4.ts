import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsJson } from "../engine/arguments.js";
import { HERMES_CALL_CLOSE, HERMES_CALL_OPEN, hermes } from "./hermes.js";

/**
 * Encodes calls as LG EXAONE 4.0's template renders them: each call `<tool_call>{"name": "NAME", "arguments": ARGS}</tool_call>`
 * (no newline inside the tags, unlike Hermes), the arguments as `tojson` writes a mapping, calls joined by a newline.
 *
 * @example
 * encodeExaone4([{ function: { name: "get_weather", arguments: '{"city":"Seoul"}' } }]);
 * // '<tool_call>{"name": "get_weather", "arguments": {"city": "Seoul"}}</tool_call>'
 */
export function encodeExaone4(calls: readonly EncodableToolCall[]): string {
  return calls
    .map(
      (call) =>
        `${HERMES_CALL_OPEN}{"name": "${call.function.name}", "arguments": ${argumentsJson(call)}}${HERMES_CALL_CLOSE}`,
    )
    .join("\n");
}

/**
 * LG EXAONE 4.0: `<tool_call>{"name": …, "arguments": {…}}</tool_call>`, reasoning in `<think>\n…\n</think>` (the
 * generation prompt opens it when `enable_thinking` is set: pass `startInReasoning: true`).
 *
 * Rules: Hermes' reader, unchanged (what its template writes is Hermes' call without the newlines inside the tags,
 * which Hermes reads): arguments keep the model's bytes, a call that is cut or invalid stays in content, a missing
 * `</tool_call>` ends the call at its JSON (`call_unclosed`). Only the encoder differs, so a round trip on the real
 * template writes its bytes. Output alone names `hermes` (the reader): nothing in a call's text tells EXAONE apart.
 *
 * @example
 * exaone4.parse('<think>\nThe user wants the weather.\n</think>\n\n<tool_call>{"name": "get_weather", "arguments": {"city": "Seoul"}}</tool_call>').reasoning;
 * // "The user wants the weather."
 */
export const exaone4: ToolCallSyntax = {
  ...hermes,
  id: "exaone4",
  name: "EXAONE 4 (<tool_call>{JSON}</tool_call>)",
  encode: encodeExaone4,
};
