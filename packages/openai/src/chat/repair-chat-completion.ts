import { CallIds, runSteps } from "@toolcall/core/kit";
import type { ChatCompletion } from "openai/resources/chat/completions";
import type { ArgumentsReport, OpenAIRepairOptions } from "../options.js";
import { repairArgumentsSteps } from "../repair-arguments.js";
import { isChatFunctionCall } from "./is-chat-function-call.js";

/**
 * Repairs the tool calls of a Chat Completions response: each function call's arguments decoded by core with the
 * caller's repairs; canonical JSON text where they changed; the same SDK object (copied only where something
 * changed); a report for every call that was not clean. Custom tool calls (free text input) are left as they are.
 *
 * @example
 * const completion = await client.chat.completions.create({ model, messages, tools });
 * const { completion: repaired, reports } = repairChatCompletion(completion, { repairs: coreRepairs });
 */
export function repairChatCompletion(
  completion: ChatCompletion,
  options: OpenAIRepairOptions = {},
): { completion: ChatCompletion; reports: ArgumentsReport[] } {
  return runSteps(repairChatCompletionSteps(completion, options));
}

/**
 * {@link repairChatCompletion} in steps: each call's arguments in core's steps (the strict parse, then one repair rule
 * per step), each step's yield weighted by the length of the call's text (see `repairResponseBodySteps`).
 *
 * @example
 * const steps = repairChatCompletionSteps(completion, { repairs: coreRepairs });
 * let next = steps.next();
 * while (!next.done) next = steps.next(); // next.value (a number) is the step's work, in characters
 * next.value.completion; // what repairChatCompletion(completion, { repairs: coreRepairs }) returns
 */
export function* repairChatCompletionSteps(
  completion: ChatCompletion,
  options: OpenAIRepairOptions = {},
): Generator<number, { completion: ChatCompletion; reports: ArgumentsReport[] }, void> {
  const reports: ArgumentsReport[] = [];
  let changed = false;
  const choices: ChatCompletion.Choice[] = [];
  for (const choice of completion.choices) {
    const calls = choice.message?.tool_calls;
    if (!Array.isArray(calls)) {
      choices.push(choice);
      continue;
    }
    let choiceChanged = false;
    const repaired: typeof calls = [];
    // Ids of the choice's calls, for the fresh ones merged calls get when they are split.
    const ids = new CallIds();
    for (const call of calls) if (typeof call?.id === "string") ids.add(call.id);
    for (const call of calls) {
      // A call that says nothing of its type but has a `function` is a function call, as core reads it.
      if (!isChatFunctionCall(call)) {
        repaired.push(call);
        continue;
      }
      const { text, report } = yield* repairArgumentsSteps({
        api: "chat.completions",
        source: "response",
        index: choice.index,
        id: call.id,
        name: call.function?.name,
        arguments: call.function?.arguments,
        finishReason: choice.finish_reason,
        options,
        splitIds: options.splitMergedCalls === true ? ids : undefined,
      });
      if (report?.split !== undefined) {
        reports.push(report);
        for (const part of report.split)
          repaired.push({ ...call, id: part.id, function: { ...call.function, arguments: part.arguments } });
        choiceChanged = true;
        continue;
      }
      if (report) reports.push(report);
      if (text === call.function?.arguments) {
        repaired.push(call);
        continue;
      }
      choiceChanged = true;
      repaired.push({ ...call, function: { ...call.function, arguments: text as string } });
    }
    if (!choiceChanged) {
      choices.push(choice);
      continue;
    }
    changed = true;
    choices.push({ ...choice, message: { ...choice.message, tool_calls: repaired } });
  }
  return { completion: changed ? { ...completion, choices } : completion, reports };
}
