import { show } from "./json-equal.js";

/** A conversation format as the hostile check uses it: `@toolcall/core`'s `ConversationFormat`, by shape. */
export interface HostileFormat {
  readonly id: string;
  matches(value: unknown): boolean;
  read(value: unknown): { issues: ReadonlyArray<{ code: string }> };
}

/** The record engine the hostile check drives: `createRecordEngine()` of `@toolcall/core` (its `check` and `repair`). */
export interface HostileEngine<F extends HostileFormat = HostileFormat> {
  check(format: F, value: unknown): unknown;
  repair(format: F, value: unknown): { value?: unknown };
}

/**
 * What the hostile check found (`sample` is the value's index, `format` the format's id). Codes are stable: `threw`
 * (matching, reading, checking or repairing the value threw); `repaired_not_read` (the record a repair wrote no longer
 * reads in the format: `record_not_conversation`).
 */
export interface FormatHostileIssue {
  code: "threw" | "repaired_not_read";
  sample: number;
  format: string;
  message: string;
}

/** The check's answer: `ok` when no value made any format fail. */
export interface FormatHostileCheck {
  ok: boolean;
  issues: FormatHostileIssue[];
}

/**
 * Checks what every format owes its users whatever a file holds, for a format's author: each format that claims a
 * value (`matches`) reads it, checks it and repairs it through the record engine without throwing (a throwing getter,
 * a `__proto__` key, deep nesting, any junk: a reading or a refusal), and what a repair writes still reads in the
 * format (a repair may drop every message: the record still reads, with none). Feed it values a property-test
 * generator makes (fast-check's `anything()`, lists of the format's messages with hostile fields) and hand-made
 * traps. Pair it with `checkFormatLossless` (what a format keeps). Never throws: problems are issues.
 *
 * @example
 * import { coreRepairs, createRecordEngine } from "@toolcall/core";
 * import { langchainFormats } from "@toolcall/langchain/formats";
 * const engine = createRecordEngine({ repairs: coreRepairs });
 * checkFormatHostile(langchainFormats, [[{ type: "ai", data: { "__proto__": 1 } }], "junk"], engine).ok; // true
 */
export function checkFormatHostile<F extends HostileFormat>(
  formats: readonly F[],
  values: Iterable<unknown>,
  engine: HostileEngine<F>,
): FormatHostileCheck {
  const issues: FormatHostileIssue[] = [];
  let sample = 0;
  for (const value of values) {
    for (const format of formats) {
      const found = (code: FormatHostileIssue["code"], message: string) =>
        issues.push({ code, sample, format: format.id, message: `${format.id}: ${message}` });
      try {
        if (!format.matches(value)) continue;
        format.read(value);
        engine.check(format, value);
        const repaired = engine.repair(format, value);
        if (repaired.value === undefined) continue;
        const refused = format
          .read(repaired.value)
          .issues.filter((issue) => issue.code === "record_not_conversation");
        if (refused.length > 0)
          found("repaired_not_read", "the record a repair wrote no longer reads in the format");
      } catch (error) {
        found("threw", `threw: ${error instanceof Error ? error.message : show(error)}`);
      }
    }
    sample++;
  }
  return { ok: issues.length === 0, issues };
}
