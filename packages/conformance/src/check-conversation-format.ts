import type { ConformanceOptions } from "./implementation.js";
import { jsonEqual, show } from "./json-equal.js";

/**
 * A conversation format as the check uses it: `@toolcall/core`'s `ConversationFormat`, by shape (the suite depends on
 * no implementation). `read` takes a record and gives its conversations in the neutral view (OpenAI Chat messages)
 * and a `write` that puts replaced conversations back into the record.
 */
export interface CheckedConversationFormat {
  readonly id: string;
  read(value: unknown): {
    conversations: ReadonlyArray<{ messages: readonly unknown[]; answer?: boolean }>;
    write(
      replacements: ReadonlyArray<readonly unknown[] | undefined>,
    ): { ok: true; value: unknown } | { ok: false; reason: string };
  };
}

/** How the check sanitizes a conversation, and how it compares what it reads back. */
export interface CheckConversationFormatOptions<O extends object = ConformanceOptions> {
  /**
   * The history sanitizer: `{ messages, changes }`, as core's `sanitizeHistory` answers. It gets `options`, plus
   * `pendingCalls: "keep"` for a conversation that is a model's answer (its calls have no results by nature: R4).
   */
  sanitize(
    messages: readonly unknown[],
    options: O,
  ): { messages: readonly unknown[]; changes: readonly unknown[] };
  /** Passed to `sanitize` (default `{}`). */
  options?: O;
  /**
   * How call ids compare when a written record is read back. `exact` (default); `by-order` for formats that store
   * no ids and name calls by their place (`call@3`), where a turn added before a call renames it: ids then compare
   * by order of first appearance, so what pairs with what is what counts.
   */
  callIds?: "exact" | "by-order";
}

/** What the check found wrong with a sample (`sample` is its index). Codes are stable. */
export interface ConversationFormatIssue {
  /**
   * `read_threw`, `write_threw` (read and write never throw); `write_failed` (`ok: false` for a change of the
   * format's own making); `unchanged_not_same` (writing no replacement gives back another object than the record);
   * `read_back_differs` (a written record reads back as other messages than were written: the format loses
   * something); `sanitize_not_stable` (sanitizing what was read back changes it again); `sanitize_threw`.
   */
  code:
    | "read_threw"
    | "write_threw"
    | "write_failed"
    | "unchanged_not_same"
    | "read_back_differs"
    | "sanitize_not_stable"
    | "sanitize_threw";
  sample: number;
  message: string;
}

/** One sample's round trip: the record as written (the sample itself when nothing changed) and the change count. */
export interface ConversationFormatSample {
  value: unknown;
  changes: number;
}

/** The check's answer: `ok` when no sample has an issue. `samples[i]` is sample `i`'s round trip. */
export interface ConversationFormatCheck {
  ok: boolean;
  issues: ConversationFormatIssue[];
  samples: ConversationFormatSample[];
}

/** A value as JSON sees it, what a file holds (symbols, `undefined` members and functions are not data). */
function asData(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

/** JSON of `value` with every `id` and `tool_call_id` renamed in order of first appearance (`id0`, `id1`, …). */
function withIdsByOrder(value: unknown): unknown {
  const names = new Map<unknown, string>();
  const text = JSON.stringify(value);
  if (text === undefined) return undefined;
  return JSON.parse(text, (key, item) => {
    if (key !== "id" && key !== "tool_call_id") return item;
    if (!names.has(item)) names.set(item, `id${names.size}`);
    return names.get(item);
  });
}

/** The first place two JSON values differ, as a path (`[0][2].content`) and both sides. */
function firstDifference(a: unknown, b: unknown, path = ""): string {
  if (jsonEqual(a, b)) return "";
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null) {
    if (Array.isArray(a) && Array.isArray(b)) {
      if (a.length !== b.length) return `${path || "value"}: ${a.length} items, expected ${b.length}`;
      for (let i = 0; i < a.length; i++) {
        const found = firstDifference(a[i], b[i], `${path}[${i}]`);
        if (found) return found;
      }
    } else if (!Array.isArray(a) && !Array.isArray(b)) {
      const ra = a as Record<string, unknown>;
      const rb = b as Record<string, unknown>;
      for (const key of new Set([...Object.keys(rb), ...Object.keys(ra)])) {
        const found = firstDifference(ra[key], rb[key], `${path}.${key}`);
        if (found) return found;
      }
    }
  }
  return `${path || "value"}: got ${show(a)}, expected ${show(b)}`;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Checks a conversation format's contract on sample records: each is read, each conversation sanitized, and the
 * record written back; then what a user relies on is checked. A record nothing changed in comes back as the same
 * object (so is any record written with no replacement); a changed record, serialized as a file holds it and read
 * again, gives exactly the sanitized messages (nothing lost, nothing added); sanitizing that again changes nothing
 * (the repair is complete and stable); read and write never throw. Never throws itself: problems are issues.
 *
 * @example
 * import { sanitizeHistory } from "@toolcall/core";
 * import { openaiChatFormat } from "@toolcall/openai";
 * const result = checkConversationFormat(openaiChatFormat, [request], {
 *   sanitize: (messages, options) => sanitizeHistory(messages, options),
 * });
 * result.ok; // false when the format loses what was written: result.issues[0].code === "read_back_differs"
 */
export function checkConversationFormat<O extends object = ConformanceOptions>(
  format: CheckedConversationFormat,
  samples: Iterable<unknown>,
  options: CheckConversationFormatOptions<O>,
): ConversationFormatCheck {
  const issues: ConversationFormatIssue[] = [];
  const results: ConversationFormatSample[] = [];
  const view = options.callIds === "by-order" ? withIdsByOrder : asData;
  let index = 0;
  for (const sample of samples) {
    const found = (code: ConversationFormatIssue["code"], message: string) =>
      issues.push({ code, sample: index, message: `${format.id}: ${message}` });
    results.push(checkSample(format, sample, options, view, found));
    index++;
  }
  return { ok: issues.length === 0, issues, samples: results };
}

type Found = (code: ConversationFormatIssue["code"], message: string) => void;

function sanitizeAll<O extends object>(
  conversations: ReadonlyArray<{ messages: readonly unknown[]; answer?: boolean }>,
  options: CheckConversationFormatOptions<O>,
): Array<{ messages: readonly unknown[]; changes: readonly unknown[] }> {
  return conversations.map((conversation) =>
    options.sanitize(conversation.messages, {
      ...options.options,
      ...(conversation.answer ? { pendingCalls: "keep" } : {}),
    } as O),
  );
}

function checkSample<O extends object>(
  format: CheckedConversationFormat,
  sample: unknown,
  options: CheckConversationFormatOptions<O>,
  view: (value: unknown) => unknown,
  found: Found,
): ConversationFormatSample {
  let step = "read";
  try {
    const reading = format.read(sample);
    step = "sanitize";
    const fixed = sanitizeAll(reading.conversations, options);
    const changes = fixed.reduce((sum, result) => sum + result.changes.length, 0);
    step = "write";
    const same = reading.write(reading.conversations.map(() => undefined));
    if (!same.ok) found("write_failed", `writing no replacement failed: ${same.reason}`);
    else if (same.value !== sample) found("unchanged_not_same", "writing no replacement gave another object");
    const written = reading.write(fixed.map((r) => (r.changes.length > 0 ? r.messages : undefined)));
    if (!written.ok) {
      found("write_failed", written.reason);
      return { value: sample, changes };
    }
    if (changes === 0) {
      if (written.value !== sample)
        found("unchanged_not_same", "nothing changed, yet the record written is another object");
      return { value: written.value, changes };
    }
    step = "read";
    const again = format.read(asData(written.value));
    const difference = firstDifference(
      view(again.conversations.map((c) => c.messages)),
      view(fixed.map((r) => r.messages)),
    );
    if (difference) found("read_back_differs", `the written record reads back otherwise: ${difference}`);
    step = "sanitize";
    const more = sanitizeAll(again.conversations, options).flatMap((r) => r.changes);
    if (more.length > 0)
      found("sanitize_not_stable", `sanitizing the written record changes it again: ${show(more[0])}`);
    return { value: written.value, changes };
  } catch (error) {
    found(`${step}_threw` as ConversationFormatIssue["code"], `${step} threw: ${errorText(error)}`);
    return { value: sample, changes: 0 };
  }
}
