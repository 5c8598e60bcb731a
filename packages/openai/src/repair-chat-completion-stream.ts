import { type AccumulatingToolCall, type FinishReason, parseJson, ToolCallAccumulator } from "@toolcall/core";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ArgumentsReport, OpenAIRepairOptions } from "./options.js";
import { repairArguments } from "./repair-arguments.js";

type ChunkChoice = ChatCompletionChunk.Choice;
type ChunkToolCall = ChatCompletionChunk.Choice.Delta.ToolCall;

interface ChoiceState {
  accumulator: ToolCallAccumulator;
  /** Calls not yet handed on, in the order they began. */
  open: AccumulatingToolCall[];
}

function isEmptyDelta(delta: ChatCompletionChunk.Choice.Delta): boolean {
  for (const key in delta) {
    const value = (delta as Record<string, unknown>)[key];
    if (value !== undefined && value !== null && key !== "tool_calls") return false;
  }
  return true;
}

/**
 * Repairs the tool calls of a Chat Completions stream (R9): content, refusals and every other field pass through
 * at once; argument deltas are accumulated per call and held back; each call is handed on, whole and decoded once
 * by core, in one chunk as soon as it completes: when the next call begins and its text is already whole JSON (calls
 * sent one after another, as OpenAI sends them), or when the choice finishes (calls interleaved, or still broken). A stream that ends
 * with `finish_reason: "length"` marks broken calls truncated and never repairs them; a final frame repeating the
 * complete arguments is not appended twice.
 *
 * @example
 * const stream = await client.chat.completions.create({ model, messages, tools, stream: true });
 * for await (const chunk of repairChatCompletionStream(stream, { repairs: coreRepairs })) {
 *   // chunk.choices[0].delta.tool_calls holds whole, repaired calls
 * }
 */
export async function* repairChatCompletionStream(
  source: AsyncIterable<ChatCompletionChunk>,
  options: OpenAIRepairOptions & { reports?: ArgumentsReport[] } = {},
): AsyncGenerator<ChatCompletionChunk, void, undefined> {
  const states = new Map<number, ChoiceState>();
  let template: ChatCompletionChunk | undefined;

  const complete = (
    choiceIndex: number,
    calls: AccumulatingToolCall[],
    finishReason: FinishReason | null,
  ): ChatCompletionChunk => {
    const toolCalls: ChunkToolCall[] = calls.map((call) => {
      const { text, report } = repairArguments({
        api: "chat.completions",
        source: "stream",
        index: choiceIndex,
        id: call.id,
        name: call.name,
        arguments: call.arguments === "" ? undefined : call.arguments,
        finishReason,
        options,
      });
      if (report) options.reports?.push(report);
      return {
        index: call.index,
        ...(call.id === undefined ? {} : { id: call.id }),
        type: "function",
        function: { name: call.name, arguments: text as string },
      };
    });
    const base = template as ChatCompletionChunk;
    return {
      ...base,
      choices: [
        { index: choiceIndex, delta: { tool_calls: toolCalls }, finish_reason: null, logprobs: null },
      ],
      usage: undefined,
    } as ChatCompletionChunk;
  };

  for await (const chunk of source) {
    template ??= chunk;
    let forwarded: ChunkChoice[] | undefined;
    const before: ChatCompletionChunk[] = [];
    chunk.choices.forEach((choice, position) => {
      const toolCalls = choice.delta?.tool_calls;
      const state = states.get(choice.index) ?? { accumulator: new ToolCallAccumulator(), open: [] };
      if (Array.isArray(toolCalls) && toolCalls.length > 0) {
        states.set(choice.index, state);
        for (const call of state.accumulator.push(toolCalls)) {
          if (!state.open.includes(call)) {
            // A new call began. The ones before it are complete if their text already is whole JSON (OpenAI sends
            // calls one after another); otherwise the server may be interleaving calls: they wait for the finish.
            const done = state.open.filter((open) => open.arguments !== "" && parseJson(open.arguments).ok);
            if (done.length === state.open.length && done.length > 0)
              before.push(complete(choice.index, state.open.splice(0), null));
            state.open.push(call);
          }
        }
      }
      if (choice.finish_reason != null && state.open.length > 0) {
        before.push(complete(choice.index, state.open.splice(0), choice.finish_reason));
      }
      if (Array.isArray(toolCalls)) {
        forwarded ??= chunk.choices.slice(0, position);
        const { tool_calls: _held, ...delta } = choice.delta;
        if (!isEmptyDelta(delta) || choice.finish_reason != null || choice.logprobs != null) {
          forwarded.push({ ...choice, delta });
        }
      } else if (forwarded) forwarded.push(choice);
    });
    for (const made of before) yield made;
    if (forwarded === undefined) {
      yield chunk;
    } else if (forwarded.length > 0 || chunk.usage != null) {
      yield { ...chunk, choices: forwarded };
    }
  }
  // The stream ended without a finish reason (a cut connection): what is open is handed on as it is.
  for (const [choiceIndex, state] of states) {
    if (state.open.length > 0) yield complete(choiceIndex, state.open.splice(0), null);
  }
}
