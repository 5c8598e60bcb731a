import { argumentIssues, type StreamDecision } from "@toolcall/core/kit";
import type { ToolUseReport } from "./messages-repair-options.js";

/**
 * What became of a decided `tool_use` block, as `onRepair` is told: its own copy of the decode's repairs (core's
 * result lists are readonly and often the one shared empty list), the R3 issues of its input as it arrived, and, for
 * input that held several calls, the ids of the blocks it became.
 *
 * @example
 * const decider = new StreamDecider({ repairs: coreRepairs });
 * decider.push({ index: 0, id: "toolu_1", name: "get_weather", arguments: "{'city': 'Paris'}" });
 * const [decided] = decider.finish("tool_calls");
 * if (decided?.type === "decided")
 *   toolUseReport({ decision: decided.decision, index: 1, call: { id: "toolu_1", name: "get_weather" }, split: [] })
 *     .repairs; // ["python-literal"]
 */
export function toolUseReport(args: {
  decision: StreamDecision;
  /** The block's index as the client sees it. */
  index: number;
  call: { id: string | undefined; name: string };
  /** The ids of the blocks merged input became (its own first); fewer than two: none. */
  split: readonly { id: string }[];
}): ToolUseReport {
  const { decision, split } = args;
  const decoded = decision.answer.decoded;
  return {
    kind: "tool_use",
    index: args.index,
    toolUseId: args.call.id,
    name: args.call.name,
    status: decoded.status,
    repairs: [...decoded.repairs],
    issues: argumentIssues(decoded),
    usable: decision.usable,
    changed: decision.changed,
    before: decision.raw,
    after: decision.text,
    fit: decision.fit,
    ...(split.length > 1 ? { split: split.map((part) => part.id) } : {}),
  };
}
