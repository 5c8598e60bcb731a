import type { SyntaxIssue, SyntaxStreamEvent, ToolCallSyntax } from "@toolcall/core/kit";
import type { ContentCallExtractor, ExtractionEvent, ExtractionIssue } from "./content-call-extractor.js";

const issueOf = ({ code, severity, message, path }: SyntaxIssue): ExtractionIssue => ({
  code,
  severity,
  message,
  path,
});

function fromSyntax(events: readonly SyntaxStreamEvent[]): ExtractionEvent[] {
  const out: ExtractionEvent[] = [];
  for (const event of events) {
    switch (event.type) {
      case "content":
      case "reasoning":
        out.push(event);
        break;
      case "tool_call_end":
        out.push({ type: "tool_call", toolCall: event.toolCall });
        break;
      case "tool_call_abort":
        // The call's text follows as content; the reason is reported.
        out.push({ type: "issue", issue: issueOf(event.issue) });
        break;
      case "issue":
        out.push({ type: "issue", issue: issueOf(event.issue) });
        break;
      default:
        // `tool_call_start` / `tool_call_delta`: the proxy hands a recovered call on whole, at its end.
        break;
    }
  }
  return out;
}

/**
 * Any tool-call syntax of `@toolcall/model-formats` (or one implementing core's `ToolCallSyntax`) as a
 * `--content-calls` extractor: calls read with the request's tools typing values, reasoning (`<think>`, analysis
 * channels) handed on as reasoning, everything else left in content as the model wrote it. `startInReasoning` when
 * the chat template's generation prompt opens the reasoning block (what `detectToolCallSyntax` reports).
 *
 * @example
 * import { hermes } from "@toolcall/model-formats";
 * const extractor = syntaxContentCalls({ syntax: hermes });
 * extractor.parse('<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>', { tools: [] }).toolCalls.length; // 1
 */
export function syntaxContentCalls(args: {
  syntax: ToolCallSyntax;
  /** The name `--content-calls` and the log use (default: the syntax's id). */
  name?: string;
  startInReasoning?: boolean;
}): ContentCallExtractor {
  const { syntax } = args;
  const startInReasoning = args.startInReasoning === true;
  return {
    name: args.name ?? syntax.id,
    syntax: syntax.id,
    parse(content, context) {
      const result = syntax.parse(content, { tools: context.tools, startInReasoning });
      return {
        toolCalls: result.toolCalls,
        content: result.content,
        reasoning: result.reasoning,
        issues: result.issues.map(issueOf),
      };
    },
    createStream(context) {
      const stream = syntax.createStream({ tools: context.tools, startInReasoning });
      return { push: (delta) => fromSyntax(stream.push(delta)), end: () => fromSyntax(stream.end()) };
    },
  };
}
