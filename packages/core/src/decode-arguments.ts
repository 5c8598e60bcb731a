import { isPlainObject, setOwn } from "./define-property.js";
import { JsonNumber } from "./json-number.js";
import { DEFAULT_MAX_DEPTH, parseJson } from "./parse-json.js";
import { orderRepairs, repairIdOf } from "./repairs/repair-order.js";
import type { RepairRule } from "./repairs/repair-rule.js";
import { type ArgumentsMapping, type DecodeStatus, type FinishReason, RAW_ARGUMENTS_KEY } from "./types.js";

export interface DecodeOptions {
  /**
   * Repair rules to try when the text fails strict JSON (R6). Default: none. They run in one order
   * (`REPAIR_ORDER`: `gemma-quote-markers`, core's pipeline, `jsonrepair`), whatever order they are listed in.
   */
  repairs?: readonly RepairRule[];
  /** Why generation stopped; with `"length"`, text that is not JSON is `truncated` and never repaired. */
  finishReason?: FinishReason | null;
  /** Keep numbers as `JsonNumber` (every digit of big integers, `1.0` stays a float). */
  lossless?: boolean;
  /** Nesting limit for JSON text (default 1000); deeper text is `invalid`. */
  maxDepth?: number;
}

export interface DecodeResult {
  /** Always a plain mapping: the decoded object, `{}`, or the raw sentinel `{ _raw_arguments: X }`. */
  arguments: ArgumentsMapping;
  /** What decoding found. */
  status: DecodeStatus;
  /** Ids of the repairs applied, in order (`[]` when none). */
  repairs: string[];
  /** The original input, whenever the result is not that input itself (every status but `object` and `absent`). */
  raw?: unknown;
  /** Why the text failed to parse (statuses `invalid`, `truncated`). */
  error?: string;
}

function rawSentinel(value: unknown): ArgumentsMapping {
  const mapping: ArgumentsMapping = {};
  setOwn(mapping, RAW_ARGUMENTS_KEY, value);
  return mapping;
}

function failed(text: string, status: DecodeStatus, error: string): DecodeResult {
  return { arguments: rawSentinel(text), status, repairs: [], raw: text, error };
}

/** A parsed JSON object (the lossless parser's numbers are objects too, and are not mappings). */
function isJsonObject(value: unknown): value is ArgumentsMapping {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof JsonNumber)
  );
}

/**
 * Runs the enabled repairs over failing text, cumulatively and in one order ({@link orderRepairs}); accepts the result only when it parses to
 * a JSON object. Returns `undefined` when no combination of the rules produced one.
 */
function runRepairs(
  text: string,
  repairs: readonly RepairRule[],
  parse: (text: string) => ReturnType<typeof parseJson>,
): { mapping: ArgumentsMapping; applied: string[] } | undefined {
  let current = text;
  const applied: string[] = [];
  for (const rule of orderRepairs(repairs)) {
    // An applied repair is reported by its id (R6): a rule without a readable string id is not applied.
    const id = repairIdOf(rule);
    if (id === undefined) continue;
    let next: string | undefined;
    try {
      next = rule.repair(current);
    } catch {
      // A repair that throws is a repair that did not apply; the guard keeps decode total.
      next = undefined;
    }
    if (typeof next !== "string" || next === current) continue;
    current = next;
    applied.push(id);
    const parsed = parse(current);
    if (parsed.ok && isJsonObject(parsed.value)) return { mapping: parsed.value, applied };
  }
  return undefined;
}

/**
 * Whether no JSON value can begin where the text's first non-whitespace character is (a Markdown fence, prose, a
 * template token). Such text skips the parse that would fail: a failed `JSON.parse` throws, and building the
 * exception costs more than the repair that follows.
 */
function startsNoJsonValue(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    // { [ " - 0-9 t f n
    return !(
      c === 0x7b ||
      c === 0x5b ||
      c === 0x22 ||
      c === 0x2d ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x74 ||
      c === 0x66 ||
      c === 0x6e
    );
  }
  return true;
}

const NOT_JSON = { ok: false, error: "not JSON" } as const;

function decodeText(text: string, options: DecodeOptions): DecodeResult {
  const parseOptions = {
    lossless: options.lossless ?? false,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
  };
  const skipped = startsNoJsonValue(text);
  const parsed = skipped ? undefined : parseJson(text, parseOptions);
  // The parser's own message, for the outcomes that report it (parsed for it late when the parse was skipped).
  const parseError = (): string => {
    const result = parsed ?? parseJson(text, parseOptions);
    return result.ok ? "" : result.error;
  };
  if (parsed?.ok) {
    const value = parsed.value;
    if (isJsonObject(value)) return { arguments: value, status: "object", repairs: [], raw: text };
    if (value === null) return { arguments: {}, status: "null_literal", repairs: [], raw: text };
    if (typeof value === "string") {
      const inner = parseJson(value, parseOptions);
      if (inner.ok && isJsonObject(inner.value)) {
        return { arguments: inner.value, status: "double_encoded", repairs: [], raw: text };
      }
    }
    return { arguments: rawSentinel(text), status: "non_object", repairs: [], raw: text };
  }
  if (text.trim() === "") return { arguments: {}, status: "empty", repairs: [], raw: text };
  if (options.finishReason === "length") return failed(text, "truncated", parseError());
  const repairs = options.repairs ?? [];
  if (repairs.length > 0) {
    const repaired = runRepairs(text, repairs, (t) =>
      startsNoJsonValue(t) ? NOT_JSON : parseJson(t, parseOptions),
    );
    if (repaired !== undefined) {
      return { arguments: repaired.mapping, status: "repaired", repairs: repaired.applied, raw: text };
    }
  }
  return failed(text, "invalid", parseError());
}

/**
 * Decodes tool-call arguments to a mapping (RULES.md R1). Total: never throws, never mutates its input; every
 * outcome is reported in `status`, and nothing the model emitted is lost (non-objects and failures are kept under
 * `_raw_arguments`).
 *
 * @example
 * decodeArguments('{"city": "London"}'); // { arguments: { city: "London" }, status: "object", repairs: [], raw: … }
 * decodeArguments(""); // { arguments: {}, status: "empty", … }
 * decodeArguments("[1, 2, 3]").arguments; // { _raw_arguments: "[1, 2, 3]" }
 * decodeArguments('{"a": ', { finishReason: "length" }).status; // "truncated"
 */
export function decodeArguments(value: unknown, options: DecodeOptions = {}): DecodeResult {
  if (value === undefined || value === null) return { arguments: {}, status: "absent", repairs: [] };
  if (typeof value === "string") {
    const result = decodeText(value, options);
    // An object parsed from text is new, so raw is kept: it is the exact bytes.
    return result;
  }
  if (isPlainObject(value)) return { arguments: value, status: "object", repairs: [] };
  return { arguments: rawSentinel(value), status: "native_non_object", repairs: [], raw: value };
}

/**
 * The mapping alone: what a chat template that iterates `arguments|items` needs.
 *
 * @example
 * toArgumentsObject('{"city": "Paris"}'); // { city: "Paris" }
 * toArgumentsObject("42"); // { _raw_arguments: "42" }
 */
export function toArgumentsObject(value: unknown, options: DecodeOptions = {}): ArgumentsMapping {
  return decodeArguments(value, options).arguments;
}
