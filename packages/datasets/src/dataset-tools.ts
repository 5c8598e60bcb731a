import { parseJson, type ToolDefinition } from "@toolcall/core";
import { isPlainObject } from "@toolcall/core/kit";

/**
 * A data set's tool list as core reads tools: an array, or (as LLaMA-Factory and glaive store it) a JSON string of
 * one. OpenAI tool definitions and bare `{name, parameters}` both pass; anything else is no tool list.
 *
 * @example
 * toolsOf('[{"name": "get_weather", "parameters": {"type": "object"}}]'); // [{ name: "get_weather", … }]
 * toolsOf("not json"); // undefined
 */
export function toolsOf(value: unknown): ToolDefinition[] | undefined {
  let tools = value;
  if (typeof value === "string") {
    const parsed = parseJson(value);
    if (!parsed.success) return undefined;
    tools = parsed.value;
  }
  if (!Array.isArray(tools)) return undefined;
  return tools.filter(
    (tool): tool is ToolDefinition =>
      isPlainObject(tool) && (isPlainObject(tool.function) || typeof tool.name === "string"),
  );
}
