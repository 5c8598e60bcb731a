import type { FinishReason } from "@toolcall/core";
import type { Response, ResponseOutputItem } from "openai/resources/responses/responses";
import type { ArgumentsReport, OpenAIRepairOptions } from "./options.js";
import { repairArguments } from "./repair-arguments.js";

/** A function call cut by the output token limit is truncated: never repaired. */
export function responseFinishReason(
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
  const { text, report } = repairArguments({
    api: "responses",
    source,
    index,
    id: item.call_id,
    name: item.name,
    arguments: item.arguments,
    finishReason,
    options,
  });
  return { item: text === item.arguments ? item : { ...item, arguments: text as string }, report };
}

/**
 * Repairs the function calls of a Responses API result: each `function_call` item's `arguments` decoded by core
 * with the caller's repairs, canonical JSON text where they changed, the same SDK object otherwise. A call cut by
 * the output token limit is truncated and never repaired.
 *
 * @example
 * const response = await client.responses.create({ model, input, tools });
 * const { response: repaired, reports } = repairResponse(response, { repairs: coreRepairs });
 */
export function repairResponse(
  response: Response,
  options: OpenAIRepairOptions = {},
): { response: Response; reports: ArgumentsReport[] } {
  const reports: ArgumentsReport[] = [];
  if (!Array.isArray(response.output)) return { response, reports };
  let changed = false;
  const output = response.output.map((item, index) => {
    const repaired = repairOutputItem(
      item,
      index,
      responseFinishReason(item as { status?: string }, response),
      options,
      "response",
    );
    if (repaired.report) reports.push(repaired.report);
    if (repaired.item !== item) changed = true;
    return repaired.item;
  });
  return { response: changed ? ({ ...response, output } as Response) : response, reports };
}
