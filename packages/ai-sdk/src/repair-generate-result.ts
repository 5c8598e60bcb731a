import type { SanitizeChange } from "@toolcall/core";
import { CallIds, type ToolcallCallReport, type ToolcallReport } from "@toolcall/core/kit";
import type { GenerateResult, ModelToolCall } from "./ai-sdk-types.js";
import { type ContentCallsContext, readGenerateContentCalls } from "./content-call-parts.js";
import { type DecideOptions, decideToolCall, reportOf } from "./decide-tool-call.js";
import { coreFinishReason } from "./finish-reason.js";
import { withSummary } from "./report-summary.js";
import { splitToolCalls } from "./split-tool-calls.js";

/** What {@link repairGenerateResult} takes besides the answer. */
export interface RepairGenerateOptions extends DecideOptions {
  /** What sanitizing the prompt changed, reported with the answer. */
  history?: readonly SanitizeChange[];
  /** The request's tools, `{ name, parameters }` (a JSON Schema each): each call's arguments typed by its tool's. */
  tools?: readonly { name: string; parameters: unknown }[];
  /** Syntaxes whose calls a server left in the answer's text are read into tool calls (see `toolcallMiddleware`). */
  contentCalls?: ContentCallsContext["syntaxes"];
  /** Told the answer's report when there is one. */
  onReport?: (report: ToolcallReport) => void;
}

/**
 * A model's whole answer with its tool calls decided by core's rules, knowing why the model stopped (see
 * `decideToolCall`): repaired calls get canonical JSON text, a call cut by a length stop keeps its text and is
 * never made runnable; calls a server left in the text are read out first (`contentCalls`) and decided like the
 * others, and a finish of `stop` becomes `tool-calls` when some were. Reports go in each call's
 * `providerMetadata.toolcall` and, as core's `ToolcallReport`, in the answer's. The answer itself comes back when
 * every call was clean and the prompt needed nothing.
 *
 * @example
 * const repaired = repairGenerateResult({ result: await model.doGenerate(params), repairs: coreRepairs });
 */
export function repairGenerateResult(
  args: RepairGenerateOptions & { result: GenerateResult },
): GenerateResult {
  const { result } = args;
  const schemas = new Map((args.tools ?? []).map((tool) => [tool.name, tool.parameters]));
  const read = readGenerateContentCalls({
    content: result.content,
    context: { syntaxes: args.contentCalls ?? [], tools: args.tools ?? [] },
  });
  let content = read.content;
  const finishReason = coreFinishReason(result.finishReason);
  const reports: ToolcallCallReport[] = [];
  const ids = new CallIds();
  for (const part of content) if (part.type === "tool-call") ids.add(part.toolCallId);
  const out: typeof content = [];
  for (const part of content) {
    if (part.type !== "tool-call" || part.providerExecuted === true) {
      out.push(part);
      continue;
    }
    const decided = decideToolCall({
      call: part as ModelToolCall,
      finishReason,
      repairs: args.repairs,
      maxDepth: args.maxDepth,
      splitMergedCalls: args.splitMergedCalls,
      schema: schemas.get(part.toolName),
    });
    const split = decided.split?.map((_, at) => (at === 0 ? part.toolCallId : ids.fresh(part.toolCallId)));
    const calls = splitToolCalls({
      decided,
      ...(split === undefined ? {} : { ids: split }),
      syntax: read.recovered.get(part.toolCallId),
    });
    const report = reportOf(calls[0] as ModelToolCall);
    if (report !== undefined && calls[0] !== part) reports.push(report as ToolcallCallReport);
    out.push(...calls);
  }
  if (out.some((part, at) => part !== content[at]) || out.length !== content.length) content = out;
  const providerMetadata = withSummary({
    metadata: result.providerMetadata,
    calls: reports,
    history: args.history,
    onReport: args.onReport,
  });
  const recovered = read.recovered.size > 0;
  if (content === result.content && providerMetadata === result.providerMetadata) return result;
  return {
    ...result,
    content,
    providerMetadata,
    ...(recovered && result.finishReason.unified === "stop"
      ? { finishReason: { ...result.finishReason, unified: "tool-calls" as const } }
      : {}),
  };
}
