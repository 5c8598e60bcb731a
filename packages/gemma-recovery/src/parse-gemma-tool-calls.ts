import { resolveWorkMeter } from "@toolcall/core/kit";
import {
  type GemmaIssue,
  type GemmaParseOptions,
  type GemmaToolCall,
  GemmaToolCallStream,
  readOption,
} from "./gemma-tool-call-stream.js";
import { CHANNEL_OPEN, TOOL_CALL_OPEN } from "./tokens.js";

export interface GemmaParseResult {
  /** The calls found, in order, as OpenAI tool calls. */
  toolCalls: GemmaToolCall[];
  /** The text that remains, exactly as written; `null` when nothing but whitespace remains. */
  content: string | null;
  /** Calls that were left in content, and why. */
  issues: GemmaIssue[];
}

/**
 * Finds Gemma 4's native tool calls left in assistant text (`<|tool_call>call:NAME{…}<tool_call|>`, the server
 * did not structure them) and returns them as OpenAI tool calls with canonical JSON arguments, and the text
 * without them. Calls inside a thought channel are left alone; a call that cannot be parsed without guessing stays
 * in the text, with an issue. The same rules as {@link GemmaToolCallStream}, on a whole text, in work linear in its
 * length (past the budget, the rest of the text stays content, with a `gemma_budget_exhausted` issue).
 *
 * @example
 * parseGemmaToolCalls('<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|>');
 * // { toolCalls: [{ id: "call_…", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris","days":3}' } }],
 * //   content: null, issues: [] }
 */
export function parseGemmaToolCalls(content: string, options: GemmaParseOptions = {}): GemmaParseResult {
  if (typeof content !== "string" || (!content.includes(TOOL_CALL_OPEN) && !content.includes(CHANNEL_OPEN))) {
    return {
      toolCalls: [],
      content: typeof content === "string" && content.trim() !== "" ? content : null,
      issues: [],
    };
  }
  // One text: the budget is linear in its length (or the caller's meter, with the caller's limit).
  const meter = resolveWorkMeter({ meter: readOption(options, "meter"), length: content.length });
  const createId = readOption(options, "createId") as (() => string) | undefined;
  const stream = new GemmaToolCallStream({ createId, meter });
  const toolCalls: GemmaToolCall[] = [];
  const issues: GemmaIssue[] = [];
  const parts: string[] = [];
  for (const event of [...stream.push(content), ...stream.end()]) {
    if (event.type === "content") parts.push(event.text);
    else if (event.type === "tool_call") toolCalls.push(event.toolCall);
    else issues.push(event.issue);
  }
  const text = parts.join("");
  return { toolCalls, content: text.trim() === "" ? null : text, issues };
}
