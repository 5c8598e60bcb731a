import type { ConversationFormat } from "../conversation-format.js";
import { describeShape } from "./describe-shape.js";

/** Which format a value is in, and how sure the registry is. */
export type FormatDetection =
  /** One format claims it, ahead of every other that does. */
  | { certainty: "certain"; format: ConversationFormat; claimed: true; others: readonly ConversationFormat[] }
  /**
   * Several formats of the same priority claim it (the first registered is read), or none does and this one's
   * looser look (`resembles`) fits: the refusal then names it and how to read it.
   */
  | {
      certainty: "probable";
      format: ConversationFormat;
      claimed: boolean;
      others: readonly ConversationFormat[];
    };

/** The formats a tool reads, composed from the ecosystems' packages, and how to pick one for a value. */
export interface FormatRegistry {
  /** Every format, most specific first (priority, then the order given). */
  readonly formats: readonly ConversationFormat[];
  /** The format an id names, or `undefined`. */
  byId(id: string): ConversationFormat | undefined;
  /** The format a value (a record, or a session's line values) is in, or `undefined` when nothing fits at all. */
  detect(value: unknown, unit: ConversationFormat["unit"]): FormatDetection | undefined;
  /**
   * Why a value is refused, for people: its shape, the probable format and the flag that reads it, or what was
   * expected. With `named`, why the named format does not fit when another one claims the value.
   */
  refusal(options: {
    value: unknown;
    unit: ConversationFormat["unit"];
    named?: ConversationFormat;
    /** Leave out the list of expected formats (a line among others; the file's refusal gives it). */
    brief?: boolean;
  }): string;
  /** What was expected: every format id of a unit, and the flag that names one. */
  expected(unit: ConversationFormat["unit"]): string;
  /**
   * For a format named by the user: `undefined` when it may read the value, or a refusal naming the format that
   * does claim it (a Gemini session named `openai-chat` is refused, not read as fourteen messages without a role).
   */
  misnamed(options: { value: unknown; named: ConversationFormat }): string | undefined;
}

/** A format's detection priority: higher is tried first (default 0). */
function priorityOf(format: ConversationFormat): number {
  return format.priority ?? 0;
}

/** True when a format's `matches` or `resembles` says so; a predicate that throws says no. */
function test(predicate: ((value: unknown) => boolean) | undefined, value: unknown): boolean {
  if (predicate === undefined) return false;
  try {
    return predicate(value) === true;
  } catch {
    return false;
  }
}

/** True when a format claims a value; a `matches` that throws says no. No closure is made per test. */
function claims(format: ConversationFormat, value: unknown): boolean {
  try {
    return format.matches(value) === true;
  } catch {
    return false;
  }
}

/**
 * A registry of formats: the ecosystems' packages export their formats (each with its `priority` and, when it has
 * one, a looser `resembles` look); a tool composes them here, and every door detects and refuses the same way
 * (docs/decisions.md, "Format detection").
 *
 * @example
 * const registry = createFormatRegistry([...openaiFormats, ...anthropicFormats, ...datasetFormats]);
 * registry.detect({ conversations: [{ from: "human", value: "hi" }] }, "record")?.format.id; // "sharegpt"
 */
export function createFormatRegistry(formats: readonly ConversationFormat[]): FormatRegistry {
  const seen = new Set<string>();
  const unique = formats.filter((format) => !seen.has(format.id) && seen.add(format.id) !== undefined);
  const ordered = unique
    .map((format, index) => ({ format, index }))
    .sort((a, b) => priorityOf(b.format) - priorityOf(a.format) || a.index - b.index)
    .map((entry) => entry.format);

  // Each unit's formats in detection order, made once (a detection per record makes no list).
  const byUnit = new Map<ConversationFormat["unit"], readonly ConversationFormat[]>();
  for (const format of ordered) byUnit.set(format.unit, [...(byUnit.get(format.unit) ?? []), format]);

  const detect = (value: unknown, unit: ConversationFormat["unit"]): FormatDetection | undefined => {
    const candidates = byUnit.get(unit) ?? [];
    // The first format that claims the value, then only those of its priority (a lower one cannot change the verdict).
    let first: ConversationFormat | undefined;
    let tied: ConversationFormat[] | undefined;
    for (const format of candidates) {
      if (first !== undefined && priorityOf(format) !== priorityOf(first)) break;
      if (!claims(format, value)) continue;
      if (first === undefined) first = format;
      else if (tied === undefined) tied = [format];
      else tied.push(format);
    }
    if (first !== undefined) {
      if (tied === undefined) return { certainty: "certain", format: first, claimed: true, others: [] };
      return { certainty: "probable", format: first, claimed: true, others: tied };
    }
    const alike = candidates.filter((format) => test(format.resembles?.bind(format), value));
    const probable = alike[0];
    return probable === undefined
      ? undefined
      : { certainty: "probable", format: probable, claimed: false, others: alike.slice(1) };
  };

  const flag = (format: ConversationFormat) => `--format ${format.id}`;
  const expectedList = (unit: ConversationFormat["unit"]) =>
    `expected one of: ${ordered
      .filter((format) => format.unit === unit)
      .map((format) => format.id)
      .join(", ")} (or name one with --format)`;

  return {
    formats: ordered,
    byId: (id) => ordered.find((format) => format.id === id),
    detect,
    refusal({ value, unit, named, brief }) {
      const shape = describeShape(value);
      if (named !== undefined) {
        const other = named.unit === unit ? undefined : detect(value, named.unit);
        return `${shape}, not ${named.id} (${named.expected})${other ? `; probably ${other.format.id}` : ""}`;
      }
      const found = detect(value, unit);
      if (found !== undefined && !found.claimed) {
        const also =
          found.others.length > 0 ? ` (or ${found.others.map((format) => format.id).join(", ")})` : "";
        return `${shape}, in no known format; probably ${found.format.id}${also}, ${found.format.name}: read it with ${flag(found.format)}`;
      }
      if (brief === true) return `${shape}, in no known format`;
      return `${shape}, in no known format; ${expectedList(unit)}`;
    },
    expected: expectedList,
    misnamed({ value, named }) {
      if (claims(named, value)) return undefined;
      const found = detect(value, named.unit);
      if (found === undefined || !found.claimed) return undefined;
      return `${describeShape(value)}: named ${named.id}, but it is ${found.format.id} (${found.format.name}); read it with ${flag(found.format)}`;
    },
  };
}
