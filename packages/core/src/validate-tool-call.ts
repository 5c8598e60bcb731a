import { type DecodeResult, decodeArguments } from "./decode-arguments.js";
import { isPlainObject } from "./define-property.js";
import { isRawSentinel } from "./encode-arguments.js";
import { type Issue, issue } from "./issues.js";
import { checkSchemaSubset } from "./json-schema-subset.js";
import { isArraySafe, listEntries, snapshotCall } from "./read-history.js";
import type { RepairRule } from "./repairs/repair-rule.js";
import type { FinishReason, ToolCall, ToolDefinition } from "./types.js";

/** What `validateToolCall` checks against: the advertised tools (and their schemas), the finish reason, repairs. */
export interface ValidateOptions {
  /** The tools offered to the model: enables `unknown_tool`, and `arguments_schema` where a tool has parameters. */
  tools?: readonly ToolDefinition[];
  /** Why generation stopped; with `"length"`, text that is not JSON is `arguments_truncated`. */
  finishReason?: FinishReason | null;
  /** Repairs (R6) to apply before checking arguments against a tool's schema. */
  repairs?: readonly RepairRule[];
  /** Nesting limit for arguments text (default 1000); deeper text is `arguments_invalid_json`. */
  maxDepth?: number;
}

const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** The function part of an OpenAI tool definition or a bare `{ name, parameters }` (none for one that cannot be read). */
export function toolFunction(tool: unknown): { name?: unknown; parameters?: unknown } | undefined {
  try {
    if (!isPlainObject(tool)) return undefined;
    return isPlainObject(tool.function) ? tool.function : tool;
  } catch {
    return undefined;
  }
}

/** The offered tool named `name`: the first whose name can be read and matches. */
function findTool(tools: unknown, name: string): { name?: unknown; parameters?: unknown } | undefined {
  if (!isArraySafe(tools)) return undefined;
  for (const tool of listEntries(tools)?.values ?? []) {
    const fn = toolFunction(tool);
    try {
      if (fn !== undefined && fn.name === name) return fn;
    } catch {
      // A name that cannot be read names no tool.
    }
  }
  return undefined;
}

/** True when a call is a function call (or says nothing about its type but has a `function`). */
export function isFunctionCall(call: ToolCall): boolean {
  return call.type === "function" || (call.type === undefined && isPlainObject(call.function));
}

/**
 * Validates one OpenAI-shaped tool call before it is persisted or sent to a strict provider (RULES.md R3). Never
 * throws; returns every issue found (an empty list when the call is clean).
 *
 * @example
 * validateToolCall({ id: "call_1", type: "function", function: { name: "get_weather", arguments: "" } });
 * // [{ code: "arguments_empty", severity: "error", path: ["function", "arguments"], message: … }]
 */
export function validateToolCall(call: unknown, options: ValidateOptions = {}): Issue[] {
  const issues: Issue[] = [];
  collectCallIssues({ call, options, issues });
  return issues;
}

/** The call {@link collectCallIssues} checks, with what, and the list it adds its issues to. */
export interface CallIssueSink {
  call: unknown;
  options: ValidateOptions;
  issues: Issue[];
}

/**
 * {@link validateToolCall} into a list the caller holds: a history's check of many calls makes no list per clean
 * call.
 *
 * @example
 * const issues: Issue[] = [];
 * collectCallIssues({ call: { id: "a", type: "function", function: { name: "f", arguments: "" } }, options: {}, issues });
 * // issues[0].code: "arguments_empty"
 */
export function collectCallIssues(sink: CallIssueSink): void {
  const before = sink.issues.length;
  try {
    validateCall(sink.call, sink.options, sink);
  } catch {
    // A getter that throws, or a revoked proxy: validated again from a snapshot, where an unreadable part is absent.
    sink.issues.length = before;
    validateCall(snapshotCall(sink.call), sink.options, sink);
  }
}

function place(sink: CallIssueSink, found: Issue): void {
  sink.issues.push(found);
}

function validateCall(call: unknown, options: ValidateOptions, sink: CallIssueSink): void {
  if (!isPlainObject(call)) {
    place(sink, issue("id_missing", [], "the tool call is not an object"));
    place(sink, issue("name_missing", [], "the tool call is not an object"));
    return;
  }
  const toolCall = call as ToolCall;
  if (typeof toolCall.id !== "string" || toolCall.id === "") {
    place(sink, issue("id_missing", ["id"], "the tool call has no id"));
  }
  if (!isFunctionCall(toolCall)) return;
  const fn = isPlainObject(toolCall.function) ? toolCall.function : {};
  const name = fn.name;
  if (typeof name !== "string" || name === "") {
    place(sink, issue("name_missing", ["function", "name"], "the tool call has no name"));
  } else if (!NAME_PATTERN.test(name)) {
    place(
      sink,
      issue(
        "name_invalid",
        ["function", "name"],
        `the name ${JSON.stringify(name)} breaks ^[a-zA-Z0-9_-]{1,64}$`,
      ),
    );
  }
  const decoded = decodeArguments(fn.arguments, {
    finishReason: options.finishReason,
    repairs: options.repairs,
    maxDepth: options.maxDepth,
  });
  // A clean object (the common case) has no issue to make: no list is made for it.
  if (decoded.status !== "object" || isRawSentinel(decoded.arguments))
    for (const found of argumentIssues(decoded)) place(sink, found);
  if (options.tools !== undefined && typeof name === "string" && name !== "") {
    const tool = findTool(options.tools, name);
    if (tool === undefined) {
      place(
        sink,
        issue("unknown_tool", ["function", "name"], `no tool named ${JSON.stringify(name)} was offered`),
      );
    } else if (
      tool.parameters !== undefined &&
      decoded.status !== "invalid" &&
      decoded.status !== "truncated"
    ) {
      if (!isRawSentinel(decoded.arguments)) {
        let violations: ReturnType<typeof checkSchemaSubset> = [];
        try {
          violations = checkSchemaSubset(decoded.arguments, tool.parameters);
        } catch {
          // A schema or a value that cannot be read is not checked (R3 checks what it can read, never guesses).
        }
        for (const violation of violations) {
          place(
            sink,
            issue("arguments_schema", ["function", "arguments", ...violation.path], violation.message),
          );
        }
      }
    }
  }
}

/**
 * The R3 issues a decode outcome (R1) stands for, without decoding again: what `validateToolCall` reports about a
 * call's arguments, for adapters that already hold the decode.
 *
 * @example
 * argumentIssues(decodeArguments("")); // [{ code: "arguments_empty", severity: "error", … }]
 */
export function argumentIssues(
  decoded: DecodeResult,
  argumentsPath: Array<string | number> = ["function", "arguments"],
): Issue[] {
  const issues: Issue[] = [];
  switch (decoded.status) {
    case "absent":
      issues.push(issue("arguments_absent", argumentsPath, "the arguments are absent (sent as {})"));
      break;
    case "empty":
      issues.push(
        issue("arguments_empty", argumentsPath, 'the arguments are empty text; strict providers want "{}"'),
      );
      break;
    case "invalid":
      issues.push(
        issue(
          "arguments_invalid_json",
          argumentsPath,
          `the arguments are not JSON: ${decoded.error}${
            decoded.budget === undefined
              ? ""
              : `; not tried for the work budget: ${decoded.budget.join(", ")}`
          }`,
        ),
      );
      break;
    case "truncated":
      issues.push(issue("arguments_truncated", argumentsPath, "the arguments were cut off by a length stop"));
      break;
    case "null_literal":
    case "double_encoded":
    case "non_object":
    case "native_non_object":
      issues.push(
        issue(
          "arguments_not_object",
          argumentsPath,
          `the arguments are not a JSON object (${decoded.status})`,
        ),
      );
      break;
    case "repaired":
      issues.push(
        issue(
          "arguments_invalid_json",
          argumentsPath,
          `the arguments are not JSON (repairable: ${decoded.repairs.join(", ")})`,
        ),
      );
      break;
    case "object":
      if (isRawSentinel(decoded.arguments)) {
        issues.push(
          issue(
            "arguments_raw_sentinel",
            argumentsPath,
            "the arguments hold a raw sentinel: they were malformed",
          ),
        );
      }
      break;
    default: {
      const never: never = decoded.status;
      throw new TypeError(`unknown status ${String(never)}`);
    }
  }
  return issues;
}
