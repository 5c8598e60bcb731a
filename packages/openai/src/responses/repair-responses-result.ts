import type { FinishReason } from "@toolcall/core";
import { runSteps } from "@toolcall/core/kit";
import type {
  Response,
  ResponseFunctionToolCall,
  ResponseOutputItem,
} from "openai/resources/responses/responses";
import type { ArgumentsReport, OpenAIRepairOptions } from "../options.js";
import { repairArguments, repairArgumentsSteps } from "../repair-arguments.js";

/** A function call cut by the output token limit is truncated: never repaired. */
export function responsesFinishReason(
  item: { status?: string | null },
  response?: Pick<Response, "status" | "incomplete_details">,
): FinishReason | null {
  if (item.status === "incomplete") return "length";
  if (response?.status === "incomplete" && response.incomplete_details?.reason === "max_output_tokens")
    return "length";
  return null;
}

/** One output item through core: function calls get repaired arguments, anything else is returned as it is. */
export function repairOutputItem(
  item: ResponseOutputItem,
  index: number,
  finishReason: FinishReason | null,
  options: OpenAIRepairOptions,
  source: "response" | "stream",
): { item: ResponseOutputItem; report: ArgumentsReport | undefined } {
  if (item.type !== "function_call") return { item, report: undefined };
  const { text, report } = repairArguments(argumentsOf(item, index, finishReason, options, source));
  return { item: text === item.arguments ? item : { ...item, arguments: text as string }, report };
}

function argumentsOf(
  item: ResponseFunctionToolCall,
  index: number,
  finishReason: FinishReason | null,
  options: OpenAIRepairOptions,
  source: "response" | "stream",
) {
  return {
    api: "responses" as const,
    source,
    index,
    id: item.call_id,
    name: item.name,
    arguments: item.arguments,
    finishReason,
    options,
  };
}

function* repairOutputItemSteps(
  item: ResponseOutputItem,
  index: number,
  finishReason: FinishReason | null,
  options: OpenAIRepairOptions,
  source: "response" | "stream",
): Generator<number, { item: ResponseOutputItem; report: ArgumentsReport | undefined }, void> {
  if (item.type !== "function_call") return { item, report: undefined };
  const { text, report } = yield* repairArgumentsSteps(
    argumentsOf(item, index, finishReason, options, source),
  );
  return { item: text === item.arguments ? item : { ...item, arguments: text as string }, report };
}

/**
 * Repairs the function calls of a Responses API result: each `function_call` item's `arguments` decoded by core
 * with the caller's repairs, canonical JSON text where they changed, the same SDK object otherwise. A call cut by
 * the output token limit is truncated and never repaired.
 *
 * @example
 * const response = await client.responses.create({ model, input, tools });
 * const { response: repaired, reports } = repairResponsesResult(response, { repairs: coreRepairs });
 */
export function repairResponsesResult(
  response: Response,
  options: OpenAIRepairOptions = {},
): { response: Response; reports: ArgumentsReport[] } {
  return runSteps(repairResponsesResultSteps(response, options));
}

/**
 * {@link repairResponsesResult} in steps: each function call's arguments in core's steps (the strict parse, then one repair
 * rule per step), each step's yield weighted by the length of the call's text (see `repairResponseBodySteps`).
 *
 * @example
 * const steps = repairResponsesResultSteps(response, { repairs: coreRepairs });
 * let next = steps.next();
 * while (!next.done) next = steps.next(); // next.value (a number) is the step's work, in characters
 * next.value.response; // what repairResponsesResult(response, { repairs: coreRepairs }) returns
 */
export function* repairResponsesResultSteps(
  response: Response,
  options: OpenAIRepairOptions = {},
): Generator<number, { response: Response; reports: ArgumentsReport[] }, void> {
  const reports: ArgumentsReport[] = [];
  if (!Array.isArray(response.output)) return { response, reports };
  let changed = false;
  const output: ResponseOutputItem[] = [];
  for (const [index, item] of response.output.entries()) {
    const repaired = yield* repairOutputItemSteps(
      item,
      index,
      responsesFinishReason(item as { status?: string }, response),
      options,
      "response",
    );
    if (repaired.report) reports.push(repaired.report);
    if (repaired.item !== item) changed = true;
    output.push(repaired.item);
  }
  return { response: changed ? ({ ...response, output } as Response) : response, reports };
}
