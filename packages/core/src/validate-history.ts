import { isPlainObject } from "./define-property.js";
import { type Issue, issue } from "./issues.js";
import type { ProviderIssue } from "./providers/provider-profile.js";
import type { ProviderOption } from "./providers/provider-profiles.js";
import { validateForProvider } from "./providers/validate-for-provider.js";
import { isArraySafe, readHistory, walkable } from "./read-history.js";
import type { ChatMessage, ToolCall } from "./types.js";
import { collectMessageIssues } from "./validate-message.js";
import { type CallIssueSink, collectCallIssues, type ValidateOptions } from "./validate-tool-call.js";

/** Options of `validateHistory`: R3's, how calls still awaiting their results are read, and a provider profile. */
export interface ValidateHistoryOptions extends ValidateOptions {
  /**
   * Calls of the history's last assistant turn that have no result yet, with nothing but tool results after them:
   * `missing` (default) reports them `tool_result_missing`, as a strict provider sees a request ending so;
   * `pending` reports them `tool_result_pending` (a warning): a session saved while its tools were running.
   */
  pendingCalls?: "missing" | "pending";
  /**
   * A provider profile (`"mistral"`, `"anthropic"` …, or a profile object): the issues that provider would raise,
   * each with the literal error text and HTTP status it would answer with, instead of R3's issues.
   */
  provider?: ProviderOption;
}

/**
 * Validates a whole history: every message as a whole (an object, a known role, content of the shape its role takes,
 * a tool result's id), every call (R3, with paths from the message index), ids used twice, tool results that answer
 * no call of their turn, and calls left without a result before the next assistant turn. These are the reasons a
 * strict provider rejects a history; `sanitizeHistory` fixes the ones about calls and results (the shape of a
 * message is reported, never guessed at).
 *
 * @example
 * validateHistory([
 *   { role: "assistant", content: null, tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: "{}" } }] },
 * ]);
 * // [{ code: "tool_result_missing", severity: "error", path: [0, "tool_calls", 0], … }]
 *
 * With `provider`, the issues that provider would raise, in its own words:
 * validateHistory(
 *   [{ role: "assistant", content: null, tool_calls: [{ id: "functions.Bash:0", type: "function", function: { name: "Bash", arguments: "{}" } }] }],
 *   { provider: "anthropic" },
 * )[0].message;
 * // "messages.0.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'"
 */
export function validateHistory(
  messages: readonly unknown[],
  options: ValidateHistoryOptions & { provider: ProviderOption },
): ProviderIssue[];
export function validateHistory(messages: readonly unknown[], options?: ValidateHistoryOptions): Issue[];
export function validateHistory(
  messages: readonly unknown[],
  options: ValidateHistoryOptions = {},
): Issue[] | ProviderIssue[] {
  if (options.provider !== undefined) return validateForProvider(messages, { provider: options.provider });
  if (!isArraySafe(messages)) return [];
  // Read directly, or from a snapshot when that throws (a getter, a revoked proxy) or a list is too long to walk.
  return readHistory(
    messages,
    (list) => validateList(list, options),
    (issues, snapshot) =>
      issues.map((found) => {
        const [first, ...rest] = found.path;
        const index = typeof first === "number" ? (snapshot.indices[first] ?? first) : first;
        return index === first ? found : { ...found, path: [index as number, ...rest] };
      }),
  );
}

/**
 * {@link validateHistory} read only as far as the first message that has an issue: empty exactly when
 * `validateHistory` finds nothing, and then complete (calls awaiting their results at the end are found at the end,
 * so a list cut short holds some other issue). The check that decides whether a record needs a repair at all.
 *
 * @example
 * validateHistoryUntilIssue([{ role: "user", content: "hi" }], {}); // []
 */
export function validateHistoryUntilIssue(
  messages: readonly unknown[],
  options: ValidateHistoryOptions,
): Issue[] {
  if (!isArraySafe(messages)) return [];
  return readHistory(
    messages,
    (list) => validateList(list, options, true),
    (issues) => issues,
  );
}

function validateList(
  messages: readonly unknown[],
  options: ValidateHistoryOptions,
  /** Stop after the first message that has an issue (what the list holds is then only its issues). */
  firstOnly = false,
): Issue[] {
  const issues: Issue[] = [];
  const pendingCode = options.pendingCalls === "pending" ? "tool_result_pending" : "tool_result_missing";
  const seenIds = new Set<string>();
  // Per turn (the calls of one assistant message, at `turn`): the indices of the calls with each id (an id used twice
  // in one turn is paired in order, as sanitizeHistory pairs it after renaming the second call), and how many results
  // each id has had. Both maps are made once and emptied per turn: a history of many turns makes no map per turn.
  let turn = -1;
  const pending = new Map<string, number | number[]>();
  const answered = new Map<string, number>();
  // The ids of `pending` in the order their calls came: walked without an iterator or an entry array per id.
  const turnIds: string[] = [];
  const report = (id: string, callIndex: number, atEnd: boolean) => {
    const path = [turn, "tool_calls", callIndex];
    issues.push(
      atEnd && pendingCode === "tool_result_pending"
        ? issue(
            "tool_result_pending",
            path,
            `the call ${JSON.stringify(id)} awaits its result (the history ends while its tool runs)`,
          )
        : issue("tool_result_missing", path, `no tool result answers the call ${JSON.stringify(id)}`),
    );
  };
  const closeTurn = (atEnd: boolean) => {
    if (turnIds.length === 0) return;
    for (const id of turnIds) {
      const at = pending.get(id) as number | number[];
      const results = answered.get(id) ?? 0;
      if (typeof at === "number") {
        if (results === 0) report(id, at, atEnd);
      } else for (let k = results; k < at.length; k++) report(id, at[k] as number, atEnd);
    }
    turnIds.length = 0;
    pending.clear();
    answered.clear();
  };
  const callSink: CallIssueSink = { call: undefined, options, issues };
  const messageSink = { message: undefined as unknown, index: 0, issues };
  // The last turn's unanswered calls are pending while only tool results follow them (a message of any other role
  // after them means the conversation went on without their results).
  let onlyResultsSince = false;
  for (let index = 0; index < messages.length; index++) {
    if (firstOnly && issues.length > 0) return issues;
    const message: unknown = messages[index];
    // A hole of a sparse history is no message (as forEach walks it).
    if (message === undefined && !(index in messages)) continue;
    messageSink.message = message;
    messageSink.index = index;
    collectMessageIssues(messageSink);
    if (!isPlainObject(message)) continue;
    const chat = message as ChatMessage;
    if (chat.role !== "tool") onlyResultsSince = false;
    if (chat.role === "assistant") {
      closeTurn(false);
      turn = index;
      onlyResultsSince = true;
      if (!isArraySafe(chat.tool_calls)) continue;
      // Every index, holes included: a hole is sent as null, which no provider takes for a call.
      const calls = walkable(chat.tool_calls as readonly unknown[]);
      for (let callIndex = 0; callIndex < calls.length; callIndex++) {
        const call: unknown = calls[callIndex];
        callSink.call = call;
        const before = issues.length;
        collectCallIssues(callSink);
        // The call's place leads each path only when it has an issue: a clean call makes no path.
        if (issues.length > before) {
          const prefix = [index, "tool_calls", callIndex];
          for (let k = before; k < issues.length; k++) {
            const found = issues[k] as Issue;
            found.path = [...prefix, ...found.path];
          }
        }
        const id = isPlainObject(call) ? (call as ToolCall).id : undefined;
        if (typeof id !== "string" || id === "") continue;
        if (seenIds.has(id))
          issues.push(
            issue(
              "id_duplicate",
              [index, "tool_calls", callIndex, "id"],
              `the id ${JSON.stringify(id)} is used twice`,
            ),
          );
        seenIds.add(id);
        const at = pending.get(id);
        if (at === undefined) {
          pending.set(id, callIndex);
          turnIds.push(id);
        } else if (typeof at === "number") pending.set(id, [at, callIndex]);
        else at.push(callIndex);
      }
      continue;
    }
    if (chat.role === "tool") {
      const id = chat.tool_call_id;
      // A result naming no id is reported by validateMessage (tool_call_id_missing), not as an orphan.
      if (typeof id !== "string" || id === "") continue;
      const at = pending.get(id);
      const calls = at === undefined ? 0 : typeof at === "number" ? 1 : at.length;
      const results = answered.get(id) ?? 0;
      if (results < calls) {
        answered.set(id, results + 1);
      } else {
        issues.push(
          issue(
            "tool_result_orphan",
            [index, "tool_call_id"],
            `the tool result ${typeof id === "string" ? JSON.stringify(id) : `with no id (${id === null ? "null" : typeof id})`} answers no call of its turn`,
          ),
        );
      }
    }
  }
  closeTurn(onlyResultsSince);
  return issues;
}
