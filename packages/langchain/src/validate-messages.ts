import type { BaseMessage } from "@langchain/core/messages";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { type Issue, type ToolDefinition, type ValidateOptions, validateHistory } from "@toolcall/core";
import { isPlainObject } from "@toolcall/core/kit";
import { toNeutralMessages } from "./to-neutral-messages.js";

/** What `validateMessages` takes: the tools as `bindTools` takes them, the finish reason and repairs. */
export interface ValidateMessagesOptions extends Omit<ValidateOptions, "tools"> {
  /**
   * The tools offered to the model, as `bindTools` takes them (LangChain tools, zod-schema tools or OpenAI tool
   * definitions): enables `unknown_tool`, and `arguments_schema` where a tool has parameters.
   */
  tools?: readonly unknown[];
}

function toToolDefinition(tool: unknown): ToolDefinition {
  if (
    isPlainObject(tool) &&
    (isPlainObject(tool.function) || typeof tool.name === "string") &&
    !("schema" in tool)
  ) {
    return tool as ToolDefinition;
  }
  return convertToOpenAITool(tool as Parameters<typeof convertToOpenAITool>[0]) as ToolDefinition;
}

/**
 * Validates a LangChain history with core's R3 before it is persisted or sent to a strict provider: every reason
 * it would answer HTTP 400 (`arguments_empty`, `arguments_invalid_json`, `arguments_not_object`, `id_duplicate`,
 * `tool_result_orphan`, `tool_result_missing`, …). Paths follow each message's OpenAI shape, starting with its
 * index (`[2, "tool_calls", 0, "function", "arguments"]`). Never throws.
 *
 * @example
 * validateMessages([new HumanMessage("weather?"), aiMessage], { tools: [weatherTool] });
 * // [{ code: "tool_result_missing", severity: "error", path: [1, "tool_calls", 0], message: … }]
 */
export function validateMessages(
  messages: readonly BaseMessage[],
  options: ValidateMessagesOptions = {},
): Issue[] {
  const { tools, ...rest } = options;
  return validateHistory(toNeutralMessages(messages), {
    ...rest,
    ...(tools === undefined ? {} : { tools: tools.map(toToolDefinition) }),
  });
}
