import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import type { ArgumentsReport, OpenAIRepairOptions } from "../options.js";
import { ResponsesEventRepair } from "./responses-event-repair.js";

/**
 * Repairs the function calls of a streamed Responses API result as it is read. Every event passes at once; a call's
 * `response.function_call_arguments.delta` events go on as they come while they can still begin a JSON object; a
 * call that cannot go on is held to its end, then completed with core's repair in one more delta, followed by its
 * `.done` event and its `response.output_item.done`, both carrying the text the deltas add up to. The final
 * `response.completed` (or `.incomplete`) carries the same texts. A call cut by the output token limit, or one no
 * repair fixes, keeps the model's own text: a fresh answer never turns it into text that parses.
 *
 * @example
 * const stream = await client.responses.create({ model, input, tools, stream: true });
 * for await (const event of repairResponsesStream(stream, { repairs: coreRepairs })) { … }
 */
export async function* repairResponsesStream(
  source: AsyncIterable<ResponseStreamEvent>,
  options: OpenAIRepairOptions & { reports?: ArgumentsReport[] } = {},
): AsyncGenerator<ResponseStreamEvent, void, undefined> {
  const repair = new ResponsesEventRepair(options);
  let reported = 0;
  const collect = (): void => {
    if (options.reports === undefined) return;
    while (reported < repair.reports.length)
      options.reports.push(repair.reports[reported++] as ArgumentsReport);
  };
  for await (const event of source) {
    const outs = repair.push(event);
    collect();
    for (const out of outs) yield out.value;
  }
  const outs = repair.end();
  collect();
  for (const out of outs) yield out.value;
}
