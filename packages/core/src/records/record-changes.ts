import { isPlainObject } from "../define-property.js";
import type { SanitizeChange } from "../sanitize-options.js";

/** One change the engine made, where it was made. `before` and `after` hold the values replaced, whole. */
export interface RecordChange {
  rule: SanitizeChange["rule"];
  messageIndex: number;
  callId?: string;
  status?: string;
  repairs?: readonly string[];
  /** For a provider's fix: the profile constraint it answers (`tool_call_id_invalid` …). */
  constraint?: string;
  before?: unknown;
  after?: unknown;
  /** Where in the record, as its format names places. */
  place?: string;
  /** Which conversation of the record, for records that hold several. */
  label?: string;
}

/**
 * Sanitize's change records as the engine reports them.
 *
 * @example
 * toRecordChanges(sanitizeHistory(messages).changes)[0]; // { rule: "arguments_canonicalized", messageIndex: 2, callId: "c1", … }
 */
export function toRecordChanges(changes: readonly SanitizeChange[]): RecordChange[] {
  return changes.map((change) => {
    const reported: RecordChange = { rule: change.rule, messageIndex: change.messageIndex };
    if (change.toolCallId !== undefined) reported.callId = change.toolCallId;
    if (change.status !== undefined) reported.status = change.status;
    if (change.repairs !== undefined && change.repairs.length > 0) reported.repairs = change.repairs;
    if (change.constraint !== undefined) reported.constraint = change.constraint;
    if (change.before !== undefined) reported.before = change.before;
    if (change.after !== undefined) reported.after = change.after;
    return reported;
  });
}

/**
 * The tool call id at an issue's path (`[i, "tool_calls", j, …]` gives the call's id, `[i, "tool_call_id"]` the id a
 * tool result answers), when it is a string.
 *
 * @example
 * callIdAt({ messages: [{ role: "tool", tool_call_id: "call_1" }], path: [0, "tool_call_id"] }); // "call_1"
 */
export function callIdAt(options: {
  messages: readonly unknown[];
  path: readonly (string | number)[];
}): string | undefined {
  const { messages, path } = options;
  const message = typeof path[0] === "number" ? messages[path[0]] : undefined;
  if (!isPlainObject(message)) return undefined;
  if (path[1] === "tool_call_id")
    return typeof message.tool_call_id === "string" ? message.tool_call_id : undefined;
  if (path[1] === "tool_calls" && typeof path[2] === "number" && Array.isArray(message.tool_calls)) {
    const call = message.tool_calls[path[2]];
    return isPlainObject(call) && typeof call.id === "string" ? call.id : undefined;
  }
  return undefined;
}
