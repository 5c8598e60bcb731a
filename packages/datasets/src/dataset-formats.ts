import type { ConversationFormat } from "@toolcall/core/kit";
import { bfclAnswerFormat } from "./bfcl-answer-format.js";
import { bfclQuestionFormat } from "./bfcl-question-format.js";
import { llamafactoryFormat } from "./llamafactory-format.js";
import { openhandsTrajectoryFormat } from "./openhands-format.js";
import { sharegptFormat } from "./sharegpt-format.js";
import { sweAgentTrajectoryFormat } from "./swe-agent-format.js";

/**
 * Every data set and agent trajectory format, in the order to try them when detecting: the agents' trajectories, BFCL's
 * question and answer files and LLaMA-Factory's content parts (each a special shape), then ShareGPT turns.
 *
 * @example
 * const format = datasetFormats.find((f) => f.matches(record));
 */
export const datasetFormats: readonly ConversationFormat[] = [
  sweAgentTrajectoryFormat,
  openhandsTrajectoryFormat,
  bfclQuestionFormat,
  bfclAnswerFormat,
  llamafactoryFormat,
  sharegptFormat,
];
