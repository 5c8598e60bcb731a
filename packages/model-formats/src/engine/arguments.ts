import { decodeArguments, encodeArguments, normalizeArguments } from "@toolcall/core";
import type { ArgumentsMapping, EncodableToolCall, SyntaxIssue } from "@toolcall/core/kit";
import { serializeJson } from "@toolcall/core/kit";

/** The wire text for argument text a model wrote, by core's R1/R2, and the issue when it is not an object. */
export function wireArguments(text: string, tool: string): { text: string; issue?: SyntaxIssue } {
  const normalized = normalizeArguments(text);
  const status = normalized.decoded.status;
  const out = normalized.text as string;
  if (status === "non_object" || status === "native_non_object")
    return {
      text: out,
      issue: {
        code: "arguments_not_object",
        severity: "warning",
        message: "the arguments are JSON but not an object; kept under _raw_arguments",
        path: [],
        tool,
      },
    };
  if (status === "invalid" || status === "truncated")
    return {
      text: out,
      issue: {
        code: "arguments_invalid",
        severity: "warning",
        message: "the arguments are not JSON; kept under _raw_arguments",
        path: [],
        tool,
      },
    };
  return { text: out };
}

/** A call's arguments as the mapping a template iterates (decoded losslessly, R1). */
export function argumentsMapping(call: EncodableToolCall): ArgumentsMapping {
  return decodeArguments(call.function?.arguments, { lossless: true }).arguments;
}

/** A call's arguments as `tojson` renders the mapping: Python's `json.dumps(x, ensure_ascii=False)`. */
export function argumentsJson(call: EncodableToolCall): string {
  return encodeArguments(argumentsMapping(call), { style: "python" });
}

/** A call as the JSON-list families write it: `{"name": "NAME", "arguments": {…}}` (arguments as `tojson` writes them). */
export function nameAndArgumentsJson(call: EncodableToolCall): string {
  return `{"name": ${pythonJsonText(call.function.name)}, "arguments": ${argumentsJson(call)}}`;
}

/** A call's arguments as a template that concatenates them sees them: the wire text itself (R5's string form). */
export function argumentsText(call: EncodableToolCall): string {
  return encodeArguments(call.function?.arguments);
}

/** A value as Jinja's `tojson` writes it in a chat template: Python's `json.dumps(value, ensure_ascii=False)`. */
export function pythonJsonText(value: unknown): string {
  const written = serializeJson(value, { style: "python" });
  return written.success ? written.value : "null";
}
