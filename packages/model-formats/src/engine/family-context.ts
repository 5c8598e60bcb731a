import type { Output } from "./output.js";
import type { ToolIndex } from "./tool-index.js";

/**
 * What a family parser gets besides its text and its output (its own file, so the text loop that reads with it and
 * the definition that makes it do not import each other).
 *
 * @example
 * context.checkName("get_weather", out); // adds `unknown_tool` when tools were offered and none has that name
 */
export interface FamilyContext {
  tools: ToolIndex;
  /** The id for a call whose syntax carries none. */
  createId(index: number, name: string): string;
  startInReasoning: boolean;
  /** Adds an `unknown_tool` warning when tools were offered and `name` is not one of them. */
  checkName(name: string, out: Output): void;
}
