// Tool (b): a model's raw output → the calls, content and reasoning its family's parser reads, and the round trip
// through the chat template (`roundTrip` of @toolcall/model-formats): does the template render the parsed message
// back to the very bytes the model wrote, and if not, where does it first differ.
import type { SyntaxParseResult, ToolCallSyntax } from "@toolcall/core/kit";
import {
  type DetectedSyntax,
  detectToolCallSyntax,
  type RoundTripResult,
  roundTrip,
  syntaxById,
} from "@toolcall/model-formats";
import { readInputs, type TemplateInputs } from "./template-tool.js";

export interface OutputInputs extends TemplateInputs {
  output: string;
  /** `auto` (the template's detected syntax) or a syntax id. */
  syntax: string;
}

export interface OutputReport {
  /** The syntax used, or `null` with `problem` saying why there is none. */
  syntax: ToolCallSyntax | null;
  detected?: DetectedSyntax;
  parsed?: SyntaxParseResult;
  roundTrip?: RoundTripResult;
  /** The expected text of the round trip: the generation prompt, then the output. */
  expected?: string;
  problem?: string;
  /** Input fields that could not be read. */
  errors: string[];
}

/**
 * Parses the output and checks its round trip against the template, with the conversation of tool (a) as the turns
 * before it.
 *
 * @example
 * runOutputTool({ ...templateInputs, output: "<tool_call>…</tool_call>", syntax: "auto" }).parsed?.toolCalls;
 */
export function runOutputTool(inputs: OutputInputs): OutputReport {
  const read = readInputs(inputs);
  const report: OutputReport = { syntax: null, errors: read.errors };
  let syntax: ToolCallSyntax | undefined;
  if (inputs.syntax === "auto") {
    report.detected = detectToolCallSyntax(inputs.source);
    syntax = report.detected.id === null ? undefined : syntaxById(report.detected.id);
    if (syntax === undefined) {
      report.problem =
        report.detected.id === null
          ? "the template writes no tool-call syntax the packages know: pick one"
          : `${report.detected.id} is detected, and no package here implements it`;
      return report;
    }
  } else {
    syntax = syntaxById(inputs.syntax);
    if (syntax === undefined) {
      report.problem = `no syntax ${inputs.syntax}`;
      return report;
    }
  }
  report.syntax = syntax;
  const parse = () => {
    // As roundTrip reads it: inside a reasoning block when the generation prompt opens one.
    const startInReasoning = (report.detected ?? detectToolCallSyntax(inputs.source)).startInReasoning;
    return syntax.parse(inputs.output, { tools: read.tools ?? null, startInReasoning });
  };
  if (read.messages === undefined) {
    report.parsed = parse();
    return report;
  }
  report.roundTrip = roundTrip({
    template: inputs.source,
    output: inputs.output,
    messages: read.messages,
    tools: read.tools ?? null,
    syntax,
    ...(read.variables ? { variables: read.variables } : {}),
  });
  report.parsed = report.roundTrip.parsed ?? parse();
  report.expected = report.roundTrip.generationPrompt + inputs.output;
  return report;
}
