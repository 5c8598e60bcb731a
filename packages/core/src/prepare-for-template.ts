import { decodeArguments } from "./decode-arguments.js";
import { isPlainObject } from "./define-property.js";
import { encodeArguments } from "./encode-arguments.js";
import { isArraySafe, readHistory, walkable } from "./read-history.js";
import type { RepairRule } from "./repairs/repair-rule.js";
import { type ChatMessage, isDecodedToObject, type ToolCall } from "./types.js";

/** What `prepareForTemplate` takes: the arguments form the template needs, parsed copies, exact numbers, repairs. */
export interface PrepareOptions {
  /** The form the template accepts: `mapping` (default; Qwen, GLM, Llama, Gemma) or `string` (DeepSeek). */
  argumentsForm?: "mapping" | "string";
  /** Also attach `parsed_arguments` (a mapping) next to `arguments`, where the arguments decode to an object. */
  attachParsed?: boolean;
  /** Keep numbers exact (`JsonNumber`), as byte parity with Python rendering needs. */
  lossless?: boolean;
  /** Repairs (R6) tried on arguments that fail strict JSON. */
  repairs?: readonly RepairRule[];
}

/**
 * A copy-on-write list of messages for rendering only (RULES.md R5): each call's `function.arguments` in the form
 * the template accepts, while the caller's messages and their argument strings stay untouched. Messages without
 * tool calls are shared, not copied.
 *
 * @example
 * const wire = [{ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "w", arguments: '{"city":"Paris"}' } }] }];
 * prepareForTemplate(wire)[0].tool_calls[0].function.arguments; // { city: "Paris" }
 * wire[0].tool_calls[0].function.arguments; // still '{"city":"Paris"}'
 */
export function prepareForTemplate<M>(messages: readonly M[], options: PrepareOptions = {}): M[] {
  if (!isArraySafe(messages)) return [];
  // Read directly, or from a snapshot when that throws (a getter, a revoked proxy) or a list is too long to walk.
  return readHistory(
    messages,
    (list) => prepareList(list as readonly M[], options),
    // Messages the render copy shares are the caller's own.
    (result, snapshot) => result.map(snapshot.original) as M[],
    // The render copy of a long sparse call list holds its calls, not its holes.
    false,
  );
}

function prepareList<M>(messages: readonly M[], options: PrepareOptions): M[] {
  const form = options.argumentsForm ?? "mapping";
  const decodeOptions = { lossless: options.lossless ?? false, repairs: options.repairs ?? [] };
  return messages.map((message) => {
    if (!isPlainObject(message) || !isArraySafe((message as ChatMessage).tool_calls)) return message;
    const chat = message as ChatMessage;
    const calls = walkable(chat.tool_calls as unknown[]).map((call) => {
      if (!isPlainObject(call) || !isPlainObject((call as ToolCall).function)) return call;
      const fn = (call as ToolCall).function as Record<string, unknown>;
      const decoded = decodeArguments(fn.arguments, decodeOptions);
      const rendered = form === "mapping" ? decoded.arguments : encodeArguments(fn.arguments);
      const next: Record<string, unknown> = { ...fn, arguments: rendered };
      if (options.attachParsed && isDecodedToObject(decoded.status))
        next.parsed_arguments = decoded.arguments;
      return { ...call, function: next };
    });
    return { ...chat, tool_calls: calls } as M;
  });
}
