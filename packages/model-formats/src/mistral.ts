/**
 * `@toolcall/model-formats/mistral`: Mistral before v11 (`mistralList`), v11 (`mistralArgs`), Small 3.2 (`mistralCallIdSyntax`).
 *
 * @example
 * import { mistralArgs } from "@toolcall/model-formats/mistral";
 * mistralArgs.parse(modelText).toolCalls;
 */
export {
  encodeMistralArgs,
  encodeMistralCallId,
  encodeMistralList,
  MISTRAL_ARGS,
  MISTRAL_CALL_ID,
  MISTRAL_TOOL_CALLS,
  mistralArgs,
  mistralCallId,
  mistralCallIdSyntax,
  mistralList,
} from "./families/mistral.js";
