import { decodeArguments } from "@toolcall/core";
import { isPlainObject } from "@toolcall/core/kit";

/** What a render does with one call's arguments that is not `json.loads` of their text (RULES.md R1, R5). */
export interface ArgumentNote {
  /** Keys from the message list to the arguments (`[2, "tool_calls", 0, "function", "arguments"]`). */
  path: Array<string | number>;
  /** The same place, as people read it (`messages[2].tool_calls[0]`). */
  place: string;
  /** What decoding found (core's status), or `not_text` for a template that takes text and got something else. */
  status: string;
  /** What the template gets instead (`has arguments that are not JSON: the template gets {"_raw_arguments": …}`). */
  message: string;
}

const STATUS_NOTES: Partial<Record<string, string>> = {
  absent: "has no arguments: the template gets {}",
  empty: "has empty arguments: the template gets {}",
  null_literal: "has the arguments null: the template gets {}",
  double_encoded: "has arguments encoded twice: the template gets the object inside",
  non_object:
    'has arguments that are JSON but not an object: the template gets {"_raw_arguments": <the text>}',
  native_non_object:
    'has arguments that are not an object: the template gets {"_raw_arguments": <the value>}',
  invalid: 'has arguments that are not JSON: the template gets {"_raw_arguments": <the text>}',
};

/**
 * The calls whose arguments reach a template as something other than `json.loads` of their text would give: a
 * Python dict, truncated or non-object text renders as `{"_raw_arguments": …}`, `""` and `"null"` as `{}`. The
 * command line prints these beside a render and the playground shows them under it, so what a prompt holds is never a
 * surprise. `argumentsForm` is the template's (its probe's `argumentsForm`). Never throws.
 *
 * @example
 * renderArgumentNotes([{ role: "assistant", tool_calls: [{ function: { name: "f", arguments: "{'a': 1}" } }] }], { argumentsForm: "mapping" });
 * // [{ place: "messages[0].tool_calls[0]", status: "invalid", message: 'has arguments that are not JSON: …', … }]
 */
export function renderArgumentNotes(
  messages: readonly unknown[],
  options: { argumentsForm: "mapping" | "string" },
): ArgumentNote[] {
  const notes: ArgumentNote[] = [];
  messages.forEach((message, index) => {
    if (!isPlainObject(message) || !Array.isArray(message.tool_calls)) return;
    message.tool_calls.forEach((call: unknown, callIndex: number) => {
      if (!isPlainObject(call) || !isPlainObject(call.function)) return;
      const path = [index, "tool_calls", callIndex, "function", "arguments"];
      const place = `messages[${index}].tool_calls[${callIndex}]`;
      const args = call.function.arguments;
      if (options.argumentsForm === "string") {
        if (typeof args !== "string")
          notes.push({
            path,
            place,
            status: "not_text",
            message: "has arguments that are not text: the template gets their JSON text",
          });
        return;
      }
      const { status } = decodeArguments(args, { lossless: true });
      const note = STATUS_NOTES[status];
      if (note !== undefined) notes.push({ path, place, status, message: note });
    });
  });
  return notes;
}
