import { isPlainObject } from "./define-property.js";
import { type Issue, issue } from "./issues.js";
import { isArraySafe, listEntries, readRecord } from "./read-history.js";
import { serializeJson } from "./serialize-json.js";

/** The roles of OpenAI Chat Completions messages (`function` is the legacy result role). */
export const MESSAGE_ROLES: readonly string[] = [
  "system",
  "developer",
  "user",
  "assistant",
  "tool",
  "function",
];

/** Content part types each role takes in OpenAI Chat Completions. */
const PART_TYPES: Readonly<Record<string, readonly string[]>> = {
  system: ["text"],
  developer: ["text"],
  user: ["text", "image_url", "input_audio", "file"],
  assistant: ["text", "refusal"],
  tool: ["text"],
  function: ["text"],
};

const NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** No issue: shared, never written to (a clean message makes no list). */
const NONE: readonly Issue[] = Object.freeze([]);

function describe(value: unknown): string {
  if (value === null) return "null";
  if (isArraySafe(value)) return "a list";
  if (typeof value !== "object") return `a ${typeof value}`;
  return isPlainObject(value) ? "an object" : "an object that is not plain data";
}

/** A value in a message: its JSON, cut short when long; never throws (a BigInt, a cycle, a getter that throws). */
function show(value: unknown): string {
  const written = serializeJson(value, { maxLength: 200 });
  if (written.success) return written.value;
  if (typeof value !== "string") return describe(value);
  const cut = serializeJson(value.slice(0, 100));
  return cut.success ? `${cut.value}…` : "a long text";
}

/** Content that is a string, or a list of parts of the types the role takes; null only where `nullable`. */
function contentIssues(
  content: unknown,
  role: string,
  path: Array<string | number>,
  nullable: boolean,
): readonly Issue[] {
  if (typeof content === "string") return NONE;
  if (content === null || content === undefined) {
    return nullable
      ? NONE
      : [issue("content_missing", [...path, "content"], `a ${role} message needs content`)];
  }
  if (!isArraySafe(content)) {
    return [
      issue(
        "content_invalid",
        [...path, "content"],
        `the content of a ${role} message is ${describe(content)}, not text or a list of parts`,
      ),
    ];
  }
  // Every index of a list short enough to walk (a hole is sent as null: a part with no type), the present parts of a
  // longer one (its holes reported once): what it holds, never its length, is walked.
  const entries = listEntries(content);
  if (entries === undefined) {
    return [
      issue("content_invalid", [...path, "content"], `the content of a ${role} message cannot be read`),
    ];
  }
  const issues: Issue[] = [];
  const allowed = PART_TYPES[role] ?? [];
  entries.values.forEach((part: unknown, at: number) => {
    const index = entries.indices[at] as number;
    const partPath = [...path, "content", index];
    let type: unknown;
    let body: unknown;
    try {
      type = isPlainObject(part) ? part.type : undefined;
      body = typeof type === "string" && isPlainObject(part) ? part[type] : undefined;
    } catch {
      type = undefined;
    }
    if (typeof type !== "string") {
      issues.push(issue("content_invalid", partPath, `content part ${index} has no type`));
      return;
    }
    if ((type === "text" || type === "refusal") && typeof body !== "string") {
      issues.push(issue("content_invalid", partPath, `the ${type} part ${index} holds no ${type} string`));
      return;
    }
    if (!allowed.includes(type)) {
      issues.push(
        issue(
          "content_part_unknown",
          [...partPath, "type"],
          `a ${role} message takes no ${show(type)} part in OpenAI Chat (it takes ${allowed.join(", ")})`,
        ),
      );
    }
  });
  if (entries.values.length < entries.length) {
    let hole = 0;
    while (hole < entries.indices.length && entries.indices[hole] === hole) hole++;
    issues.push(issue("content_invalid", [...path, "content", hole], `content part ${hole} has no type`));
  }
  return issues;
}

/**
 * Checks one message as a whole, beyond its tool calls: an object, a known role, content of the shape that role
 * takes, a tool result's `tool_call_id`, a well-formed `name`. `validateHistory` runs it on every message; the
 * pairing of calls and results is its job, not this one's.
 *
 * @example
 * validateMessage({ content: "hi" }, 0); // [{ code: "role_missing", severity: "error", path: [0, "role"], … }]
 * validateMessage({ role: "bogus", content: "hi" }, 3); // [{ code: "role_unknown", path: [3, "role"], … }]
 */
export function validateMessage(message: unknown, index: number): Issue[] {
  const issues: Issue[] = [];
  collectMessageIssues({ message, index, issues });
  return issues;
}

/**
 * {@link validateMessage} into a list the caller holds: a history's check of many messages makes no list per clean
 * message.
 *
 * @example
 * const issues: Issue[] = [];
 * collectMessageIssues({ message: { content: "hi" }, index: 0, issues }); // issues[0].code === "role_missing"
 */
export function collectMessageIssues(sink: { message: unknown; index: number; issues: Issue[] }): void {
  const { message, index, issues } = sink;
  const before = issues.length;
  try {
    checkMessage(message, index, issues);
  } catch {
    // A getter that throws: the message is checked again as what can be read (each property read once, those that
    // throw left out), as validateHistory reads it.
    issues.length = before;
    const copy = readRecord(message);
    try {
      if (copy !== undefined) {
        checkMessage(copy, index, issues);
        return;
      }
    } catch {
      // A value inside that cannot be read either.
      issues.length = before;
    }
    issues.push(issue("message_invalid", [index], `message ${index} cannot be read`));
  }
}

function checkMessage(message: unknown, index: number, issues: Issue[]): void {
  if (!isPlainObject(message)) {
    issues.push(issue("message_invalid", [index], `message ${index} is ${describe(message)}, not an object`));
    return;
  }
  const role = message.role;
  if (role === undefined || role === null) {
    issues.push(issue("role_missing", [index, "role"], `message ${index} has no role`));
    return;
  }
  if (typeof role !== "string" || !MESSAGE_ROLES.includes(role)) {
    issues.push(
      issue("role_unknown", [index, "role"], `the role ${show(role)} is none of ${MESSAGE_ROLES.join(", ")}`),
    );
    return;
  }
  if (role === "assistant") {
    const acts =
      (isArraySafe(message.tool_calls) && message.tool_calls.length > 0) ||
      isPlainObject(message.function_call) ||
      isPlainObject(message.audio);
    const content = message.content;
    if (typeof content !== "string") issues.push(...contentIssues(content, role, [index], acts));
    if (message.tool_calls !== undefined && message.tool_calls !== null && !isArraySafe(message.tool_calls)) {
      issues.push(
        issue(
          "tool_calls_invalid",
          [index, "tool_calls"],
          `tool_calls is ${describe(message.tool_calls)}, not a list`,
        ),
      );
    }
  } else {
    const content = message.content;
    if (typeof content !== "string")
      issues.push(...contentIssues(content, role, [index], role === "function"));
  }
  if (role === "tool" && (typeof message.tool_call_id !== "string" || message.tool_call_id === "")) {
    issues.push(
      issue("tool_call_id_missing", [index, "tool_call_id"], "the tool result names no tool_call_id"),
    );
  }
  const name = message.name;
  if (name !== undefined && name !== null && (typeof name !== "string" || !NAME_PATTERN.test(name))) {
    issues.push(
      issue("message_name_invalid", [index, "name"], `the name ${show(name)} breaks ^[a-zA-Z0-9_-]{1,64}$`),
    );
  }
}
