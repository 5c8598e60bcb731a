import type { FinishReason, ToolDefinition } from "@toolcall/core";
import { type ConversationFormat, type FormatReading, isPlainObject, placeOfPath } from "@toolcall/core/kit";
import { applyItemEdits, type ItemsReading, isResponseItem, readResponseItems } from "./responses-items.js";

type Shape =
  | { kind: "request"; items: unknown[]; key: "input" }
  | { kind: "response"; items: unknown[]; key: "output" }
  | { kind: "list"; items: unknown[] };

function shapeOf(value: unknown): Shape | undefined {
  if (Array.isArray(value)) {
    const typed = value.some((item) => isPlainObject(item) && typeof item.type === "string");
    return typed && value.length > 0 && value.every(isResponseItem)
      ? { kind: "list", items: value }
      : undefined;
  }
  if (!isPlainObject(value)) return undefined;
  if (value.object === "response" && Array.isArray(value.output)) {
    return { kind: "response", items: value.output, key: "output" };
  }
  if (Array.isArray(value.input) && value.input.every(isResponseItem) && !("messages" in value)) {
    return { kind: "request", items: value.input, key: "input" };
  }
  return undefined;
}

/** Function tools of a request (`{type: "function", name, parameters}`), as core reads tools; built-in tools have no name. */
function toolsOf(value: unknown): ToolDefinition[] | undefined {
  if (!isPlainObject(value) || !Array.isArray(value.tools)) return undefined;
  return value.tools.filter(
    (tool): tool is ToolDefinition => isPlainObject(tool) && typeof tool.name === "string",
  );
}

/** A neutral path's field in its item: `function.arguments` is `arguments`, `id` is `call_id`. */
function itemField(path: readonly (string | number)[]): Array<string | number> {
  const rest = path[1] === "tool_calls" ? path.slice(3) : path.slice(1);
  if (rest[0] === "function" || rest[0] === "custom") return rest.slice(1);
  if (rest[0] === "id" || rest[0] === "tool_call_id") return ["call_id", ...rest.slice(1)];
  return [...rest];
}

function finishReasonOf(response: Record<string, unknown>): FinishReason | null {
  const details = response.incomplete_details;
  if (response.status === "incomplete" && isPlainObject(details) && details.reason === "max_output_tokens") {
    return "length";
  }
  return null;
}

/**
 * OpenAI Responses API items: a request body (`{input: [...], tools?}`), a response (`{"object": "response",
 * output: [...]}`: an answer, its calls pending by nature), or a bare list of items. Items are read as
 * {@link readResponseItems} reads them; writing back changes, drops or adds items (a synthesized
 * `function_call_output`) and leaves every other item and key as it was.
 *
 * @example
 * const reading = openaiResponsesFormat.read({ model: "gpt-5", input: items, tools });
 * reading.conversations[0].messages; // the neutral view of `input`
 */
export const openaiResponsesFormat: ConversationFormat = {
  id: "openai-responses",
  name: "OpenAI Responses API items",
  expected:
    'a request {"input": [items]}, a response {"object": "response", "output": [items]}, or a list of items',
  unit: "record",
  priority: 10,
  matches: (value) => shapeOf(value) !== undefined,
  read(value): FormatReading {
    // Reading is more lenient than matching: any list is a list of items (an emptied one included).
    const shape: Shape | undefined = Array.isArray(value) ? { kind: "list", items: value } : shapeOf(value);
    if (shape === undefined) {
      return {
        conversations: [],
        issues: [
          {
            code: "record_not_conversation",
            severity: "error",
            message: "neither a Responses request, a response, nor a list of items",
            path: [],
          },
        ],
        write: () => ({ ok: true, value }),
      };
    }
    const record = value as Record<string, unknown>;
    const continues =
      shape.kind === "request" &&
      ((typeof record.previous_response_id === "string" && record.previous_response_id !== "") ||
        (record.conversation !== undefined && record.conversation !== null));
    const reading: ItemsReading = readResponseItems(shape.items, { continues });
    const prefix = shape.kind === "list" ? "" : shape.key;
    const tools = toolsOf(value);
    return {
      conversations: [
        {
          messages: reading.messages,
          ...(tools ? { tools } : {}),
          ...(shape.kind === "response" ? { answer: true, finishReason: finishReasonOf(record) } : {}),
          placeOf(path) {
            const item = reading.itemAt(path);
            return item === undefined
              ? placeOfPath({ prefix, path })
              : placeOfPath({ prefix, path: [item, ...itemField(path)] });
          },
        },
      ],
      issues: [],
      write([messages]) {
        if (messages === undefined) return { ok: true, value };
        const result = reading.edits(messages);
        if (!result.ok) return result;
        const items = applyItemEdits(shape.items, result.edits);
        if (shape.kind === "list") return { ok: true, value: items };
        return { ok: true, value: { ...record, [shape.key]: items } };
      },
    };
  },
};
