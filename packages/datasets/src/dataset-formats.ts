import type { ConversationFormat } from "@toolcall/core/kit";
import { llamafactoryFormat } from "./llamafactory-format.js";
import { sharegptFormat } from "./sharegpt-format.js";

/**
 * Every data set format, in the order to try them when detecting: LLaMA-Factory's content parts, then ShareGPT turns.
 *
 * @example
 * const format = datasetFormats.find((f) => f.matches(record));
 */
export const datasetFormats: readonly ConversationFormat[] = [llamafactoryFormat, sharegptFormat];
