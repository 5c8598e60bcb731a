import type { Issue } from "@toolcall/core";
import type { WorkCounter } from "@toolcall/core/kit";
import { llamaPythonic } from "@toolcall/model-formats";

/** The issue codes of {@link readMalformedFunctionCall}. */
export type MalformedCallCode =
  | "malformed_call_read"
  | "malformed_call_unreadable"
  | "malformed_call_unknown_tool";

/** What {@link readMalformedFunctionCall} did: the candidate (a new one when read) and what it found. */
export interface MalformedCallResult {
  status: "read" | "unchanged" | "unreadable";
  candidate: unknown;
  issues: Issue<MalformedCallCode>[];
}

const PREFIX = "Malformed function call:";
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The `functionDeclarations` of a Gemini `tools` list, as bare `{ name, parameters }` tools. */
function declarations(tools: readonly unknown[]): { name: string; parameters?: unknown }[] {
  const out: { name: string; parameters?: unknown }[] = [];
  for (const tool of tools) {
    const list = isObject(tool) ? (tool.functionDeclarations ?? tool.function_declarations) : undefined;
    for (const declaration of Array.isArray(list) ? list : [tool])
      if (isObject(declaration) && typeof declaration.name === "string")
        out.push({
          name: declaration.name,
          parameters: declaration.parameters ?? declaration.parametersJsonSchema,
        });
  }
  return out;
}

/** The call text inside the message: `print(…)` unwrapped, Gemini's `default_api.` namespace dropped. */
function callText(message: string): string {
  let text = message.slice(PREFIX.length).trim();
  const printed = /^print\(([\s\S]*)\)$/.exec(text);
  if (printed) text = (printed[1] as string).trim();
  return text.startsWith("default_api.") ? text.slice("default_api.".length) : text;
}

/**
 * Reads the Python call Gemini leaves in a candidate's `finishMessage` when it ends with
 * `finishReason: "MALFORMED_FUNCTION_CALL"` (`Malformed function call: print(default_api.f(a="x"))`): one call,
 * read by model-formats' pythonic syntax and naming an advertised tool when `tools` are given, becomes a
 * `functionCall` part and the finish reason `STOP` (`malformed_call_read`, info). Anything else is left as it is:
 * `malformed_call_unreadable` (not one complete Python call) or `malformed_call_unknown_tool` (warnings).
 *
 * @example
 * const candidate = { content: { role: "model", parts: [] }, finishReason: "MALFORMED_FUNCTION_CALL", finishMessage: 'Malformed function call: print(default_api.get_weather(city="Paris"))' };
 * const read = readMalformedFunctionCall({ candidate }).candidate as { content: { parts: unknown[] } };
 * read.content.parts;
 * // [{ functionCall: { name: "get_weather", args: { city: "Paris" } } }]
 */
export function readMalformedFunctionCall(options: {
  candidate: unknown;
  tools?: readonly unknown[] | null;
  /** Counts the characters the pythonic reading examines (linear in the message). */
  work?: WorkCounter;
}): MalformedCallResult {
  const { candidate } = options;
  if (!isObject(candidate) || candidate.finishReason !== "MALFORMED_FUNCTION_CALL")
    return { status: "unchanged", candidate, issues: [] };
  const message = candidate.finishMessage;
  const unreadable = (why: string): MalformedCallResult => ({
    status: "unreadable",
    candidate,
    issues: [
      { code: "malformed_call_unreadable", severity: "warning", message: why, path: ["finishMessage"] },
    ],
  });
  if (typeof message !== "string" || !message.startsWith(PREFIX))
    return unreadable("the finish message does not carry a call");
  const tools = options.tools ? declarations(options.tools) : null;
  const parsed = llamaPythonic.parse(`[${callText(message)}]`, {
    tools,
    ...(options.work ? { work: options.work } : {}),
  });
  const call = parsed.toolCalls[0];
  if (call === undefined || parsed.toolCalls.length !== 1 || parsed.content !== null)
    return unreadable("the finish message is not one complete Python call");
  if (parsed.issues.some((issue) => issue.severity === "error"))
    return unreadable("the finish message's call does not read cleanly");
  const name = call.function.name;
  if (tools !== null && !tools.some((tool) => tool.name === name))
    return {
      status: "unreadable",
      candidate,
      issues: [
        {
          code: "malformed_call_unknown_tool",
          severity: "warning",
          message: `the finish message calls ${name}, which is not an advertised tool`,
          path: ["finishMessage"],
        },
      ],
    };
  const content = isObject(candidate.content) ? candidate.content : { role: "model" };
  const parts = Array.isArray(content.parts) ? content.parts : [];
  let args: unknown;
  try {
    args = JSON.parse(call.function.arguments);
  } catch {
    return unreadable("the finish message's arguments are not an object");
  }
  const { finishMessage: _dropped, ...rest } = candidate;
  return {
    status: "read",
    candidate: {
      ...rest,
      content: {
        ...content,
        role: content.role ?? "model",
        parts: [...parts, { functionCall: { name, args } }],
      },
      finishReason: "STOP",
    },
    issues: [
      {
        code: "malformed_call_read",
        severity: "info",
        message: `${name} read from the finish message's Python call`,
        path: ["finishMessage"],
      },
    ],
  };
}
