import type { ChatCompletion } from "openai/resources/chat/completions";
import { isChatFunctionCall } from "./function-call.js";
import type { ArgumentsReport, OpenAIRepairOptions } from "./options.js";
import { repairArguments } from "./repair-arguments.js";

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
  const reports: ArgumentsReport[] = [];
  let changed = false;
  const choices = completion.choices.map((choice) => {
    const calls = choice.message?.tool_calls;
    if (!Array.isArray(calls)) return choice;
    let choiceChanged = false;
    const repaired = calls.map((call) => {
      // A call that says nothing of its type but has a `function` is a function call, as core reads it.
      if (!isChatFunctionCall(call)) return call;
      const { text, report } = repairArguments({
        api: "chat.completions",
        source: "response",
        index: choice.index,
        id: call.id,
        name: call.function?.name,
        arguments: call.function?.arguments,
        finishReason: choice.finish_reason,
        options,
      });
      if (report) reports.push(report);
      if (text === call.function?.arguments) return call;
      choiceChanged = true;
      return { ...call, function: { ...call.function, arguments: text as string } };
    });
    if (!choiceChanged) return choice;
    changed = true;
    return { ...choice, message: { ...choice.message, tool_calls: repaired } };
  });
  return { completion: changed ? { ...completion, choices } : completion, reports };
}
