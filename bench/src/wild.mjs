/**
 * The wild payloads (malformed tool-call arguments from real bug reports, `shared/wild/payloads.json`) and what
 * the right outcome is for each, from RULES.md (R1 decode, R6 repairs).
 *
 * An expectation is either
 * - `{ object: X, statuses }`: the tool must give a mapping deep-equal to `X` (for decode, with one of `statuses`);
 * - `{ noCall: true, statuses }`: the tool must NOT give a mapping a tool could run. For decode that means one of
 *   `statuses` with the original text kept under `_raw_arguments`; for bare `jsonrepair` + `JSON.parse` it means
 *   `jsonrepair` threw or the parsed value is not an object (bare jsonrepair has no statuses to check).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";

const here = dirname(fileURLToPath(import.meta.url));

/** `shared/` sits beside the repository's work tree (`/work/main` and `/work/shared`, and likewise in CI). */
export const PAYLOADS_PATH =
  process.env.TOOLCALL_WILD_PAYLOADS ?? resolve(here, "../../../shared/wild/payloads.json");

export function loadPayloads() {
  if (!existsSync(PAYLOADS_PATH)) return undefined;
  return JSON.parse(readFileSync(PAYLOADS_PATH, "utf8"));
}

const REFUSED = { noCall: true, statuses: ["invalid", "truncated"] };
const KEPT_RAW = { noCall: true, statuses: ["non_object"] };

/**
 * Expected outcome per category (and per raw text where one category has cases that differ). The `why` is the
 * rule it comes from.
 */
export const EXPECTED = [
  {
    category: "concatenated_objects",
    raw: '{"category":"research"}{"category":"research"}',
    expect: { object: { category: "research" }, statuses: ["repaired"] },
    why: "R6 repeated-object: the same object concatenated N times is that object",
  },
  {
    category: "concatenated_objects",
    raw: '{"a":1}{"b":2}',
    expect: REFUSED,
    why: "R6 repeated-object: different objects are refused (merging or picking one is a guess)",
  },
  {
    category: "json_array",
    expect: KEPT_RAW,
    why: "R1: JSON but not an object keeps the original text under _raw_arguments",
  },
  {
    category: "null_literal",
    expect: { object: {}, statuses: ["null_literal"] },
    why: 'R1: "null" means no arguments: {}',
  },
  {
    category: "json_scalar_string",
    expect: KEPT_RAW,
    why: "R1: a JSON string that is not a JSON object is non_object, kept raw",
  },
  {
    category: "invalid_json",
    expect: REFUSED,
    why: 'R1/R6: not JSON and no named repair recognises it; inventing {"invalid": null} is a guess',
  },
  {
    category: "truncated_json",
    expect: REFUSED,
    why: 'R6: truncation fails closed; completing {"value": to a runnable call is wrong',
  },
  {
    category: "double_encoded",
    expect: { object: { a: 3, b: 4 }, statuses: ["double_encoded"] },
    why: "R1: a JSON string holding a JSON object is unwrapped one level",
  },
  {
    category: "python_single_quotes",
    expect: { object: { paths: ["*.py"] }, statuses: ["repaired"] },
    why: "R6 python-literal",
  },
  {
    category: "markdown_fence",
    expect: { object: { city: "paris" }, statuses: ["repaired"] },
    why: "R6 markdown-fence",
  },
  {
    category: "valid_but_breaks_naive_repair",
    expect: { object: { query: "what's the weather" }, statuses: ["object"] },
    why: "R6: valid text is never touched",
  },
  {
    category: "xml_in_json_fragment",
    expect: REFUSED,
    why: "R1: a fragment is not JSON; nothing in core can recover it",
  },
  {
    category: "gemma4_native_interior_delimiter",
    expect: REFUSED,
    why: "R7: Gemma recovery lives in @toolcall/gemma-recovery; core leaves it invalid",
  },
  {
    category: "gemma4_native_internal_quote",
    expect: REFUSED,
    why: "R7: Gemma recovery lives in @toolcall/gemma-recovery; core leaves it invalid",
  },
  {
    category: "gemma4_native_unparsed_in_content",
    expect: REFUSED,
    why: "R7: native call syntax in content is parsed by the Gemma package, not by an arguments repair",
  },
  {
    category: "empty_string",
    expect: { object: {}, statuses: ["empty"] },
    why: 'R1: "" means no arguments: {}',
  },
  {
    category: "nan_literal",
    expect: REFUSED,
    why: 'R1: NaN is not JSON; turning it into the string "NaN" or null invents a value',
  },
];

export function expectationFor(payload) {
  return EXPECTED.find(
    (e) => e.category === payload.category && (e.raw === undefined || e.raw === payload.raw),
  );
}

/** Judges a `decodeArguments` result against an expectation. */
export function judgeDecode(payload, result, expect) {
  if (!expect.statuses.includes(result.status)) return false;
  if (expect.noCall) {
    const keys = Object.keys(result.arguments);
    return (
      keys.length === 1 && keys[0] === "_raw_arguments" && result.arguments._raw_arguments === payload.raw
    );
  }
  return isDeepStrictEqual(result.arguments, expect.object);
}

/** What bare `jsonrepair(raw)` then `JSON.parse` gives: `{ threw }` or `{ value }`. */
export function bareJsonrepair(jsonrepair, raw) {
  try {
    return { value: JSON.parse(jsonrepair(raw)) };
  } catch (error) {
    return { threw: error instanceof Error ? error.message : String(error) };
  }
}

function isMapping(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Judges a bare `jsonrepair` outcome: mapping or not, and which. */
export function judgeBare(outcome, expect) {
  const mapping = outcome.threw === undefined && isMapping(outcome.value);
  if (expect.noCall) return !mapping;
  return mapping && isDeepStrictEqual(outcome.value, expect.object);
}

/** A short description of an outcome, for the notes under the table. */
export function describeDecode(result) {
  const args = JSON.stringify(result.arguments);
  return `${result.status} ${args.length > 60 ? `${args.slice(0, 57)}...` : args}`;
}

export function describeBare(outcome) {
  if (outcome.threw !== undefined) return `threw (${outcome.threw.slice(0, 50)})`;
  const text = JSON.stringify(outcome.value);
  return `gave ${text.length > 60 ? `${text.slice(0, 57)}...` : text}`;
}
