import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsMapping } from "../engine/arguments.js";
import { defineSyntax } from "../engine/define-syntax.js";
import { MarkerSet } from "../engine/marker-set.js";
import { plainCheck, textLoop } from "../engine/text-loop.js";
import { gemmaCallTokens, readGemmaCall } from "./gemma4.js";
import { writeGemmaStyleCall } from "./gemma4-encode.js";
import type { GemmaTokens } from "./gemma4-values.js";

/** Opens a FunctionGemma call: `<start_function_call>call:NAME{…}<end_function_call>`. */
export const FUNCTION_GEMMA_CALL_OPEN = "<start_function_call>";
/** Closes a FunctionGemma call. */
export const FUNCTION_GEMMA_CALL_CLOSE = "<end_function_call>";
/** Opens and closes a string value. */
export const FUNCTION_GEMMA_ESCAPE = "<escape>";
/** What the template writes after a model's calls (a stop sequence): syntax when a server leaves it in the text. */
const RESPONSE_OPEN = "<start_function_response>";
const RESPONSE = new MarkerSet([RESPONSE_OPEN]);

const TOKENS: GemmaTokens = {
  quote: FUNCTION_GEMMA_ESCAPE,
  callOpen: FUNCTION_GEMMA_CALL_OPEN,
  callClose: FUNCTION_GEMMA_CALL_CLOSE,
};
const CALL = gemmaCallTokens(TOKENS);

/**
 * Encodes calls as FunctionGemma writes them: per call `<start_function_call>call:NAME{key:value,…}<end_function_call>`,
 * keys sorted as Jinja's `dictsort` sorts them, strings between `<escape>` tokens, `true`/`false`, numbers bare,
 * nested mappings and lists in the same syntax.
 *
 * @example
 * encodeFunctionGemma([{ function: { name: "get_weather", arguments: '{"location": "London"}' } }]);
 * // "<start_function_call>call:get_weather{location:<escape>London<escape>}<end_function_call>"
 */
export function encodeFunctionGemma(calls: readonly EncodableToolCall[]): string {
  return calls
    .map((call) =>
      writeGemmaStyleCall({
        call: { name: call.function.name, arguments: argumentsMapping(call) },
        tokens: TOKENS,
      }),
    )
    .join("");
}

/**
 * Google FunctionGemma (`google/functiongemma-270m-it`, a Gemma 3 270M tuned for calls):
 * `<start_function_call>call:NAME{key:<escape>text<escape>,n:42}<end_function_call>`.
 *
 * Rules: Gemma 4's call grammar and reader with FunctionGemma's tokens (`<escape>` for Gemma 4's `<|"|>`): keys bare,
 * between quote tokens or JSON-quoted; `true`, `false`, `null`/`None` and numbers bare; a string ends at the `<escape>`
 * followed by the end of its container or by a comma and a key; a whole call the text ends after without
 * `<end_function_call>` is a call (`call_unclosed`); a cut or malformed call stays in content as written; a key the
 * offered tool's schema does not know is told (`unknown_parameter`). A `<start_function_response>` right after the
 * calls (the template's stop sequence) is syntax. No reasoning markers.
 *
 * @example
 * functionGemma.parse("<start_function_call>call:get_weather{location:<escape>London<escape>}<end_function_call>").toolCalls[0]?.function;
 * // { name: "get_weather", arguments: '{"location": "London"}' }
 */
export const functionGemma: ToolCallSyntax = defineSyntax({
  id: "functiongemma",
  name: "FunctionGemma (<start_function_call>call:NAME{…}<end_function_call>)",
  startMarkers: [FUNCTION_GEMMA_CALL_OPEN],
  plain: plainCheck(FUNCTION_GEMMA_CALL_OPEN, []),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [FUNCTION_GEMMA_CALL_OPEN],
      *onCall(_marker, channel) {
        const outcome = yield* readGemmaCall(reader, out, context, channel, CALL);
        if (outcome !== "ok") return;
        // The stop sequence after the calls, when a server leaves it in: not the model's text.
        if ((yield* reader.peek(RESPONSE)) !== null) reader.consume(RESPONSE_OPEN.length);
      },
    });
  },
  encode: encodeFunctionGemma,
});
