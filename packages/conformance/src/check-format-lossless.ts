import { jsonEqual, show } from "./json-equal.js";

/**
 * A conversation format as the lossless check uses it: `@toolcall/core`'s `ConversationFormat`, by shape (the suite
 * depends on no implementation).
 */
export interface LosslessFormat {
  readonly id: string;
  matches(value: unknown): boolean;
  read(value: unknown): {
    conversations: ReadonlyArray<{ messages: readonly unknown[] }>;
    write(
      replacements: ReadonlyArray<readonly unknown[] | undefined>,
    ): { ok: true; value: unknown } | { ok: false; reason: string };
  };
}

/** One record repaired, as `@toolcall/core`'s record engine answers (`createRecordEngine().repair`). */
export interface LosslessRepair {
  /** The record rewritten in its own format; absent when nothing changed or the format could not hold the change. */
  value?: unknown;
  /** What the repair did, each change named by its rule. */
  changes: ReadonlyArray<{ rule: string }>;
}

/** What `checkFormatLossless` takes: the repair to run on each sample (the record engine's). */
export interface CheckFormatLosslessOptions<F extends LosslessFormat = LosslessFormat> {
  /** Repairs one record read through `format`: `createRecordEngine().repair` of `@toolcall/core`. */
  repair(format: F, value: unknown): LosslessRepair;
}

/**
 * What the lossless check found wrong with a sample (`sample` is its index). Codes are stable:
 * `unchanged_not_same` (writing no replacement gives another object than the record); `same_messages_not_same`
 * (writing back the very messages read, in a new list, gives neither the record nor its JSON); `repaired_not_format` (a repaired
 * record no longer has the format's shape); `call_lost`, `result_lost`, `message_lost` (the repaired record holds
 * fewer calls, tool results or messages than the record, more than the changes name); `threw` (read, write or the
 * repair threw).
 */
export interface FormatLosslessIssue {
  code:
    | "unchanged_not_same"
    | "same_messages_not_same"
    | "repaired_not_format"
    | "call_lost"
    | "result_lost"
    | "message_lost"
    | "threw";
  sample: number;
  message: string;
}

/** The check's answer: `ok` when no sample has an issue; `samples[i]` is sample `i`'s repair. */
export interface FormatLosslessCheck {
  ok: boolean;
  issues: FormatLosslessIssue[];
  samples: LosslessRepair[];
}

/** The rules that drop a call, a result or a message: a loss they name is no loss. */
const DROPPED_CALLS = ["call_dropped", "call_dropped_no_name", "call_dropped_missing_result"];
const DROPPED_RESULTS = ["result_dropped_with_call", "result_dropped_orphan", "result_dropped_duplicate"];
const DROPPED_MESSAGES = [...DROPPED_CALLS, ...DROPPED_RESULTS, "message_removed_empty"];

/**
 * Arguments as models and servers emit them, well-formed and not (RULES.md's pinned cases): the payloads to put
 * in a format's records when testing it.
 *
 * @example
 * const records = WILD_ARGUMENTS.map((text) => ({ messages: [callWith(text)] }));
 */
export const WILD_ARGUMENTS: readonly string[] = Object.freeze([
  '{"command": "ls"}',
  "{}",
  "",
  "null",
  '```json\n{"path": "a.py"}\n```',
  '{"path": "a.py"',
  "{'path': 'a.py'}",
  '"{\\"a\\": 1}"',
  '{"a": 1}{"b": 2}',
]);

/** A value as a file holds it (symbols, `undefined` members and functions are not data). */
function asData(value: unknown): unknown {
  const text = JSON.stringify(value);
  return text === undefined ? undefined : JSON.parse(text);
}

function counts(format: LosslessFormat, value: unknown) {
  let messages = 0;
  let calls = 0;
  let results = 0;
  for (const conversation of format.read(value).conversations) {
    for (const message of conversation.messages) {
      messages++;
      const item = (typeof message === "object" && message !== null ? message : {}) as Record<
        string,
        unknown
      >;
      if (item.role === "tool") results++;
      if (Array.isArray(item.tool_calls)) calls += item.tool_calls.length;
    }
  }
  return { messages, calls, results };
}

/**
 * Checks what every format owes its users, on sample records, for a format's author: read then written with no
 * change gives the record itself (no replacement: the same object, so the same bytes; the very messages read: the
 * same object or the same canonical JSON, for a format that re-serializes a list); a repair loses no
 * message, call or result without a change naming it, and what it writes still has the format's shape. Pair it with
 * `checkConversationFormat` (what a repair writes reads back as written). Never throws: problems are issues.
 *
 * @example
 * import { createRecordEngine } from "@toolcall/core";
 * import { sharegptFormat } from "@toolcall/datasets";
 * const engine = createRecordEngine();
 * const result = checkFormatLossless(sharegptFormat, rows, { repair: engine.repair });
 * result.ok; // false when a repair dropped a turn no change names: result.issues[0].code === "message_lost"
 */
export function checkFormatLossless<F extends LosslessFormat>(
  format: F,
  samples: Iterable<unknown>,
  options: CheckFormatLosslessOptions<F>,
): FormatLosslessCheck {
  const issues: FormatLosslessIssue[] = [];
  const repairs: LosslessRepair[] = [];
  let index = 0;
  for (const sample of samples) {
    const found = (code: FormatLosslessIssue["code"], message: string) =>
      issues.push({ code, sample: index, message: `${format.id}: ${message}` });
    repairs.push(checkSample({ format, sample, repair: options.repair, found }));
    index++;
  }
  return { ok: issues.length === 0, issues, samples: repairs };
}

function checkSample<F extends LosslessFormat>(options: {
  format: F;
  sample: unknown;
  repair: CheckFormatLosslessOptions<F>["repair"];
  found: (code: FormatLosslessIssue["code"], message: string) => void;
}): LosslessRepair {
  const { format, sample, found } = options;
  try {
    const reading = format.read(sample);
    const untouched = reading.write(reading.conversations.map(() => undefined));
    if (!untouched.ok || untouched.value !== sample)
      found("unchanged_not_same", "writing no replacement gave another record");
    const same = reading.write(reading.conversations.map((conversation) => [...conversation.messages]));
    // The record itself, or a record with the same JSON (a format that puts a list back re-serializes it).
    if (!same.ok || (same.value !== sample && !jsonEqual(asData(same.value), asData(sample))))
      found(
        "same_messages_not_same",
        same.ok
          ? "writing back the messages read gave other JSON"
          : `writing back the messages read failed: ${same.reason}`,
      );
    const repaired = options.repair(format, sample);
    if (repaired.value === undefined) return repaired;
    if (!format.matches(repaired.value))
      found("repaired_not_format", "the repaired record no longer has the format's shape");
    const before = counts(format, sample);
    const after = counts(format, repaired.value);
    const named = (rules: readonly string[]) =>
      repaired.changes.filter((change) => rules.includes(change.rule)).length;
    const kinds = [
      ["call_lost", "calls", DROPPED_CALLS],
      ["result_lost", "results", DROPPED_RESULTS],
      ["message_lost", "messages", DROPPED_MESSAGES],
    ] as const;
    for (const [code, what, rules] of kinds) {
      const was = before[what];
      const now = after[what];
      if (now + named(rules) < was)
        found(code, `${was - now} ${what} fewer after the repair, ${named(rules)} named by a change`);
    }
    return repaired;
  } catch (error) {
    found("threw", `threw: ${error instanceof Error ? error.message : show(error)}`);
    return { changes: [] };
  }
}
