import { type DecodeResult, decodeArguments, decodeArgumentsSteps } from "./decode-arguments.js";
import { encodeArguments } from "./encode-arguments.js";
import { JsonNumber } from "./json-number.js";
import { numbersRoundTrip } from "./numbers-round-trip.js";
import { DEFAULT_MAX_DEPTH, parseJson } from "./parse-json.js";
import { repairedTextOf } from "./repaired-text.js";
import type { RepairRule } from "./repairs/repair-rule.js";
import { schemaTypedArguments } from "./schema-typed-arguments.js";
import { type FinishReason, isDecodedToObject } from "./types.js";

/** What wire text a call gets when its arguments do not decode to an object. */
export type ArgumentsPolicy = "preserve" | "empty" | "keep";

/** What `normalizeArguments` takes: repairs, the finish reason, the policy for arguments that are not an object, the tool's schema. */
export interface NormalizeArgumentsOptions {
  /** Repairs (R6) tried on text that fails strict JSON. */
  repairs?: readonly RepairRule[];
  /** Why generation stopped; with `"length"`, broken text is `truncated` and never repaired. */
  finishReason?: FinishReason | null;
  /**
   * For arguments that are not an object: `preserve` (default; the JSON text of `{"_raw_arguments": raw}`, which
   * strict providers accept), `empty` (`"{}"`), or `keep` (the original value, as it was).
   */
  policy?: ArgumentsPolicy;
  /** Nesting limit for JSON text (default 1000); deeper text is `invalid`. */
  maxDepth?: number;
  /** The tool's JSON Schema: arguments typed by it, lossless conversions only (see `DecodeOptions.schema`). */
  schema?: unknown;
}

/** What `normalizeArguments` returns: the wire text the call gets, the decode behind it, and whether it changed. */
export interface NormalizedArguments {
  /** The wire text the call gets (the original value itself with policy `keep` when it is not an object). */
  text: unknown;
  /** The decode behind the decision (R1). */
  decoded: DecodeResult;
  /** Whether `text` differs from the original value. */
  changed: boolean;
}

/**
 * The wire text a stored or returned call gets (R2 and R4 on one call). Valid object text keeps its bytes (prefix
 * caches and token-exact replays depend on them); a mapping, and text that decodes to an object (`""`, `"null"`,
 * double-encoded, repaired), become canonical compact JSON, with numbers kept exactly; anything else follows the
 * policy. `sanitizeHistory` decides each call this way, and adapters use it for responses and streams.
 *
 * @example
 * normalizeArguments('{"city": "Paris"}'); // { text: '{"city": "Paris"}', changed: false, … }
 * normalizeArguments("null"); // { text: "{}", changed: true, decoded: { status: "null_literal", … } }
 * normalizeArguments("{oops"); // { text: '{"_raw_arguments":"{oops"}', changed: true, … }
 */
export function normalizeArguments(
  value: unknown,
  options: NormalizeArgumentsOptions = {},
): NormalizedArguments {
  const decodeOptions = decodeOptionsOf(options);
  return normalizeDecoded({ value, decoded: decodeArguments(value, decodeOptions), decodeOptions, options });
}

/**
 * {@link normalizeArguments} once the value was decoded with `decodeOptions` (those `normalizeArguments` makes from
 * `options`): a caller that reads many calls decodes with one options object, and hands the decode here only when
 * the call is not clean object text (the text is never decoded twice).
 */
export function normalizeDecoded(args: {
  value: unknown;
  decoded: DecodeResult;
  decodeOptions: ReturnType<typeof decodeOptionsOf>;
  options: NormalizeArgumentsOptions;
}): NormalizedArguments {
  const { value, decoded } = args;
  const exact = needsExactRead(value, decoded)
    ? (exactOfRepaired(decoded, args.decodeOptions) ??
      decodeArguments(value, { ...args.decodeOptions, lossless: true }).arguments)
    : decoded.arguments;
  return written(value, decoded, exact, args.options.policy ?? "preserve");
}

/**
 * The repairs' text parsed by `JSON.parse` is exact already when every number in it reads back as written (the
 * common case): then the decode's own mapping is written, and the text is not parsed a second time.
 */
function plainIsExact(decoded: DecodeResult, text: string): boolean {
  return decoded.conversions === undefined && numbersRoundTrip(text);
}

/**
 * The exact mapping of a call the repairs read: their text parsed losslessly, typed by the schema as the decode
 * typed it. The lossless decode of the original would run the same rules over the same texts and accept the same
 * one (the lossless parser accepts what `JSON.parse` accepts), so its mapping is this one, at the cost of one parse.
 * `undefined` when the result holds no repairs' text (schema typing alone, a double-encoded or empty call).
 */
function exactOfRepaired(
  decoded: DecodeResult,
  decodeOptions: ReturnType<typeof decodeOptionsOf>,
): DecodeResult["arguments"] | undefined {
  const text = repairedTextOf(decoded);
  if (text === undefined) return undefined;
  if (plainIsExact(decoded, text)) return decoded.arguments;
  const parsed = parseJson(text, { lossless: true, maxDepth: decodeOptions.maxDepth ?? DEFAULT_MAX_DEPTH });
  const value = parsed.success ? parsed.value : undefined;
  if (typeof value !== "object" || value === null || Array.isArray(value) || value instanceof JsonNumber)
    return undefined;
  const mapping = value as DecodeResult["arguments"];
  if (decodeOptions.schema === undefined) return mapping;
  const typed = schemaTypedArguments(mapping, decodeOptions.schema);
  return typed.conversions.length === 0 ? mapping : typed.arguments;
}

/**
 * {@link normalizeArguments} in steps: the steps of {@link decodeArgumentsSteps} (a repaired call's exact re-read
 * too), so no step runs more than one repair rule. The result is the one `normalizeArguments` gives.
 *
 * @example
 * const steps = normalizeArgumentsSteps("{'a': 1}", { repairs: coreRepairs });
 * let next = steps.next();
 * while (!next.done) next = steps.next(); // other work may run between steps
 * next.value.text; // '{"a":1}'
 */
export function* normalizeArgumentsSteps(
  value: unknown,
  options: NormalizeArgumentsOptions = {},
): Generator<void, NormalizedArguments, void> {
  const decodeOptions = decodeOptionsOf(options);
  const decoded = yield* decodeArgumentsSteps(value, decodeOptions);
  // No `yield*` on the right of `??`: CommonJS builds turn `??` into a helper call with an arrow function, and a
  // generator cannot yield from inside one.
  let exact = decoded.arguments;
  if (needsExactRead(value, decoded)) {
    const repaired = exactOfRepaired(decoded, decodeOptions);
    if (repaired !== undefined) exact = repaired;
    else exact = (yield* decodeArgumentsSteps(value, { ...decodeOptions, lossless: true })).arguments;
  }
  return written(value, decoded, exact, options.policy ?? "preserve");
}

/** The decode options {@link normalizeArguments} passes on: repairs, finish reason, nesting limit, schema. */
export function decodeOptionsOf(options: NormalizeArgumentsOptions) {
  return {
    repairs: options.repairs ?? [],
    finishReason: options.finishReason,
    maxDepth: options.maxDepth,
    schema: options.schema,
  };
}

/** Text that decodes to an object but is not kept as it is: read again losslessly before it is written. */
function needsExactRead(value: unknown, decoded: DecodeResult): boolean {
  return typeof value === "string" && decoded.status !== "object" && isDecodedToObject(decoded.status);
}

/**
 * A mapping `JSON.parse` made, written by `JSON.stringify`: for such a value (no cycle, no `toJSON`, no getter) it
 * writes what core's serializer writes, at a fraction of its cost. Text too long for the engine (lone surrogates
 * escaped six times longer) goes to the serializer, which reports it.
 */
function stringifyParsed(mapping: DecodeResult["arguments"]): unknown {
  try {
    return JSON.stringify(mapping);
  } catch {
    return encodeArguments(mapping);
  }
}

/** The decision, once decoded (`exact`: the mapping to write, numbers kept, when the text is rewritten). */
function written(
  value: unknown,
  decoded: DecodeResult,
  exact: DecodeResult["arguments"],
  policy: ArgumentsPolicy,
): NormalizedArguments {
  if (decoded.status === "object" && typeof value === "string")
    return { text: value, decoded, changed: false };
  if (isDecodedToObject(decoded.status)) {
    const plain =
      typeof value === "string" && exact === decoded.arguments && decoded.conversions === undefined;
    return { text: plain ? stringifyParsed(exact) : encodeArguments(exact), decoded, changed: true };
  }
  switch (policy) {
    case "preserve":
      return { text: encodeArguments(decoded.arguments), decoded, changed: true };
    case "empty":
      return { text: "{}", decoded, changed: true };
    case "keep":
      return { text: value, decoded, changed: false };
    default: {
      const never: never = policy;
      throw new TypeError(`normalizeArguments: unknown policy ${JSON.stringify(never)}`);
    }
  }
}
