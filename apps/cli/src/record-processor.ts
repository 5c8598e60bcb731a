import {
  type Issue,
  type IssueSeverity,
  type RepairRule,
  type SanitizeOptions,
  sanitizeHistory,
  validateHistory,
} from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatConversation,
  type FormatReading,
  isPlainObject,
} from "@toolcall/core/kit";
import type { PlacedIssue } from "./placed-issue.js";
import { callIdAt } from "./places.js";
import {
  findingMessage,
  matchFindings,
  type ProviderCheck,
  profilesOf,
  providerFindings,
} from "./provider-verdicts.js";
import { type ReportedChange, toReportedChanges } from "./repair-findings.js";

export type { PlacedIssue } from "./placed-issue.js";

export interface RecordCheck {
  conversations: number;
  issues: PlacedIssue[];
}

export interface RecordRepair {
  conversations: number;
  /** The record rewritten, when a rule changed something and the format could write it. */
  value?: unknown;
  changes: Array<ReportedChange & { place?: string; label?: string }>;
  /** Why the record was kept as it was although a rule would change it (the format cannot hold the change). */
  notRewritable?: string;
  /** What is still wrong after the repair (errors make `repair` exit 1). */
  remaining: PlacedIssue[];
}

/** What happens to calls still awaiting their results at the end of a history (`--pending`). */
export type PendingPolicy = "keep" | "synthesize" | "drop-call";

export interface RecordProcessorOptions {
  repairs: readonly RepairRule[];
  /**
   * Skip sanitizing a conversation in which validation finds nothing and nothing else sanitize acts on (default
   * true): one pass over its calls instead of two. Off only to test that it changes nothing.
   */
  skipClean?: boolean;
  policy?: SanitizeOptions["policy"];
  missingResult?: SanitizeOptions["missingResult"];
  syntheticResult?: string;
  pending?: PendingPolicy;
  /** Which provider profiles conversations are checked against (none when absent). */
  providers?: ProviderCheck;
  /** `repair --provider`: sanitize for this profile too (its constraints' fixes after core's). */
  provider?: string;
}

/**
 * What sanitize acts on that validation reports no issue for: an assistant message left empty (content `""` or
 * `[]` and no calls, or an empty `tool_calls` list), and arguments stored as a mapping (canonicalized to text).
 */
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
): PlacedIssue {
  const out: PlacedIssue = {
    code: issue.code,
    severity: issue.severity,
    message: issue.message,
    path: issue.path,
  };
  const place = conversation.placeOf?.(issue.path);
  if (place !== undefined) out.place = place;
  if (conversation.label !== undefined) out.label = conversation.label;
  const callId = callIdAt(conversation.messages, issue.path);
  if (callId !== undefined) out.callId = callId;
  return out;
}

/**
 * Checks and repairs records of any format with core's rules: the format reads the record into core's neutral view,
 * core validates (every message whole, every call, pairing; calls of a history's last turn awaiting their results
 * are pending, never missing) or sanitizes it, and the format writes the record back. The same function serves the
 * main thread and the workers.
 *
 * @example
 * const processor = createRecordProcessor({ repairs: coreRepairs });
 * processor.check(openaiChatFormat, record).issues; // [{ code, severity, message, place, … }]
 */
export function createRecordProcessor(options: RecordProcessorOptions) {
  const target = options.provider === undefined ? undefined : profilesOf([options.provider])[0];
  const sanitizeFor = (conversation: FormatConversation): SanitizeOptions => ({
    repairs: options.repairs,
    ...(options.policy !== undefined ? { policy: options.policy } : {}),
    ...(options.missingResult !== undefined ? { missingResult: options.missingResult } : {}),
    ...(options.syntheticResult !== undefined ? { syntheticResult: options.syntheticResult } : {}),
    // An answer's calls have no results by nature: they are left as they are, whatever --pending says.
    pendingCalls: conversation.answer ? "keep" : (options.pending ?? "keep"),
    ...(target !== undefined && !conversation.answer ? { provider: target } : {}),
  });

  const validate = (conversation: FormatConversation) =>
    validateHistory(conversation.messages, {
      ...(conversation.tools ? { tools: conversation.tools } : {}),
      ...(conversation.finishReason !== undefined ? { finishReason: conversation.finishReason } : {}),
      repairs: options.repairs,
      pendingCalls: "pending",
    });

  /** Core's issues of one conversation, then the provider profiles' verdicts on it (an answer is no request). */
  const checkConversation = (conversation: FormatConversation, found: readonly Issue[]): PlacedIssue[] => {
    const issues = found.map((issue) => placed(conversation, issue));
    if (options.providers === undefined || conversation.answer) return issues;
    const findings = providerFindings(conversation.messages, found, options.providers);
    const { refusedBy, unmatched } = matchFindings(found, findings);
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
    const issues: PlacedIssue[] = reading.issues.map((found) => ({
      code: found.code,
      severity: found.severity,
      message: found.message,
      path: found.path,
      ...(found.place !== undefined ? { place: found.place } : {}),
    }));
    for (const conversation of reading.conversations)
      issues.push(...checkConversation(conversation, known?.get(conversation) ?? validate(conversation)));
    return { conversations: reading.conversations.length, issues };
  };

  /** A conversation sanitize would leave as it is: no issue, nothing else sanitize acts on, the provider content. */
  const needsNothing = (conversation: FormatConversation, found: readonly Issue[]): boolean =>
    found.length === 0 &&
    !sanitizeActsBeyondIssues(conversation.messages) &&
    (target === undefined ||
      conversation.answer === true ||
      validateHistory(conversation.messages, { provider: target }).length === 0);

  return {
    check(format: ConversationFormat, value: unknown): RecordCheck {
      return checkReading(format.read(value));
    },

    repair(format: ConversationFormat, value: unknown): RecordRepair {
      const reading = format.read(value);
      const changes: RecordRepair["changes"] = [];
      // A conversation validation finds clean, with nothing else sanitize acts on, needs no sanitize pass; its
      // issues are kept for the report of what is left.
      const validated = new Map<FormatConversation, Issue[]>();
      const clean = new Set<FormatConversation>();
      if (options.skipClean !== false) {
        for (const conversation of reading.conversations) {
          const found = validate(conversation);
          validated.set(conversation, found);
          if (needsNothing(conversation, found)) clean.add(conversation);
        }
      }
      const replacements = reading.conversations.map((conversation) => {
        if (clean.has(conversation)) return undefined;
        const result = sanitizeHistory(conversation.messages, sanitizeFor(conversation));
        if (result.changes.length === 0) return undefined;
        for (const change of toReportedChanges(result.changes)) {
          const place = conversation.placeOf?.([change.messageIndex]);
          changes.push({
            ...change,
            ...(place !== undefined ? { place } : {}),
            ...(conversation.label !== undefined ? { label: conversation.label } : {}),
          });
        }
        return result.messages;
      });
      if (changes.length === 0) {
        return {
          conversations: reading.conversations.length,
          changes,
          remaining: checkReading(reading, validated).issues,
        };
      }
      const written = reading.write(replacements);
      if (!written.ok) {
        return {
          conversations: reading.conversations.length,
          changes,
          notRewritable: written.reason,
          remaining: checkReading(reading).issues,
        };
      }
      return {
        conversations: reading.conversations.length,
        value: written.value,
        changes,
        remaining: checkReading(format.read(written.value)).issues,
      };
    },
  };
}

/** A record processor (see {@link createRecordProcessor}). */
export type RecordProcessor = ReturnType<typeof createRecordProcessor>;
