import type { ConversationFormat, FormatConversation, FormatReading } from "../conversation-format.js";
import { isPlainObject } from "../define-property.js";
import type { Issue, IssueSeverity } from "../issues.js";
import { coreRepairs } from "../repairs/index.js";
import type { RepairRule } from "../repairs/repair-rule.js";
import { sanitizeHistory } from "../sanitize-history.js";
import type { SanitizeChange, SanitizeOptions } from "../sanitize-options.js";
import { validateHistory, validateHistoryUntilIssue } from "../validate-history.js";
import { keepEmptyTurns } from "./empty-turns.js";
import {
  findingMessage,
  matchFindings,
  type ProviderCheck,
  profilesOf,
  providerFindings,
} from "./provider-findings.js";
import { callIdAt, type RecordChange, toRecordChanges } from "./record-changes.js";

/** One issue, placed in its record as the record's format names places: core's issue, with where it is. */
export interface RecordIssue extends Issue<string> {
  /**
   * `record` for what the record's format found in its own shape (its `path` then leads through the record, not the
   * neutral view); absent for an issue of a conversation (its `path` leads through the neutral view's messages).
   */
  scope?: "record";
  /** Where in the record (`messages[3].tool_calls[0]`, `conversations[4]`). */
  place?: string;
  /** Which conversation of the record (`choices[1]`), for records that hold several. */
  label?: string;
  callId?: string;
  /** The provider profiles that reject a history with this issue (when profiles were checked). */
  refusedBy?: readonly string[];
  /** For an issue a provider profile found: each rejecting profile's answer, HTTP status and literal text. */
  answers?: ReadonlyArray<{ provider: string; status: number; message: string }>;
}

/** What checking a record found. */
export interface RecordCheck {
  conversations: number;
  issues: RecordIssue[];
}

/** What repairing a record did and left. */
export interface RecordRepair {
  conversations: number;
  /** The record rewritten in its own format, when a rule changed something and the format could write it. */
  value?: unknown;
  changes: RecordChange[];
  /** Why the record was kept as it was although a rule would change it (the format cannot hold the change). */
  notRewritable?: string;
  /** What is still wrong after the repair, read again from the record as written. */
  remaining: RecordIssue[];
}

/** What happens to calls still awaiting their results at the end of a history. */
export type PendingPolicy = "keep" | "synthesize" | "drop-call";

/** What `createRecordEngine` takes: repairs, the providers to check against, and the policies its repairs follow. */
export interface RecordEngineOptions {
  /** Repairs (R6) tried on arguments; default core's. */
  repairs?: readonly RepairRule[];
  /** Skip sanitizing a conversation in which nothing is found (default true); off only to test it changes nothing. */
  skipClean?: boolean;
  policy?: SanitizeOptions["policy"];
  missingResult?: SanitizeOptions["missingResult"];
  syntheticResult?: string;
  /** Calls of the last turn awaiting their results: kept (default), given a synthetic result, or dropped. */
  pending?: PendingPolicy;
  /** Which provider profiles conversations are checked against (none when absent). */
  providers?: ProviderCheck;
  /** The provider the repaired record is for: its constraints' fixes run after core's. */
  provider?: string;
}

/** No repair rule: what the check of a record about to be repaired runs (see `repair`). */
const NO_REPAIRS: readonly RepairRule[] = Object.freeze([]);

/** Something sanitize acts on that validation reports no issue for (an empty assistant turn, mapping arguments). */
function sanitizeActsBeyondIssues(messages: readonly unknown[]): boolean {
  for (const message of messages) {
    if (!isPlainObject(message) || message.role !== "assistant") continue;
    const calls = message.tool_calls;
    if (Array.isArray(calls)) {
      if (calls.length === 0) return true;
      for (const call of calls) {
        const fn = isPlainObject(call) ? call.function : undefined;
        if (isPlainObject(fn) && isPlainObject(fn.arguments)) return true;
      }
    } else if (message.content === "" || (Array.isArray(message.content) && message.content.length === 0)) {
      return true;
    }
  }
  return false;
}

function placed(
  conversation: FormatConversation,
  issue: { code: string; severity: IssueSeverity; message: string; path: Array<string | number> },
): RecordIssue {
  const out: RecordIssue = {
    code: issue.code,
    severity: issue.severity,
    message: issue.message,
    path: issue.path,
  };
  const place = conversation.placeOf?.(issue.path);
  if (place !== undefined) out.place = place;
  if (conversation.label !== undefined) out.label = conversation.label;
  const callId = callIdAt({ messages: conversation.messages, path: issue.path });
  if (callId !== undefined) out.callId = callId;
  return out;
}

/**
 * The record engine: reads a record through its format into core's neutral view, checks it (every message whole,
 * every call, pairing; calls of the last turn awaiting their results are `tool_result_pending` warnings, never
 * missing, and nothing at all in a conversation whose format says it `expectsResults: false`), repairs it with sanitize, and writes it back through the format, which keeps every byte it did not
 * change. Every door (the command line, the playground, a library user) gives the same verdict on the same record.
 * Empty turns are left as they are unless `provider` names a profile whose fixes remove them (the change then names
 * the rule).
 *
 * @example
 * const engine = createRecordEngine({ providers: { mode: "errors" } });
 * engine.check(openaiChatFormat, record).issues; // [{ code, severity, message, place, … }]
 * engine.repair(sharegptFormat, row).value; // the row, repaired, in ShareGPT's own shapes
 */
export function createRecordEngine(options: RecordEngineOptions = {}) {
  const repairs = options.repairs ?? coreRepairs;
  const target = options.provider === undefined ? undefined : profilesOf([options.provider])[0];
  const sanitizeFor = (conversation: FormatConversation): SanitizeOptions => ({
    repairs,
    ...(options.policy !== undefined ? { policy: options.policy } : {}),
    ...(options.missingResult !== undefined ? { missingResult: options.missingResult } : {}),
    ...(options.syntheticResult !== undefined ? { syntheticResult: options.syntheticResult } : {}),
    // An answer's calls have no results by nature: they are left as they are, whatever `pending` says.
    pendingCalls:
      conversation.answer || conversation.expectsResults === false ? "keep" : (options.pending ?? "keep"),
    ...(target !== undefined && !conversation.answer ? { provider: target } : {}),
  });

  /** Core's issues of a conversation; with `untilIssue`, read only as far as the first (empty: it has none). */
  const validate = (
    conversation: FormatConversation,
    rules: readonly RepairRule[] = repairs,
    untilIssue = false,
  ) => {
    const settings = {
      ...(conversation.tools ? { tools: conversation.tools } : {}),
      ...(conversation.finishReason !== undefined ? { finishReason: conversation.finishReason } : {}),
      repairs: rules,
      pendingCalls: "pending" as const,
    };
    const found = untilIssue
      ? validateHistoryUntilIssue(conversation.messages, settings)
      : validateHistory(conversation.messages, settings);
    // Expected calls (a benchmark's answers) await no result: one rule here, whatever the format.
    return conversation.expectsResults === false
      ? found.filter((issue) => issue.code !== "tool_result_pending")
      : found;
  };

  /** Core's issues of one conversation, then the provider profiles' verdicts on it (an answer is no request). */
  const checkConversation = (conversation: FormatConversation, found: readonly Issue[]): RecordIssue[] => {
    const issues = found.map((issue) => placed(conversation, issue));
    if (options.providers === undefined || conversation.answer) return issues;
    const findings = providerFindings({
      messages: conversation.messages,
      issues: found,
      check: options.providers,
    });
    const { refusedBy, unmatched } = matchFindings({ issues: found, findings });
    issues.forEach((issue, i) => {
      const names = refusedBy[i];
      if (names !== undefined) issue.refusedBy = names;
    });
    // Named profiles: what they reject that core's rules do not (an id pattern, reasoning to pass back) is an error.
    if (options.providers.mode === "named") {
      for (const finding of unmatched) {
        const issue = placed(conversation, {
          code: finding.code,
          severity: "error",
          message: findingMessage(finding),
          path: finding.path,
        });
        issue.refusedBy = finding.rejectedBy;
        issue.answers = finding.errors;
        issues.push(issue);
      }
    }
    return issues;
  };

  const checkReading = (
    reading: FormatReading,
    known?: ReadonlyMap<FormatConversation, Issue[]>,
  ): RecordCheck => {
    const issues: RecordIssue[] = reading.issues.map((found) => ({
      code: found.code,
      severity: found.severity,
      message: found.message,
      path: found.path,
      scope: "record" as const,
      ...(found.place !== undefined ? { place: found.place } : {}),
    }));
    for (const conversation of reading.conversations)
      issues.push(...checkConversation(conversation, known?.get(conversation) ?? validate(conversation)));
    return { conversations: reading.conversations.length, issues };
  };

  const needsNothing = (conversation: FormatConversation, found: readonly Issue[]): boolean =>
    found.length === 0 &&
    !sanitizeActsBeyondIssues(conversation.messages) &&
    (target === undefined ||
      conversation.answer === true ||
      validateHistory(conversation.messages, { provider: target }).length === 0);

  const sanitize = (conversation: FormatConversation): { messages: unknown[]; changes: SanitizeChange[] } => {
    const settings = sanitizeFor(conversation);
    // With no provider named, no rule asks for empty turns to go: they stay (docs/decisions.md, "Empty turns").
    if (target !== undefined && !conversation.answer) return sanitizeHistory(conversation.messages, settings);
    return keepEmptyTurns({
      messages: conversation.messages,
      sanitize: (messages) => sanitizeHistory(messages, settings),
    });
  };

  return {
    /**
     * Checks one record read through its format.
     *
     * @example
     * createRecordEngine().check(openaiChatFormat, [{ role: "user", content: "hi" }]).issues; // []
     */
    check(format: ConversationFormat, value: unknown): RecordCheck {
      return checkReading(format.read(value));
    },

    /**
     * Repairs one record read through its format and writes it back in the format's own shapes; `remaining` is read
     * again from what was written, so the report says what the written record holds.
     *
     * @example
     * createRecordEngine().repair(openaiChatFormat, record).changes; // [{ rule: "arguments_canonicalized", … }]
     */
    repair(format: ConversationFormat, value: unknown): RecordRepair {
      const reading = format.read(value);
      const changes: RecordChange[] = [];
      const validated = new Map<FormatConversation, Issue[]>();
      const clean = new Set<FormatConversation>();
      if (options.skipClean !== false) {
        for (const conversation of reading.conversations) {
          // Whether anything is found does not hang on the repairs: text that fails the strict parse is an issue
          // whether a rule mends it or not, and the check stops at the first issue (calls awaiting their results,
          // which an answer's format drops below, are found only at the end). Only a conversation found clean keeps
          // its (empty, complete) issues for the report;
          // the others are read again in full, and only when no rule changed the record (rare: most are rewritten,
          // and the report is then read from what was written).
          const found = validate(conversation, NO_REPAIRS, true);
          if (found.length === 0) validated.set(conversation, found);
          if (needsNothing(conversation, found)) clean.add(conversation);
        }
      }
      const replacements = reading.conversations.map((conversation) => {
        if (clean.has(conversation)) return undefined;
        const result = sanitize(conversation);
        if (result.changes.length === 0) return undefined;
        for (const change of toRecordChanges(result.changes)) {
          const place = conversation.placeOf?.([change.messageIndex]);
          changes.push({
            ...change,
            ...(place !== undefined ? { place } : {}),
            ...(conversation.label !== undefined ? { label: conversation.label } : {}),
          });
        }
        return result.messages;
      });
      const conversations = reading.conversations.length;
      if (changes.length === 0)
        return { conversations, changes, remaining: checkReading(reading, validated).issues };
      const written = reading.write(replacements);
      if (!written.ok) {
        return {
          conversations,
          changes,
          notRewritable: written.reason,
          remaining: checkReading(reading).issues,
        };
      }
      return {
        conversations,
        value: written.value,
        changes,
        remaining: checkReading(format.read(written.value)).issues,
      };
    },
  };
}

/** A record engine (see {@link createRecordEngine}). */
export type RecordEngine = ReturnType<typeof createRecordEngine>;
