import { GemmaToolCallStream, parseGemmaToolCalls } from "@toolcall/gemma-recovery";
import { type ContentCallExtractor, type ExtractionEvent, extractionIssue } from "@toolcall/openai";

function fromGemma(events: ReturnType<GemmaToolCallStream["push"]>): ExtractionEvent[] {
  return events.map((event): ExtractionEvent => {
    switch (event.type) {
      case "content":
        return event;
      case "tool_call":
        return { type: "tool_call", toolCall: event.toolCall };
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
 * Gemma 4's native calls left in content (`<|tool_call>call:NAME{…}<tool_call|>`, RULES.md R7), read by
 * `@toolcall/gemma-recovery`: `--content-calls gemma`.
 *
 * @example
 * gemmaContentCalls.parse('<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>', { tools: [] });
 * // { toolCalls: [{ function: { name: "get_weather", arguments: '{"city":"Paris"}' }, … }], content: null, issues: [] }
 */
export const gemmaContentCalls: ContentCallExtractor = {
  name: "gemma",
  syntax: "gemma4",
  parse(content) {
    const { toolCalls, content: rest, issues } = parseGemmaToolCalls(content);
    return { toolCalls, content: rest, issues: issues.map(extractionIssue) };
  },
  createStream() {
    const stream = new GemmaToolCallStream();
    return { push: (delta) => fromGemma(stream.push(delta)), end: () => fromGemma(stream.end()) };
  },
};
