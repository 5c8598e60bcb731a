import { loadVectors } from "@toolcall/conformance";
import { describeConformance } from "@toolcall/conformance/vitest";
import type { SyntaxParseResult, SyntaxStreamEvent } from "@toolcall/core/kit";
import { gemma4 } from "./gemma4-syntax.js";

/** Folds stream events into a whole result (as a caller of the stream would). */
function fold(events: readonly SyntaxStreamEvent[]): SyntaxParseResult {
  const content: string[] = [];
  const reasoning: string[] = [];
  let sawReasoning = false;
  const result: SyntaxParseResult = { toolCalls: [], content: null, reasoning: null, issues: [] };
  for (const event of events) {
    if (event.type === "content") content.push(event.text);
    else if (event.type === "reasoning") {
      sawReasoning = true;
      reasoning.push(event.text);
    } else if (event.type === "tool_call_end") result.toolCalls.push(event.toolCall);
    else if (event.type === "issue" || event.type === "tool_call_abort") result.issues.push(event.issue);
  }
  const text = content.join("");
  return {
    ...result,
    content: text.trim() === "" ? null : text,
    reasoning: sawReasoning ? reasoning.join("") : null,
  };
}

const ids = ({ index }: { index: number }) => `call_${index}`;

// Gemma 4's R10 vectors; every other family's are run by @toolcall/model-formats.
const others = loadVectors({ rules: ["R10"] })
  .map((testCase) => testCase.id)
  .filter((id) => !id.startsWith("r10-gemma4-"));

describeConformance({
  implementation: {
    name: "@toolcall/gemma-recovery",
    parseToolCalls: (text: string) => gemma4.parse(text, { createId: ids }),
    streamToolCalls: (chunks: readonly string[]) => {
      const stream = gemma4.createStream({ createId: ids });
      return fold([...chunks.flatMap((chunk) => stream.push(chunk)), ...stream.end()]);
    },
    encodeToolCalls: (calls: Array<{ id?: string; name: string; arguments: string }>) =>
      gemma4.encode(
        calls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: c.arguments },
        })),
      ),
  },
  rules: ["R10"],
  skip: others,
});
