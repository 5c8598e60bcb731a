// Tool (c): a saved chat and a provider → what that provider would refuse, in its own words (core's provider
// profiles), which providers refuse it at all, and the repaired record (`sanitizeHistory` with core's repairs and
// the provider's fixes, written back by the record's format) as a line diff.
import {
  coreRepairs,
  type Issue,
  listProviderProfiles,
  PROVIDER_IDS,
  type ProviderId,
  type ProviderIssue,
  type ProviderVerdict,
  providerVerdict,
  type SanitizeChange,
  sanitizeHistory,
  validateHistory,
} from "@toolcall/core";
import type { ConversationFormat, FormatConversation, FormatIssue } from "@toolcall/core/kit";
import { type Change, diffLines } from "diff";
import { readSavedChat } from "./saved-chat.js";

/** `any`: R3's own checks, what every strict provider refuses; otherwise a profile id. */
export const ANY_PROVIDER = "any";

export interface ConversationReport {
  label?: string;
  /** True for a model's answer (a completion): its calls have no results by nature, and no provider reads it. */
  answer: boolean;
  /** The provider's issues (with status and literal text), or R3's issues for `any`. */
  issues: Array<Issue | ProviderIssue>;
  /** Every profile's verdict on the history as it is. */
  verdict: ProviderVerdict;
  changes: SanitizeChange[];
  /** The repaired messages. */
  after: unknown[];
  /** Issues left after the repair (none, when the repair did its job). */
  remaining: Array<Issue | ProviderIssue>;
}

export interface RecordReport {
  label?: string;
  format: ConversationFormat;
  /** What is wrong with the record's own shape. */
  formatIssues: FormatIssue[];
  conversations: ConversationReport[];
  /** The repaired record as its format writes it back, or why it cannot. */
  repaired: { ok: true; value: unknown; text: string } | { ok: false; reason: string };
  /** The record as text (pretty JSON; a session as JSON lines), diffed before → after. */
  diff: Change[];
}

export type ChatReport = { ok: true; records: RecordReport[] } | { ok: false; error: string };

/**
 * The provider choices: `any`, then every profile core ships.
 *
 * @example
 * providerChoices()[0]; // { id: "any", name: "Any strict provider (R3)" }
 */
export function providerChoices(): Array<{ id: string; name: string }> {
  return [
    { id: ANY_PROVIDER, name: "Any strict provider (R3)" },
    ...listProviderProfiles().map((profile) => ({ id: profile.id, name: profile.name })),
  ];
}

function profileId(provider: string): ProviderId | undefined {
  return (PROVIDER_IDS as readonly string[]).includes(provider) ? (provider as ProviderId) : undefined;
}

function check(conversation: FormatConversation, messages: unknown[], provider: ProviderId | undefined) {
  if (provider !== undefined && !conversation.answer) return validateHistory(messages, { provider });
  return validateHistory(messages, {
    ...(conversation.tools ? { tools: conversation.tools } : {}),
    ...(conversation.finishReason !== undefined ? { finishReason: conversation.finishReason } : {}),
    pendingCalls: conversation.answer ? "pending" : "missing",
  });
}

function recordText(format: ConversationFormat, value: unknown): string {
  if (format.unit === "session" && Array.isArray(value))
    return `${value.map((line) => JSON.stringify(line)).join("\n")}\n`;
  return `${JSON.stringify(value, null, 2)}\n`;
}

/**
 * Reads the chat and reports each conversation of each record for the provider.
 *
 * @example
 * runChatTool({ chat: JSON.stringify(history), format: "auto", provider: "anthropic" });
 */
export function runChatTool(inputs: { chat: string; format: string; provider: string }): ChatReport {
  const provider = profileId(inputs.provider);
  if (provider === undefined && inputs.provider !== ANY_PROVIDER)
    return { ok: false, error: `no provider profile ${inputs.provider}` };
  const reading = readSavedChat(inputs.chat, inputs.format);
  if (!reading.ok) return reading;
  const records = reading.records.map((record): RecordReport => {
    const conversations = record.reading.conversations.map((conversation): ConversationReport => {
      const before = conversation.messages;
      const answer = conversation.answer === true;
      const { messages: after, changes } = sanitizeHistory(before, {
        repairs: coreRepairs,
        // An answer's calls have no results by nature: they stay as they are.
        ...(answer ? { pendingCalls: "keep" as const } : {}),
        ...(provider === undefined || answer ? {} : { provider }),
      });
      return {
        ...(conversation.label ? { label: conversation.label } : {}),
        answer,
        issues: check(conversation, before, provider),
        verdict: providerVerdict(before),
        changes,
        after,
        remaining: check(conversation, after, provider),
      };
    });
    const written = record.reading.write(
      conversations.map((conversation) => (conversation.changes.length > 0 ? conversation.after : undefined)),
    );
    const before = recordText(record.format, record.value);
    const repaired = written.ok
      ? { ok: true as const, value: written.value, text: recordText(record.format, written.value) }
      : written;
    return {
      ...(record.label ? { label: record.label } : {}),
      format: record.format,
      formatIssues: record.reading.issues,
      conversations,
      repaired,
      diff: diffLines(before, repaired.ok ? repaired.text : before),
    };
  });
  return { ok: true, records };
}
