import { decodeArguments, serializeJson } from "@toolcall/core";
import {
  type EncodableToolCall,
  isPlainObject,
  type SyntaxIssue,
  type SyntaxParseOptions,
  type SyntaxStream,
  type SyntaxStreamEvent,
  type SyntaxToolCall,
  type ToolCallSyntax,
} from "@toolcall/core/kit";
import { pyStr, toPython } from "@toolcall/jinja";
import { parseQwenToolCalls } from "./parse-qwen-tool-calls.js";
import type { QwenIssue, QwenToolCall } from "./qwen-issue.js";
import { QwenToolCallStream } from "./qwen-tool-call-stream.js";
import { FUNCTION_OPEN, TOOL_CALL_OPEN } from "./read-qwen-block.js";

function withId(call: QwenToolCall, index: number, options: SyntaxParseOptions): SyntaxToolCall {
  const id = options.createId ? options.createId({ index, name: call.function.name }) : call.id;
  return { id, type: "function", function: { name: call.function.name, arguments: call.function.arguments } };
}

const asIssue = (issue: QwenIssue): SyntaxIssue => ({ ...issue, path: [] });

/** A value as the Qwen3-Coder template writes it: mappings and lists as `tojson`, anything else as Python's `str()`. */
function writeValue(value: unknown): string {
  if (isPlainObject(value) || Array.isArray(value)) {
    const written = serializeJson(value, { style: "python" });
    return written.success ? written.value : "null";
  }
  return pyStr(toPython(value));
}

/**
 * Encodes calls as the Qwen3-Coder / Qwen3.5 templates render them: each call
 * `\n<tool_call>\n<function=NAME>\n<parameter=K>\nVALUE\n</parameter>\n…</function>\n</tool_call>`.
 *
 * @example
 * encodeQwen3Coder([{ function: { name: "get_weather", arguments: '{"city": "Paris", "days": 3}' } }]);
 * // "\n<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>"
 */
export function encodeQwen3Coder(calls: readonly EncodableToolCall[]): string {
  return calls
    .map((call) => {
      const args = decodeArguments(call.function?.arguments, { lossless: true }).arguments;
      const parameters = Object.entries(args)
        .map(([key, value]) => `<parameter=${key}>\n${writeValue(value)}\n</parameter>\n`)
        .join("");
      return `\n${TOOL_CALL_OPEN}\n${FUNCTION_OPEN}${call.function.name}>\n${parameters}</function>\n</tool_call>`;
    })
    .join("");
}

class Qwen3CoderStream implements SyntaxStream {
  readonly #stream: QwenToolCallStream;
  readonly #options: SyntaxParseOptions;
  #index = 0;

  constructor(options: SyntaxParseOptions) {
    this.#options = options;
    this.#stream = new QwenToolCallStream({ tools: options.tools ?? null, meter: options.meter });
  }

  #map(events: ReturnType<QwenToolCallStream["push"]>): SyntaxStreamEvent[] {
    const out: SyntaxStreamEvent[] = [];
    for (const event of events) {
      if (event.type === "content") out.push(event);
      else if (event.type === "issue") out.push({ type: "issue", issue: asIssue(event.issue) });
      else {
        // A call is decided whole here: it is announced, its arguments given and ended at once.
        const index = this.#index++;
        const toolCall = withId(event.toolCall, index, this.#options);
        out.push(
          { type: "tool_call_start", index, id: toolCall.id, name: toolCall.function.name },
          { type: "tool_call_delta", index, arguments: toolCall.function.arguments },
          { type: "tool_call_end", index, toolCall },
        );
      }
    }
    return out;
  }

  push(delta: string): SyntaxStreamEvent[] {
    return typeof delta === "string" && delta !== "" ? this.#map(this.#stream.push(delta)) : [];
  }

  end(): SyntaxStreamEvent[] {
    return this.#map(this.#stream.end());
  }
}

/**
 * Qwen3-Coder / Qwen3.5 as a `ToolCallSyntax` (the interface of `@toolcall/core` every model syntax implements):
 * {@link parseQwenToolCalls} and {@link QwenToolCallStream} behind `parse` and `createStream`, and
 * {@link encodeQwen3Coder}. The reasoning block is not read here (`reasoning` is always `null`); a stream announces
 * each call once it is decided, with its arguments in one delta.
 *
 * @example
 * qwen3Coder.parse("<tool_call>\n<function=get_weather>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>", { tools }).toolCalls[0].function.arguments;
 * // '{"days": 3}'
 */
export const qwen3Coder: ToolCallSyntax = {
  specificationVersion: "1",
  id: "qwen3-coder",
  name: "Qwen3-Coder / Qwen3.5 (<function=…><parameter=…>)",
  startMarkers: [TOOL_CALL_OPEN, FUNCTION_OPEN],
  parse(text, options = {}) {
    const parsed = parseQwenToolCalls(typeof text === "string" ? text : "", {
      tools: options.tools ?? null,
      meter: options.meter,
    });
    return {
      toolCalls: parsed.toolCalls.map((call, index) => withId(call, index, options)),
      content: parsed.content,
      reasoning: null,
      issues: parsed.issues.map(asIssue),
    };
  },
  createStream: (options = {}) => new Qwen3CoderStream(options),
  encode: encodeQwen3Coder,
};
