import { type ChatMessage, normalizeAnswerArguments, type ToolCall } from "@toolcall/core";
import { isPlainObject } from "@toolcall/core/kit";
import { AI_SDK_ORIGIN, AI_SDK_PART, CarriedMessage, setTag } from "./origin.js";
import { argumentsOfInput } from "./tool-call-input.js";

// The neutral view of persisted `useChat` histories (UIMessages), as `convertToModelMessages` would send them: an
// assistant message is split into steps at its `step-start` parts; each step is one assistant message (text and
// reasoning joined, its tool parts as calls) followed by one tool message per tool part that has a result.

type Part = Record<string, unknown>;

/** Where a neutral entry of a UI history came from. */
export interface UiOrigin {
  message: Part;
  /** The step (the block between `step-start` parts) of an assistant message. */
  step: number;
  /** For a tool result: the index of its tool part in `parts`. */
  part?: number;
}

export function isToolPart(part: unknown): part is Part {
  return (
    isPlainObject(part) &&
    typeof part.type === "string" &&
    (part.type.startsWith("tool-") || part.type === "dynamic-tool")
  );
}

export function toolNameOf(part: Part): unknown {
  return part.type === "dynamic-tool" ? part.toolName : (part.type as string).slice("tool-".length);
}

/** States in which a part's call is still waiting for the client (a result, an approval): pending at the end of a chat. */
const WAITING = new Set(["input-available", "approval-requested", "approval-responded"]);

/** States whose part holds the call's result. */
export const ANSWERED = new Set(["output-available", "output-error", "output-denied"]);

/**
 * The arguments of a tool part. A part still `input-streaming` in a saved chat is a call the stream cut: its text is
 * decoded as after a length stop (core's rule), so a cut call is never completed into one that looks whole; what
 * could not be decoded goes to core as the raw sentinel, and R4 keeps it so.
 */
export function argumentsOfPart(part: Part): unknown {
  if (part.state === "input-streaming") {
    const text =
      typeof part.rawInput === "string"
        ? part.rawInput
        : part.input === undefined
          ? ""
          : argumentsOfInput(part.input);
    const decision = normalizeAnswerArguments(text, { finishReason: "length" });
    return decision.usable ? text : decision.decoded.arguments;
  }
  const textAsMapping = { textAsMapping: true };
  if (part.state === "output-error" && part.input === undefined)
    return argumentsOfInput(part.rawInput, textAsMapping);
  return argumentsOfInput(part.input, textAsMapping);
}

/** The neutral content of a tool part's result, as `@ai-sdk/openai-compatible` sends it. */
export function resultContentOf(part: Part): unknown {
  switch (part.state) {
    case "output-error":
      return part.errorText;
    case "output-denied": {
      const approval = isPlainObject(part.approval) ? part.approval : {};
      return typeof approval.reason === "string" ? approval.reason : "Tool call execution denied.";
    }
    default:
      if (typeof part.output === "string") return part.output;
      try {
        return JSON.stringify(part.output) ?? "null";
      } catch {
        return part.output;
      }
  }
}

/** The steps of an assistant message: the indexes of its parts between `step-start` parts. */
export function stepsOf(parts: readonly unknown[]): number[][] {
  const steps: number[][] = [[]];
  for (const [index, part] of parts.entries()) {
    if (isPlainObject(part) && part.type === "step-start") steps.push([]);
    else (steps.at(-1) as number[]).push(index);
  }
  return steps.filter((step) => step.length > 0);
}

/** Whether a tool part is in the neutral view (provider-run calls and calls still waiting at the end are not). */
export function isCallInView(part: Part, trailing: boolean): boolean {
  if (part.providerExecuted === true) return false;
  return !(trailing && WAITING.has(part.state as string));
}

/** The neutral entries of one step: its assistant message (when it has text, reasoning or calls) and results. */
export function stepEntries(
  message: Part,
  step: number,
  indexes: readonly number[],
  options: { trailing: boolean; enumerable: boolean },
): ChatMessage[] {
  const parts = message.parts as unknown[];
  let text: string | undefined;
  let reasoning: string | undefined;
  const calls: ToolCall[] = [];
  const results: ChatMessage[] = [];
  for (const index of indexes) {
    const part = parts[index];
    if (!isPlainObject(part)) continue;
    if (part.type === "text" && typeof part.text === "string") text = (text ?? "") + part.text;
    else if (part.type === "reasoning" && typeof part.text === "string")
      reasoning = (reasoning ?? "") + part.text;
    else if (isToolPart(part) && isCallInView(part, options.trailing)) {
      const call: ToolCall = {
        id: part.toolCallId,
        type: "function",
        function: { name: toolNameOf(part), arguments: argumentsOfPart(part) },
      };
      setTag(call, AI_SDK_PART, index, options.enumerable);
      calls.push(call);
      if (ANSWERED.has(part.state as string)) {
        const result: ChatMessage = {
          role: "tool",
          tool_call_id: part.toolCallId,
          content: resultContentOf(part),
        };
        setTag(result, AI_SDK_ORIGIN, { message, step, part: index } satisfies UiOrigin, options.enumerable);
        results.push(result);
      }
    }
  }
  if (text === undefined && reasoning === undefined && calls.length === 0) return results;
  const assistant: ChatMessage = {
    role: "assistant",
    content: calls.length > 0 && !text ? null : (text ?? ""),
  };
  if (reasoning !== undefined) assistant.reasoning_content = reasoning;
  if (calls.length > 0) assistant.tool_calls = calls;
  setTag(assistant, AI_SDK_ORIGIN, { message, step } satisfies UiOrigin, options.enumerable);
  return [assistant, ...results];
}

/** The text of a UI message: its text parts joined. */
export function textOf(parts: unknown): string {
  if (!Array.isArray(parts)) return "";
  return parts
    .map((part: unknown) =>
      isPlainObject(part) && part.type === "text" && typeof part.text === "string" ? part.text : "",
    )
    .join("");
}

/** The neutral entries of a UI history, and for each the index of the UI message it came from. */
export function uiNeutralView(messages: readonly unknown[]): { entries: unknown[]; owners: number[] } {
  const entries: unknown[] = [];
  const owners: number[] = [];
  const push = (entry: unknown, owner: number) => {
    entries.push(entry);
    owners.push(owner);
  };
  for (const [index, message] of messages.entries()) {
    if (!isPlainObject(message) || !Array.isArray(message.parts)) {
      push(message, index);
      continue;
    }
    if (message.role === "assistant") {
      const trailing = index === messages.length - 1;
      const before = entries.length;
      for (const [step, indexes] of stepsOf(message.parts).entries()) {
        for (const entry of stepEntries(message, step, indexes, { trailing, enumerable: true }))
          push(entry, index);
      }
      // A message with nothing the neutral view holds (files, data, calls still waiting) keeps its place.
      if (entries.length === before) push(new CarriedMessage(message), index);
      continue;
    }
    // System and user messages: their text, for the pairing rules; core never changes them.
    const entry: ChatMessage = { role: message.role, content: textOf(message.parts) };
    setTag(entry, AI_SDK_ORIGIN, { message, step: 0 } satisfies UiOrigin, true);
    push(entry, index);
  }
  return { entries, owners };
}
