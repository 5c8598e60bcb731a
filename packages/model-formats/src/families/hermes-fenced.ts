import { type Issue, parseJson } from "@toolcall/core";
import { randomCallId, toolNamesOf, type WorkCounter } from "@toolcall/core/kit";

/** A call read out of a Markdown fence, in OpenAI's shape (`arguments` as JSON text). */
export interface FencedCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** What {@link readFencedJsonCalls} found: the calls, the content left, and one `call_fenced` issue per call. */
export interface FencedCallsResult {
  toolCalls: FencedCall[];
  content: string | null;
  issues: Issue<"call_fenced">[];
}

const FENCE = "```";
/** A fence's first line: no language, or `json`. */
const OPENING = /^(?:json)?[ \t]*\r?\n/;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * Reads the hermes-style JSON calls a model writes in a Markdown fence of its content instead of `<tool_call>`
 * (```` ```json\n{"name": "f", "arguments": {…}}\n``` ````). A fence counts as a call only when all of these hold:
 * tools are advertised; the fence has no language or `json`; its body is one JSON object with exactly the keys
 * `name` and `arguments`; `arguments` is an object; and `name` is an advertised tool. Anything else (a code example
 * with other keys, a list, another language, an unknown name, no tools) stays content. Each call read is recorded
 * (`call_fenced`, info) and its fence leaves the content. Work is linear in the content.
 *
 * @example
 * const tools = [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }];
 * readFencedJsonCalls({ content: 'Sure.\n```json\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n```', tools }).toolCalls[0].function;
 * // { name: "get_weather", arguments: '{"city":"Paris"}' }
 */
export function readFencedJsonCalls(options: {
  content: string;
  tools: readonly unknown[] | null | undefined;
  createId?: (call: { index: number; name: string }) => string;
  /** Counts the characters examined: each is searched once and a fence's body parsed once. */
  work?: WorkCounter;
}): FencedCallsResult {
  const { content } = options;
  const names = toolNamesOf(options.tools ?? []);
  const none: FencedCallsResult = { toolCalls: [], content, issues: [] };
  if (typeof content !== "string" || names.size === 0) return none;
  const toolCalls: FencedCall[] = [];
  const issues: Issue<"call_fenced">[] = [];
  let kept = "";
  let from = 0;
  for (;;) {
    const open = content.indexOf(FENCE, from);
    if (open < 0) break;
    const close = content.indexOf(FENCE, open + FENCE.length);
    if (close < 0) break;
    const inner = content.slice(open + FENCE.length, close);
    if (options.work) options.work.scanned += close + FENCE.length - from + inner.length;
    const opening = OPENING.exec(inner);
    const parsed = opening ? parseJson(inner.slice(opening[0].length)) : null;
    const value = parsed?.success ? parsed.value : undefined;
    const keys = isObject(value) ? Object.keys(value) : [];
    const isCall =
      isObject(value) &&
      keys.length === 2 &&
      typeof value.name === "string" &&
      names.has(value.name) &&
      isObject(value.arguments);
    if (isCall) {
      const name = value.name as string;
      const index = toolCalls.length;
      toolCalls.push({
        id: options.createId ? options.createId({ index, name }) : randomCallId(),
        type: "function",
        function: { name, arguments: JSON.stringify(value.arguments) },
      });
      issues.push({
        code: "call_fenced",
        severity: "info",
        message: `${name} read from a Markdown fence in content`,
        path: [open],
      });
      kept += content.slice(from, open);
    } else kept += content.slice(from, close + FENCE.length);
    from = close + FENCE.length;
  }
  if (toolCalls.length === 0) return none;
  kept += content.slice(from);
  return { toolCalls, content: kept.trim() === "" ? null : kept.trimEnd(), issues };
}
