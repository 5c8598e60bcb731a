/**
 * `@toolcall/model-formats/llama`: Llama 3.x JSON (`llama3Json`) and Llama 3.2 / 4 pythonic (`llamaPythonic`).
 *
 * @example
 * import { llama3Json } from "@toolcall/model-formats/llama";
 * llama3Json.parse(modelText).toolCalls;
 */
export {
  encodeLlama3Json,
  encodeLlamaPythonic,
  LLAMA_PYTHON_END,
  LLAMA_PYTHON_START,
  LLAMA_PYTHON_TAG,
  llama3Json,
  llamaPythonic,
} from "./families/llama.js";
