// Tool (c): a saved chat and a provider → core's record engine on each record (the verdict the command line gives:
// core's rules, the profiles that reject each error, what the named provider rejects in its own words), which
// providers refuse it at all, and the repaired record (written back by the record's format) as a line diff.
import {
  coreRepairs,
  createRecordEngine,
  listProviderProfiles,
  PROVIDER_IDS,
  type ProviderId,
  type ProviderVerdict,
  providerVerdict,
  type RecordIssue,
} from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatIssue,
  orderRepairs,
  type RecordChange,
  type RecordEngine,
} from "@toolcall/core/kit";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import { type Change, diffLines } from "diff";
import { readSavedChat } from "./saved-chat.js";

/** `any`: R3's own checks, what every strict provider refuses; otherwise a profile id. */
export const ANY_PROVIDER = "any";

export interface ConversationReport {
  label?: string;
  /** True for a model's answer (a completion): its calls have no results by nature, and no provider reads it. */
  answer: boolean;
  /**
   * The record engine's issues, as the command line reports them: core's rules, each error with the profiles that
   * reject it; for a named provider, what it rejects beyond them too, with status and literal text (`answers`).
   */
  issues: RecordIssue[];
  /** Every profile's verdict on the history as it is. */
  verdict: ProviderVerdict;
  changes: RecordChange[];
  /** The repaired messages. */
  after: unknown[];
  /** Issues left after the repair (none, when the repair did its job). */
  remaining: RecordIssue[];
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

/**
 * The repairs the page runs: core's and Gemma 4's quote markers, what `toolcall` with no command runs on the bundled
 * session, so the same saved chat comes out repaired alike (a Gemma call with leaked `<|"|>` markers included).
 */
export const PAGE_REPAIRS = orderRepairs([...coreRepairs, gemmaQuoteMarkers]);

/** The engine a provider choice makes: `any` checks every profile on errors; a profile is checked and repaired for. */
const engines = new Map<string, RecordEngine>();
function engineFor(provider: ProviderId | undefined): RecordEngine {
  const key = provider ?? ANY_PROVIDER;
  let engine = engines.get(key);
  if (engine === undefined) {
    engine = createRecordEngine(
      provider === undefined
        ? { providers: { mode: "errors" }, repairs: PAGE_REPAIRS }
        : { providers: { mode: "named", ids: [provider] }, provider, repairs: PAGE_REPAIRS },
    );
    engines.set(key, engine);
  }
  return engine;
}

/** A conversation's issues among a record's: those of a conversation (not the record's shape) with its label. */
function ofConversation<T extends { scope?: "record"; label?: string }>(
  list: readonly T[],
  label: string | undefined,
): T[] {
  return list.filter((item) => item.scope !== "record" && item.label === label);
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
  const engine = engineFor(provider);
  const records = reading.records.map((record): RecordReport => {
    // One engine for every door: the page gives the verdict the command line gives on the same record.
    const checked = engine.check(record.format, record.value);
    const repair = engine.repair(record.format, record.value);
    const repairedReading = repair.value === undefined ? undefined : record.format.read(repair.value);
    const conversations = record.reading.conversations.map((conversation, index): ConversationReport => {
      const label = conversation.label;
      return {
        ...(label ? { label } : {}),
        answer: conversation.answer === true,
        issues: ofConversation(checked.issues, label),
        verdict: providerVerdict(conversation.messages),
        changes: repair.changes.filter((change) => change.label === label),
        after: repairedReading?.conversations[index]?.messages ?? conversation.messages,
        remaining: ofConversation(repair.remaining, label),
      };
    });
    const before = recordText(record.format, record.value);
    const repaired =
      repair.notRewritable !== undefined
        ? { ok: false as const, reason: repair.notRewritable }
        : {
            ok: true as const,
            value: repair.value ?? record.value,
            text: recordText(record.format, repair.value ?? record.value),
          };
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
