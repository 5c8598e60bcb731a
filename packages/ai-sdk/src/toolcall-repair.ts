import { validateToolCall } from "@toolcall/core";
import type { ToolCallRepairFunction, ToolSet } from "ai";
import { type DecideOptions, decideToolCall, reportOf } from "./decide-tool-call.js";

/** Options of {@link toolcallRepair}: the repairs to try (e.g. `coreRepairs`) and core's nesting limit. */
export type ToolcallRepairOptions = DecideOptions;

/**
 * An `experimental_repairToolCall` for `generateText`, `streamText` and agents: when the SDK cannot parse a call's
 * input or it breaks the tool's schema, the input is decoded with core's rules and the named repairs (R1, R6); the
 * call is handed back with canonical JSON text when that gives an object that the tool's `inputSchema` accepts
 * (core's R3 schema check), and `null` otherwise, so the SDK reports its own error (a tool error the model sees).
 * A call with no such tool is left to the SDK.
 *
 * The SDK does not tell a repair function why generation stopped. Core's own repairs never complete cut-off JSON,
 * so they cannot make a truncated call run; `jsonrepair` can: name it only together with {@link toolcallMiddleware},
 * which decides each call knowing the finish reason and marks a call that must not run (`providerMetadata.toolcall`),
 * which this function then leaves alone.
 *
 * @example
 * const result = await generateText({
 *   model,
 *   tools,
 *   prompt: "Weather in Paris?",
 *   experimental_repairToolCall: toolcallRepair({ repairs: coreRepairs }),
 * });
 */
export function toolcallRepair<TOOLS extends ToolSet = ToolSet>(
  options: ToolcallRepairOptions = {},
): ToolCallRepairFunction<TOOLS> {
  return async ({ toolCall, tools, inputSchema }) => {
    const name = toolCall.toolName;
    if (tools === undefined || tools === null || !Object.hasOwn(tools, name)) return null;
    // The middleware decided this call knowing why generation stopped: a call it found unusable stays so.
    if (reportOf(toolCall)?.usable === false) return null;
    const { call, report } = decideToolCall({ ...options, call: toolCall, finishReason: undefined });
    if (report === undefined || !report.usable || call.input === toolCall.input) return null;
    let schema: unknown;
    try {
      schema = await inputSchema({ toolName: name });
    } catch {
      return null;
    }
    const issues = validateToolCall(
      { id: call.toolCallId, type: "function", function: { name, arguments: call.input } },
      { tools: [{ name, parameters: schema }] },
    );
    return issues.some((issue) => issue.code === "arguments_schema") ? null : call;
  };
}
