import { isPlainObject } from "./define-property.js";
import { type Issue, issue } from "./issues.js";

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

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Content that is a string, or a list of parts of the types the role takes; null only where `nullable`. */
function contentIssues(
  content: unknown,
  role: string,
  path: Array<string | number>,
  nullable: boolean,
): Issue[] {
  if (typeof content === "string") return [];
  if (content === null || content === undefined) {
    return nullable
      ? []
      : [issue("content_missing", [...path, "content"], `a ${role} message needs content`)];
  }
  if (!Array.isArray(content)) {
    return [
      issue(
        "content_invalid",
        [...path, "content"],
        `the content of a ${role} message is ${describe(content)}, not text or a list of parts`,
      ),
    ];
  }
  const issues: Issue[] = [];
  const allowed = PART_TYPES[role] ?? [];
  content.forEach((part: unknown, index: number) => {
    const partPath = [...path, "content", index];
    if (!isPlainObject(part) || typeof part.type !== "string") {
      issues.push(issue("content_invalid", partPath, `content part ${index} has no type`));
      return;
    }
    if ((part.type === "text" || part.type === "refusal") && typeof part[part.type] !== "string") {
      issues.push(
        issue("content_invalid", partPath, `the ${part.type} part ${index} holds no ${part.type} string`),
      );
      return;
    }
    if (!allowed.includes(part.type)) {
      issues.push(
        issue(
          "content_part_unknown",
          [...partPath, "type"],
          `a ${role} message takes no ${JSON.stringify(part.type)} part in OpenAI Chat (it takes ${allowed.join(", ")})`,
        ),
      );
    }
  });
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
  if (!isPlainObject(message)) {
    return [issue("message_invalid", [index], `message ${index} is ${describe(message)}, not an object`)];
  }
  const role = message.role;
  if (role === undefined || role === null) {
    return [issue("role_missing", [index, "role"], `message ${index} has no role`)];
  }
  if (typeof role !== "string" || !MESSAGE_ROLES.includes(role)) {
    return [
      issue(
        "role_unknown",
        [index, "role"],
        `the role ${JSON.stringify(role)} is none of ${MESSAGE_ROLES.join(", ")}`,
      ),
    ];
  }
  const path = [index];
  const issues: Issue[] = [];
  if (role === "assistant") {
    const acts =
      (Array.isArray(message.tool_calls) && message.tool_calls.length > 0) ||
      isPlainObject(message.function_call) ||
      isPlainObject(message.audio);
    issues.push(...contentIssues(message.content, role, path, acts));
    if (
      message.tool_calls !== undefined &&
      message.tool_calls !== null &&
      !Array.isArray(message.tool_calls)
    ) {
      issues.push(
        issue(
          "tool_calls_invalid",
          [index, "tool_calls"],
          `tool_calls is ${describe(message.tool_calls)}, not a list`,
        ),
      );
    }
  } else {
    issues.push(...contentIssues(message.content, role, path, role === "function"));
  }
  if (role === "tool" && (typeof message.tool_call_id !== "string" || message.tool_call_id === "")) {
    issues.push(
      issue("tool_call_id_missing", [index, "tool_call_id"], "the tool result names no tool_call_id"),
    );
  }
  const name = message.name;
  if (name !== undefined && name !== null && (typeof name !== "string" || !NAME_PATTERN.test(name))) {
    issues.push(
      issue(
        "message_name_invalid",
        [index, "name"],
        `the name ${JSON.stringify(name)} breaks ^[a-zA-Z0-9_-]{1,64}$`,
      ),
    );
  }
  return issues;
}
