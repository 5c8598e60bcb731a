import type { SyntaxParseResult, WorkMeter } from "@toolcall/core/kit";
import { gemma4 } from "@toolcall/model-formats/gemma4";

/** Options of {@link parseGemmaToolCalls}. */
export interface GemmaParseOptions {
  /** Makes the id of each call (default: core's `randomCallId`). */
  createId?: () => string;
  /** The work meter the parser charges (core's work budget). */
  meter?: WorkMeter;
}

/**
 * `gemma4.parse` under the name this package has always given it: Gemma 4's native calls in `content`, as OpenAI tool
 * calls, the thought channel as `reasoning`, and the text around them.
 *
 * @example
 * parseGemmaToolCalls('<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>').toolCalls[0].function.arguments;
 * // '{"city": "Paris"}'
 */
export function parseGemmaToolCalls(content: string, options: GemmaParseOptions = {}): SyntaxParseResult {
  let createId: (() => string) | undefined;
  let meter: WorkMeter | undefined;
  try {
    createId = typeof options?.createId === "function" ? options.createId : undefined;
    meter = options?.meter;
  } catch {
    // Options that cannot be read are none.
  }
  const ids = createId;
  return gemma4.parse(content, {
    ...(ids ? { createId: () => ids() as string } : {}),
    ...(meter ? { meter } : {}),
  });
}
