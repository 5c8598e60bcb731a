import { CallIds } from "./call-ids.js";
import { isPlainObject } from "./define-property.js";
import { EMPTY_LIST } from "./empty-list.js";
import { decodeOptionsOf } from "./normalize-arguments.js";
import { sanitizeForProvider } from "./providers/sanitize-for-provider.js";
import { isArraySafe, listEntries, readHistory } from "./read-history.js";
import { toolSchemasOf } from "./repair-tool-name.js";
import {
  DEFAULT_SYNTHETIC_RESULT,
  type SanitizeChange,
  type SanitizeOptions,
  type SanitizeResult,
} from "./sanitize-options.js";
import { sanitizeTurnCalls } from "./sanitize-turn-calls.js";
import type { TurnCall, TurnCallList } from "./turn-call-list.js";
import type { ChatMessage, ToolCall } from "./types.js";

const POLICIES: readonly string[] = ["preserve", "drop", "empty"];
const MISSING_RESULT: readonly string[] = ["synthesize", "drop-call"];
const PENDING_CALLS: readonly string[] = ["synthesize", "drop-call", "keep"];

function prependNote(content: unknown, note: string): unknown {
  if (typeof content === "string") return `${note}\n${content}`;
  // A long sparse list keeps the entries it holds; one that cannot be read is kept whole, after the note.
  if (isArraySafe(content)) {
    const entries = listEntries(content);
    return [{ type: "text", text: note }, ...(entries === undefined ? [content] : entries.values)];
  }
  return note;
}

function isEmptyContent(content: unknown): boolean {
  return (
    content === null ||
    content === undefined ||
    content === "" ||
    (isArraySafe(content) && lengthOf(content) === 0)
  );
}

const NO_DATA_KEYS = new Set(["role", "content", "tool_calls", "name"]);

/**
 * An assistant message with nothing in it: no content, no calls, and no other field with a value (a message that
 * still carries `reasoning_content` or an `audio` reference is kept).
 */
function isEmptyAssistant(chat: ChatMessage, calls: readonly unknown[]): boolean {
  if (calls.length > 0 || !isEmptyContent(chat.content)) return false;
  return Object.keys(chat).every(
    (key) => NO_DATA_KEYS.has(key) || chat[key] === null || chat[key] === undefined,
  );
}
/**
 * Makes a history that a strict provider accepts, without losing what the model did (RULES.md R4). Never mutates
 * its input; idempotent; returns the same array and no changes when nothing needs fixing. Every change is reported
 * with the values it replaced.
 *
 * @example
 * const { messages, changes } = sanitizeHistory([
 *   { role: "user", content: "weather?" },
 *   { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "w", arguments: "" } }] },
 *   { role: "tool", tool_call_id: "c1", content: "sunny" },
 * ]);
 * messages[1].tool_calls[0].function.arguments; // "{}"
 * changes[0].rule; // "arguments_canonicalized"
 */
export function sanitizeHistory<M>(messages: readonly M[], options: SanitizeOptions = {}): SanitizeResult<M> {
  if (options.provider !== undefined)
    return sanitizeForProvider(
      messages,
      { ...options, provider: options.provider },
      sanitizeHistory,
    ) as SanitizeResult<M>;
  if (!isArraySafe(messages)) {
    sanitizeList([], options); // the options are checked all the same
    return { messages: messages as unknown as M[], changes: [] };
  }
  // Read directly, or from a snapshot when that throws (a getter, a revoked proxy) or a list is too long to walk.
  return readHistory(
    messages,
    (list) => sanitizeList(list as readonly M[], options),
    (result, snapshot) => ({
      messages:
        result.messages === snapshot.list
          ? (messages as M[])
          : (result.messages.map(snapshot.original) as M[]),
      changes: result.changes.map((change) => ({
        ...change,
        messageIndex: snapshot.indices[change.messageIndex] ?? change.messageIndex,
        ...("before" in change ? { before: snapshot.original(change.before) } : {}),
      })),
    }),
  );
}

function sanitizeList<M>(messages: readonly M[], options: SanitizeOptions): SanitizeResult<M> {
  const policy = options.policy ?? "preserve";
  const missingResult = options.missingResult ?? "synthesize";
  const pendingCalls = options.pendingCalls ?? missingResult;
  const syntheticResult = options.syntheticResult ?? DEFAULT_SYNTHETIC_RESULT;
  const repairs = options.repairs ?? [];
  if (
    !POLICIES.includes(policy) ||
    !MISSING_RESULT.includes(missingResult) ||
    !PENDING_CALLS.includes(pendingCalls)
  ) {
    // Options come from the caller's code, not from the model: a wrong one is a programming error.
    throw new TypeError(
      `sanitizeHistory: unknown policy ${JSON.stringify(policy)}, missingResult ${JSON.stringify(missingResult)} or pendingCalls ${JSON.stringify(pendingCalls)}`,
    );
  }
  if (!Array.isArray(messages)) return { messages: messages as unknown as M[], changes: [] };
  const changes: SanitizeChange[] = [];
  const out: unknown[] = [];
  // Call ids are unique across the whole history (some providers reject an id used in two turns).
  const usedIds = new CallIds();
  const normalizeOptions = { repairs, policy: "keep" } as const;
  const tools = Array.isArray(options.tools)
    ? { list: options.tools, schemas: toolSchemasOf(options.tools) }
    : undefined;
  // One context for every turn: what it holds is the history's, not a turn's.
  const turnContext = {
    policy,
    normalizeOptions,
    usedIds,
    changes,
    splitMergedCalls: options.splitMergedCalls,
    tools,
    decodeOptions: decodeOptionsOf(normalizeOptions),
  };
  let index = 0;
  const length = messages.length;
  // The message that ended a turn's results, read there: each message is read once.
  let carried = false;
  let carriedMessage: unknown;

  while (index < length) {
    // A message carried from the turn before was read there, and is a plain assistant message.
    const message = carried ? carriedMessage : (messages[index] as unknown);
    if (!carried && !isPlainObject(message)) {
      out.push(message);
      index++;
      continue;
    }
    carried = false;
    const chat = message as ChatMessage;
    const role = chat.role;
    if (role === "tool") {
      changes.push({
        rule: "result_dropped_orphan",
        messageIndex: index,
        toolCallId: stringOrUndefined(chat.tool_call_id),
        before: message,
      });
      index++;
      continue;
    }
    const toolCalls = role === "assistant" ? chat.tool_calls : undefined;
    const withCalls = toolCalls !== undefined && isArraySafe(toolCalls);
    if (role === "assistant" && !withCalls && isEmptyAssistant(chat, EMPTY_LIST)) {
      changes.push({ rule: "message_removed_empty", messageIndex: index, before: message });
      index++;
      continue;
    }
    if (!withCalls) {
      out.push(message);
      index++;
      continue;
    }

    // An assistant turn with tool calls: its calls, then its results up to the next assistant message.
    const turnIndex = index;
    const turn = sanitizeTurnCalls(toolCalls, turnIndex, turnContext);
    const { kept, droppedIds, renamed } = turn;
    let callsChanged = turn.callsChanged;

    const assistantOut = out.length;
    out.push(message); // replaced below if the calls changed
    let lastResultOut = assistantOut;
    // Per renamed id, how many of its fresh ids are answered already (answered ids stay answered).
    let renamedAnswered: Map<string, number> | undefined;
    // The turn's unanswered calls are pending when the history ends with it and only tool results follow them.
    let onlyResults = true;
    index++;
    while (index < length) {
      const next = messages[index] as unknown;
      const nextRole = isPlainObject(next) ? (next as ChatMessage).role : undefined;
      if (nextRole === "assistant") {
        carried = true;
        carriedMessage = next;
        break;
      }
      if (nextRole !== "tool") {
        onlyResults = false;
        out.push(next);
        index++;
        continue;
      }
      const result = next as ChatMessage;
      let resultId = stringOrUndefined(result.tool_call_id);
      let resultOut: unknown = next;
      const renamedTo = resultId === undefined ? undefined : renamed?.get(resultId);
      if (
        resultId !== undefined &&
        renamedTo !== undefined &&
        (isAnswered(kept, resultId) || !(kept.has(resultId) || droppedIds?.has(resultId)))
      ) {
        // A result for an id that was renamed (used twice in this turn, or already in an earlier one) answers the
        // renamed call, in order.
        renamedAnswered ??= new Map();
        let cursor = renamedAnswered.get(resultId) ?? 0;
        while (cursor < renamedTo.length && isAnswered(kept, renamedTo[cursor])) cursor++;
        renamedAnswered.set(resultId, cursor);
        const fresh = renamedTo[cursor];
        if (fresh !== undefined) {
          changes.push({
            rule: "call_id_renamed",
            messageIndex: index,
            toolCallId: fresh,
            before: resultId,
            after: fresh,
          });
          resultOut = { ...result, tool_call_id: fresh };
          resultId = fresh;
        }
      }
      const target = resultId === undefined ? undefined : kept.get(resultId);
      if (resultId !== undefined && droppedIds?.has(resultId) === true && target === undefined) {
        changes.push({
          rule: "result_dropped_with_call",
          messageIndex: index,
          toolCallId: resultId,
          before: next,
        });
      } else if (target !== undefined && target.answered !== true) {
        target.answered = true;
        if (target.note !== undefined) {
          const content = prependNote(result.content, target.note);
          changes.push({
            rule: "result_note_prepended",
            messageIndex: index,
            toolCallId: target.id,
            before: result.content,
            after: content,
          });
          resultOut = { ...(resultOut as ChatMessage), content };
        }
        out.push(resultOut);
        lastResultOut = out.length - 1;
      } else if (target !== undefined) {
        changes.push({
          rule: "result_dropped_duplicate",
          messageIndex: index,
          toolCallId: target.id,
          before: next,
        });
      } else {
        changes.push({
          rule: "result_dropped_orphan",
          messageIndex: index,
          toolCallId: resultId,
          before: next,
        });
      }
      index++;
    }

    // The calls written out, listed only when they changed: a clean turn keeps its list as it is.
    const entries = kept.entries;
    let finalCalls: ToolCall[] | undefined = callsChanged ? [] : undefined;
    let synthesized: unknown[] | undefined;
    const unanswered = index >= length && onlyResults ? pendingCalls : missingResult;
    for (let at = 0; at < entries.length; at++) {
      const entry = entries[at] as TurnCall;
      if (entry.answered === true || unanswered === "keep") {
        finalCalls?.push(entry.call);
      } else if (unanswered === "synthesize") {
        finalCalls?.push(entry.call);
        const content = entry.note === undefined ? syntheticResult : prependNote(syntheticResult, entry.note);
        const synthetic = { role: "tool", tool_call_id: entry.id, content };
        changes.push({
          rule: "result_synthesized",
          messageIndex: turnIndex,
          toolCallId: entry.id,
          after: synthetic,
        });
        synthesized ??= [];
        synthesized.push(synthetic);
      } else {
        // Every call before this one was kept.
        finalCalls ??= entries.slice(0, at).map((earlier) => earlier.call);
        callsChanged = true;
        changes.push({
          rule: "call_dropped_missing_result",
          messageIndex: turnIndex,
          toolCallId: entry.id,
          before: entry.call,
        });
      }
    }
    if (synthesized !== undefined) out.splice(lastResultOut + 1, 0, ...synthesized);
    if ((finalCalls ?? entries).length === 0) {
      if (isEmptyAssistant(chat, EMPTY_LIST)) {
        changes.push({ rule: "message_removed_empty", messageIndex: turnIndex, before: message });
        out.splice(assistantOut, 1);
      } else {
        const { tool_calls: removed, ...rest } = chat;
        changes.push({ rule: "tool_calls_removed_empty", messageIndex: turnIndex, before: removed });
        out[assistantOut] = rest;
      }
    } else if (callsChanged && finalCalls !== undefined) {
      out[assistantOut] = { ...chat, tool_calls: finalCalls };
    }
  }
  if (changes.length === 0) return { messages: messages as M[], changes };
  return { messages: out as M[], changes };
}

/** Whether the turn's call with this id was answered (marked on its entry: no set per turn). */
function isAnswered(kept: TurnCallList, id: string | undefined): boolean {
  return id !== undefined && kept.get(id)?.answered === true;
}

/** A list's length; one that cannot be read is no length (so the list does not count as empty). */
function lengthOf(list: readonly unknown[]): number | undefined {
  try {
    return list.length;
  } catch {
    return undefined;
  }
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}
