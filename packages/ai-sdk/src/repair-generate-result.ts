import type { SanitizeChange } from "@toolcall/core";
import type { GenerateResult, ModelToolCall } from "./ai-sdk-types.js";
import { type DecideOptions, decideToolCall, type ToolCallReport } from "./decide-tool-call.js";
import { coreFinishReason } from "./finish-reason.js";
import { withSummary } from "./report-summary.js";

/**
 * A model's whole answer with its tool calls decided by core's rules, knowing why the model stopped (see
 * `decideToolCall`): repaired calls get canonical JSON text, a call cut by a length stop keeps its text and is
 * never made runnable. Reports go in each call's `providerMetadata.toolcall` and, summed up, in the answer's. The
 * answer itself comes back when every call was clean and the prompt needed nothing.
 *
 * @example
 * const repaired = repairGenerateResult(await model.doGenerate(params), { repairs: coreRepairs });
 */
export function repairGenerateResult(
  result: GenerateResult,
  options: DecideOptions = {},
  history?: readonly SanitizeChange[],
): GenerateResult {
  const finishReason = coreFinishReason(result.finishReason);
  let content = result.content;
  const reports: ToolCallReport[] = [];
  for (const [index, part] of result.content.entries()) {
    if (part.type !== "tool-call" || part.providerExecuted === true) continue;
    const decided = decideToolCall(part as ModelToolCall, options, finishReason);
    if (decided.call === part) continue;
    if (content === result.content) content = [...result.content];
    content[index] = decided.call;
    if (decided.report !== undefined) reports.push(decided.report);
  }
  const providerMetadata = withSummary(result.providerMetadata, reports, history);
  if (content === result.content && providerMetadata === result.providerMetadata) return result;
  return { ...result, content, providerMetadata };
}
