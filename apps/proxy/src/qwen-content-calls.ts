import { type ContentCallExtractor, type ExtractionEvent, extractionIssue } from "@toolcall/openai";
import { parseQwenToolCalls, type QwenStreamEvent, QwenToolCallStream } from "@toolcall/qwen-templates";

function fromQwen(events: readonly QwenStreamEvent[]): ExtractionEvent[] {
  return events.map((event): ExtractionEvent => {
    switch (event.type) {
      case "content":
      case "tool_call":
        return event;
      case "issue":
        return { type: "issue", issue: extractionIssue(event.issue) };
      default: {
        const never: never = event;
        return never;
      }
    }
  });
}

/**
 * Qwen3-Coder / Qwen3.5 calls left in content
 * (`<tool_call><function=NAME><parameter=P>…</parameter></function></tool_call>`, RULES.md R8), read by
 * `@toolcall/qwen-templates` with each value typed by the request's tool schemas: `--content-calls qwen`.
 *
 * @example
 * qwenContentCalls.parse("<tool_call>\n<function=get_weather>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>", { tools });
 * // { toolCalls: [{ function: { name: "get_weather", arguments: '{"days": 3}' }, … }], content: null, issues: [] }
 */
export const qwenContentCalls: ContentCallExtractor = {
  name: "qwen",
  syntax: "qwen3-coder",
  parse(content, context) {
    const { toolCalls, content: rest, issues } = parseQwenToolCalls(content, { tools: context.tools });
    return { toolCalls, content: rest, issues: issues.map(extractionIssue) };
  },
  createStream(context) {
    const stream = new QwenToolCallStream({ tools: context.tools });
    return { push: (delta) => fromQwen(stream.push(delta)), end: () => fromQwen(stream.end()) };
  },
};
