import { argumentIssues, type FinishReason, normalizeArguments } from "@toolcall/core";
import type { ArgumentsReport, OpenAIApi, OpenAIRepairOptions, RepairSource } from "./options.js";

/** One function call's arguments through core, reported when anything was off. */
export function repairArguments(args: {
  api: OpenAIApi;
  source: Exclude<RepairSource, "request">;
  index: number;
  id: string | undefined;
  name: string | undefined;
  arguments: unknown;
  finishReason: FinishReason | null | undefined;
  options: OpenAIRepairOptions;
}): { text: unknown; report: ArgumentsReport | undefined } {
  const { options } = args;
  const normalized = normalizeArguments(args.arguments, {
    repairs: options.repairs ?? [],
    finishReason: args.finishReason,
    policy: options.policy ?? "preserve",
    maxDepth: options.maxDepth,
  });
  if (!normalized.changed && normalized.decoded.status === "object")
    return { text: normalized.text, report: undefined };
  const report: ArgumentsReport = {
    kind: "arguments",
    api: args.api,
    source: args.source,
    index: args.index,
    toolCallId: args.id,
    name: args.name,
    status: normalized.decoded.status,
    repairs: normalized.decoded.repairs,
    issues: argumentIssues(normalized.decoded),
    changed: normalized.changed,
    before: args.arguments,
    after: normalized.text,
  };
  options.onRepair?.(report);
  return { text: normalized.text, report };
}
