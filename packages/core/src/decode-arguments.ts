import { isPlainObject, setOwn } from "./define-property.js";
import { EMPTY_LIST } from "./empty-list.js";
import { errorMessage } from "./error-message.js";
import { DEFAULT_MAX_DEPTH, nestedDeeper, type ParseJsonResult, parseJson } from "./parse-json.js";
import { isArraySafe } from "./read-history.js";
import { noteRepairedText, repairedTextOf } from "./repaired-text.js";
import type { RepairRule } from "./repairs/repair-rule.js";
import { isJsonObject, type RepairOutcome, runRepairs } from "./run-repairs.js";
import { runSteps } from "./run-steps.js";
import { type SchemaConversion, schemaTypedArguments } from "./schema-typed-arguments.js";
import { objectCanBegin, repeatsOneObject, startsNoJsonValue } from "./starts-no-json-value.js";
import { type ArgumentsMapping, type DecodeStatus, type FinishReason, RAW_ARGUMENTS_KEY } from "./types.js";
import { isWorkMeter, resolveWorkMeter, type WorkMeter } from "./work-budget.js";

/** What `decodeArguments` takes: repairs, the finish reason, limits, and the tool's schema. */
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
  /**
   * The work meter decoding charges (strict parses, every repair, the parse after each). Default: a meter whose limit
   * is linear in the text's length (`linearWorkLimit`). Repairs left out because the meter ran out, or because the
   * text is longer than a rule's `maxLength`, are listed in `budget`. The strict parse always runs.
   */
  meter?: WorkMeter;
  /**
   * The tool's JSON Schema (its `parameters`): arguments that decode to an object are then typed by it, with lossless
   * conversions only (`schemaTypedArguments`), each listed in `conversions`; when any is made, the status is
   * `repaired` and `repairs` ends with `schema-types`.
   */
  schema?: unknown;
}

/** What `decodeArguments` returns: always a mapping, the status that says how it was read (R1), and the repairs applied. */
export interface DecodeResult {
  /** Always a plain mapping: the decoded object, `{}`, or the raw sentinel `{ _raw_arguments: X }`. */
  arguments: ArgumentsMapping;
  /** What decoding found. */
  status: DecodeStatus;
  /** Ids of the repairs applied, in order (`[]` when none: one shared frozen list, so never add to it in place). */
  readonly repairs: readonly string[];
  /** The original input, whenever the result is not that input itself (every status but `object` and `absent`). */
  raw?: unknown;
  /** Why the text failed to parse (statuses `invalid`, `truncated`). */
  error?: string;
  /**
   * Repairs that were not tried for the work budget, in order: the text was longer than the rule's `maxLength`
   * (`jsonrepair`), or the meter ran out first. Present only when some were; the status is then `invalid` (the
   * repairs that did run made no object).
   */
  budget?: readonly string[];
  /** The conversions the tool's schema asked for (option `schema`), when any was made. */
  conversions?: readonly SchemaConversion[];
}

/** The id `repairs` lists when the tool's schema typed the arguments. */
export const SCHEMA_TYPES_REPAIR = "schema-types";

/** A decode typed by the tool's schema, when one is given and the arguments are an object it changes. */
function typedBySchema(result: DecodeResult, options: DecodeOptions): DecodeResult {
  if (options.schema === undefined) return result;
  const status = result.status;
  if (!(status === "object" || status === "double_encoded" || status === "repaired")) return result;
  const typed = schemaTypedArguments(result.arguments, options.schema);
  if (typed.conversions.length === 0) return result;
  return noteRepairedText(
    {
      ...result,
      arguments: typed.arguments,
      status: "repaired",
      repairs: [...result.repairs, SCHEMA_TYPES_REPAIR],
      raw: result.raw ?? result.arguments,
      conversions: typed.conversions,
    },
    repairedTextOf(result),
  );
}

function rawSentinel(value: unknown): ArgumentsMapping {
  const mapping: ArgumentsMapping = {};
  setOwn(mapping, RAW_ARGUMENTS_KEY, value);
  return mapping;
}

function failed(text: string, status: DecodeStatus, error: string): DecodeResult {
  return { arguments: rawSentinel(text), status, repairs: EMPTY_LIST, raw: text, error };
}

const NOT_JSON = { success: false, error: "not JSON" } as const;

/** Text the strict parse did not decide, with repairs to run: their steps, and what makes the result of theirs. */
class PendingRepairs {
  constructor(
    /** The rules' run; `stepped`: a yield between two rules. */
    readonly run: (stepped: boolean) => Generator<void, RepairOutcome, void>,
    readonly finish: (outcome: RepairOutcome) => DecodeResult,
  ) {}
}

/** The parser's message for text that failed (parsed for it late when the parse was skipped). */
function parseErrorOf(
  text: string,
  parsed: ParseJsonResult | undefined,
  parseOptions: { lossless: boolean; maxDepth: number },
): string {
  const result = parsed ?? parseJson(text, parseOptions);
  return result.success ? "" : result.error;
}

/**
 * The strict decode of text; when it fails and repairs are enabled, the repairs still to run. `first`: the strict
 * parse already made (the fast path of {@link decodeArguments}), so the text is never parsed twice.
 */
function decodeText(
  text: string,
  options: DecodeOptions,
  first?: ParseJsonResult,
): DecodeResult | PendingRepairs {
  const parseOptions = {
    lossless: options.lossless ?? false,
    maxDepth: options.maxDepth ?? DEFAULT_MAX_DEPTH,
  };
  // A caller's meter counts the strict parse too; without one, a meter is made only when repairs run.
  const callerMeter = isWorkMeter(options.meter) ? options.meter : undefined;
  callerMeter?.charge(text.length);
  // Text that cannot parse (no value can begin it, an object sent twice) skips the parse that would throw.
  const parsed =
    first ?? (startsNoJsonValue(text) || repeatsOneObject(text) ? undefined : parseJson(text, parseOptions));
  if (parsed?.success) {
    const value = parsed.value;
    if (isJsonObject(value)) return { arguments: value, status: "object", repairs: EMPTY_LIST, raw: text };
    if (value === null) return { arguments: {}, status: "null_literal", repairs: EMPTY_LIST, raw: text };
    if (typeof value === "string") {
      callerMeter?.charge(value.length);
      const inner = parseJson(value, parseOptions);
      if (inner.success && isJsonObject(inner.value)) {
        return { arguments: inner.value, status: "double_encoded", repairs: EMPTY_LIST, raw: text };
      }
    }
    return { arguments: rawSentinel(text), status: "non_object", repairs: EMPTY_LIST, raw: text };
  }
  callerMeter?.charge(text.length);
  if (text.trim() === "") return { arguments: {}, status: "empty", repairs: EMPTY_LIST, raw: text };
  if (options.finishReason === "length")
    return failed(text, "truncated", parseErrorOf(text, parsed, parseOptions));
  const repairs = isArraySafe(options.repairs) ? options.repairs : [];
  if (repairs.length > 0) {
    const meter = resolveWorkMeter({ meter: callerMeter, length: text.length });
    // A meter made here is charged the strict parse and the blank check the caller's already paid.
    if (meter !== callerMeter) meter.charge(2 * text.length);
    const parse = (t: string) => (startsNoJsonValue(t) ? NOT_JSON : parseJson(t, parseOptions));
    return new PendingRepairs(
      (stepped) => runRepairs(text, repairs, parse, meter, stepped),
      (repaired) => {
        if (repaired.ok)
          return noteRepairedText(
            { arguments: repaired.mapping, status: "repaired", repairs: repaired.applied, raw: text },
            repaired.text,
          );
        const result = failed(text, "invalid", parseErrorOf(text, parsed, parseOptions));
        if (repaired.budget.length > 0) result.budget = repaired.budget;
        return result;
      },
    );
  }
  return failed(text, "invalid", parseErrorOf(text, parsed, parseOptions));
}

/**
 * The fast path of valid object text, the common case: options that change nothing about a valid object (no
 * lossless numbers, no schema, no meter), text that opens with `{`, one `JSON.parse`. Anything else it found (not
 * an object, not JSON) is handed to the full decode with that parse, never parsed again.
 */
function decodeObjectText(
  text: string,
  options: DecodeOptions | undefined,
  objectResult?: DecodeResult,
): DecodeResult | PendingRepairs {
  const usable = typeof options === "object" && options !== null ? options : NO_OPTIONS;
  if (
    usable.lossless ||
    usable.schema !== undefined ||
    usable.meter !== undefined ||
    text.charCodeAt(0) !== 0x7b ||
    !objectCanBegin(text, 1) ||
    repeatsOneObject(text)
  )
    return decodeText(text, usable);
  const maxDepth = usable.maxDepth ?? DEFAULT_MAX_DEPTH;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return decodeText(text, usable, { success: false, error: errorMessage(error) });
  }
  if (text.length > 2 * maxDepth && nestedDeeper({ text, value, maxDepth }))
    return decodeText(text, usable, { success: false, error: `nesting deeper than ${maxDepth}` });
  if (typeof value === "object" && value !== null && !Array.isArray(value))
    return (
      objectResult ?? {
        arguments: value as ArgumentsMapping,
        status: "object",
        repairs: EMPTY_LIST,
        raw: text,
      }
    );
  return decodeText(text, usable, { success: true, value });
}

/**
 * What {@link decodeArgumentsUnlessObjectText} gives for object text that its fast path read: the text is kept as it
 * is, so no result is made for it (the decoded value is not kept).
 */
export const OBJECT_TEXT: DecodeResult = Object.freeze({
  arguments: Object.freeze({}),
  status: "object",
  repairs: EMPTY_LIST,
}) as DecodeResult;

/**
 * {@link decodeArguments}, except that valid object text read by the fast path (no schema, no lossless numbers, no
 * meter) gives {@link OBJECT_TEXT} instead of a result of its own: a reader of many calls that keeps such text as it
 * is (a history's sanitize) makes nothing per clean call.
 */
export function decodeArgumentsUnlessObjectText(value: unknown, options: DecodeOptions): DecodeResult {
  if (typeof value !== "string") return decodeArguments(value, options);
  const decoded = decodeObjectText(value, options, OBJECT_TEXT);
  if (decoded === OBJECT_TEXT) return decoded;
  if (!(decoded instanceof PendingRepairs) && decoded.status === "object" && options.schema === undefined)
    return decoded;
  return typedBySchema(settled(decoded), options);
}

const NO_OPTIONS: DecodeOptions = Object.freeze({});

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
export function decodeArguments(value: unknown, options?: DecodeOptions): DecodeResult {
  if (typeof value === "string") {
    const decoded = decodeObjectText(value, options);
    if (!(decoded instanceof PendingRepairs) && decoded.status === "object" && options?.schema === undefined)
      return decoded;
    const usable = typeof options === "object" && options !== null ? options : NO_OPTIONS;
    return typedBySchema(settled(decoded), usable);
  }
  const usable = typeof options === "object" && options !== null ? options : NO_OPTIONS;
  return typedBySchema(decodeValue(value), usable);
}

/** A decode whose repairs, if any, have run to their end at once. */
function settled(decoded: DecodeResult | PendingRepairs): DecodeResult {
  return decoded instanceof PendingRepairs ? decoded.finish(runSteps(decoded.run(false))) : decoded;
}

/** What is not text: absent, a mapping as it is, anything else under the raw sentinel. */
function decodeValue(value: unknown): DecodeResult {
  if (value === undefined || value === null) return { arguments: {}, status: "absent", repairs: EMPTY_LIST };
  if (isPlainObject(value)) return { arguments: value, status: "object", repairs: EMPTY_LIST };
  return { arguments: rawSentinel(value), status: "native_non_object", repairs: EMPTY_LIST, raw: value };
}

/**
 * {@link decodeArguments} in steps, for a caller that shares its thread with others (a server repairing a large
 * answer between other requests): the strict parse is one step, and each repair rule that runs (with the parse of
 * its result) is one more, so no step does more than one rule's work on the text. The result is the one
 * `decodeArguments` gives, whatever is done between steps. Valid text, and text decoded without repairs, take one
 * step.
 *
 * @example
 * const steps = decodeArgumentsSteps(text, { repairs: coreRepairs });
 * let next = steps.next();
 * while (!next.done) {
 *   await new Promise((resolve) => setImmediate(resolve)); // let other work run
 *   next = steps.next();
 * }
 * next.value; // what decodeArguments(text, { repairs: coreRepairs }) returns
 */
export function* decodeArgumentsSteps(
  value: unknown,
  options: DecodeOptions = {},
): Generator<void, DecodeResult, void> {
  const usable = typeof options === "object" && options !== null ? options : NO_OPTIONS;
  if (typeof value !== "string") return typedBySchema(decodeValue(value), usable);
  const decoded = decodeObjectText(value, usable);
  if (!(decoded instanceof PendingRepairs)) return typedBySchema(decoded, usable);
  // The strict parse was one step; each rule that runs is one more.
  yield;
  return typedBySchema(decoded.finish(yield* decoded.run(true)), usable);
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
