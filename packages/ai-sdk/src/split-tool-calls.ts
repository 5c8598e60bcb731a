import type { ToolcallCallReport } from "@toolcall/core/kit";
import type { ModelToolCall } from "./ai-sdk-types.js";
import { type DecidedToolCall, METADATA_KEY } from "./decide-tool-call.js";

/**
 * The calls one decided call goes on as: itself, or, when its input held several calls merged (`decided.split`),
 * one call per object with these `ids` (the first the call's own; core's `CallIds` or the `StreamDecider` gave them),
 * each with its report. A call read from text (`syntax`) is reported as recovered, with `content-call` first.
 *
 * @example
 * splitToolCalls({ decided: decideToolCall({ call, finishReason, splitMergedCalls: true }), ids: ["c1", "c1_2"] });
 */
export function splitToolCalls(args: {
  decided: DecidedToolCall;
  ids?: readonly string[];
  syntax?: string | undefined;
}): ModelToolCall[] {
  const { decided, syntax } = args;
  const split = decided.split;
  const ids = args.ids;
  let first = decided.call;
  if (syntax !== undefined) {
    const own = decided.report;
    const report: ToolcallCallReport = {
      id: first.toolCallId,
      name: first.toolName,
      status: "recovered",
      repairs: ["content-call", ...(own?.repairs ?? [])],
      usable: own?.usable ?? true,
      syntax,
      ...(own?.issue === undefined ? {} : { issue: own.issue }),
    };
    first = { ...first, providerMetadata: { ...first.providerMetadata, [METADATA_KEY]: { ...report } } };
  }
  if (split === undefined || ids === undefined || ids.length !== split.length) return [first];
  const report = {
    ...(first.providerMetadata?.[METADATA_KEY] as unknown as ToolcallCallReport),
    split: [...ids],
  };
  const calls: ModelToolCall[] = [
    { ...first, providerMetadata: { ...first.providerMetadata, [METADATA_KEY]: report } },
  ];
  for (let at = 1; at < split.length; at++) {
    const id = ids[at] as string;
    const part: ToolcallCallReport = {
      id,
      name: first.toolName,
      status: "repaired",
      repairs: ["call_split"],
      usable: true,
    };
    calls.push({
      ...decided.call,
      toolCallId: id,
      input: split[at] as string,
      providerMetadata: { ...decided.call.providerMetadata, [METADATA_KEY]: { ...part } },
    });
  }
  return calls;
}
