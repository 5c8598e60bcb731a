import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { SYNTAXES } from "../src/registry.js";
import { expectSplitInvariant } from "./helpers.js";
import { mismatches, normalContent, seededCuts, type VllmCase } from "./peers-vllm-cases.js";

/**
 * SGLang's own function-call parser tests (test/srt/test_function_call_parser.py, Apache-2.0), as data: the cases
 * whose input is a whole model output (a streaming test's deltas joined) and whose test states the result, run through
 * our syntax for the family, whole and in seeded random splits, and compared as vLLM's cases are
 * (`peers-vllm-cases.ts`). Where we differ on purpose, `DIFFERENCES` holds the difference exactly.
 */
interface SglangCase extends Omit<VllmCase, "vllmParser"> {
  detector: string;
}

/** The fixture files: the cases of `test_function_call_parser.py`, and of the per-detector test files. */
const SGLANG_CASE_FILES = [
  "sglang-function-call-parser-cases.json",
  "sglang-detector-cases.json",
  "sglang-registered-cases.json",
  "sglang-newer-cases.json",
] as const;

const CASES = SGLANG_CASE_FILES.flatMap(
  (file) =>
    (
      JSON.parse(readFileSync(new URL(`./__fixtures__/peers/${file}`, import.meta.url), "utf8")) as {
        cases: SglangCase[];
      }
    ).cases,
);

/**
 * A list with no marker is a call list only where the content begins (docs/decisions.md: a syntax with no marker reads
 * calls only where they cannot be prose; `<|python_start|>` marks one anywhere); SGLang's Pythonic detector reads a
 * bracketed list after prose too.
 */
const LIST_AFTER_PROSE =
  "list after prose: an unmarked pythonic list is a call list only where the content begins; SGLang reads it after prose";

/**
 * A call naming a tool that was not offered is returned with `unknown_tool` (a warning; docs/decisions.md: the caller
 * decides what an unknown tool means, and dropping the call would lose what the model wrote); SGLang drops the call.
 */
const UNKNOWN_TOOL =
  "unknown tool: a call to a tool that was not offered is returned with `unknown_tool` (a warning), never dropped; SGLang drops it";

/**
 * A marker that opens or closes nothing (a lone `<|tool_calls_section_end|>`) is text as written: content is never
 * rewritten (docs/decisions.md: a malformed call or section stays in content byte for byte); SGLang strips Kimi's
 * special tokens from content.
 */
const STRAY_MARKER =
  "stray marker: a marker that opens or closes nothing stays in content as written; SGLang strips Kimi's special tokens from it";

/**
 * A malformed call stays in content byte for byte (`call_invalid`; docs/decisions.md): an object whose arguments hold
 * another call object has no one reading. SGLang's Llama 3.2 detector skips to the next object that parses.
 */
const MALFORMED_KEPT =
  "malformed call kept: a call object that does not parse stays in content as written (`call_invalid`); SGLang skips to the next object that parses";

/**
 * A call object without an argument key is a call without arguments (`{}`), as every JSON family reads
 * `{"name": "f"}`; SGLang's GigaChat 3 detector drops it.
 */
const NO_ARGUMENT_KEY =
  "no argument key: a call object without arguments is a call with `{}`, as every JSON family reads it; SGLang's GigaChat 3 detector drops it";

/**
 * Arguments that are not an object are core's R1 wire text (`{"_raw_arguments": …}` with `arguments_invalid`, an
 * error a caller sees before running anything): nothing the model wrote is lost. SGLang drops the call.
 */
const ARGUMENTS_NOT_OBJECT =
  "arguments not an object: kept as core's R1 wire text with `arguments_invalid` (nothing lost, never silent); SGLang drops the call";

/** Why we differ from an SGLang case, and what we give there: the fields, the calls' names, the content. */
const DIFFERENCES: Record<
  string,
  { reason: string; fields: string[]; calls: string[]; content: string | null }
> = {
  "sglang-pythonic-complete-call-after-text": {
    reason: LIST_AFTER_PROSE,
    fields: ["calls.count", "content"],
    calls: [],
    content: "Here's a tool call: [get_weather(location='New York', unit='celsius')]",
  },
  "sglang-pythonic-text-before-call": {
    reason: LIST_AFTER_PROSE,
    fields: ["calls.count", "content"],
    calls: [],
    content: "This is some text before [get_weather(location='London')]",
  },
  "sglang-glm47-invalid-tool": {
    reason: UNKNOWN_TOOL,
    fields: ["calls.count"],
    calls: ["invalid_func"],
    content: null,
  },
  "sglang-glm47-undefined-tool": {
    reason: UNKNOWN_TOOL,
    fields: ["calls.count"],
    calls: ["nonexistent_function"],
    content: null,
  },
  "sglang-kimi-stray-section-end": {
    reason: STRAY_MARKER,
    fields: ["content"],
    calls: [],
    content: "normal text<|tool_calls_section_end|>",
  },
  "sglang-pythonic-two-lists-with-text": {
    reason: LIST_AFTER_PROSE,
    fields: ["calls.count", "content"],
    calls: ["get_weather"],
    content: "and [search(query='restaurants')]",
  },
  "sglang-pythonic-partial-joined": {
    reason: LIST_AFTER_PROSE,
    fields: ["calls.count", "content"],
    calls: [],
    content: "Let me check the weather: [get_weather(location='Paris')]",
  },
  "sglang-pythonic-partial-nested-joined": {
    reason: LIST_AFTER_PROSE,
    fields: ["calls.count", "content"],
    calls: [],
    content: "Here's a call: [get_weather(location='Tokyo', data=[1, 2, 3])]",
  },
  "sglang-llama32-invalid-then-valid": {
    reason: MALFORMED_KEPT,
    fields: ["calls.count"],
    calls: [],
    content: '{"name": "get_weather", "parameters": {{"name": "get_weather", "parameters": {}}',
  },
  "sglang-glm45-invalid-tool": {
    reason: UNKNOWN_TOOL,
    fields: ["calls.count"],
    calls: ["invalid_func"],
    content: null,
  },
  "sglang-lfm2-unknown-function": {
    reason: UNKNOWN_TOOL,
    fields: ["calls.count"],
    calls: ["unknown_function"],
    content: null,
  },
  "sglang-gigachat3-missing-arguments": {
    reason: NO_ARGUMENT_KEY,
    fields: ["calls.count"],
    calls: ["manage_user_memory"],
    content: null,
  },
  "sglang-gigachat3-string-arguments": {
    reason: ARGUMENTS_NOT_OBJECT,
    fields: ["calls.count"],
    calls: ["manage_user_memory"],
    content: null,
  },
  "sglang-kimi-stray-argument-begin": {
    reason: STRAY_MARKER,
    fields: ["content"],
    calls: [],
    content: "text<|tool_call_argument_begin|>more",
  },
};

describe("SGLang's function-call parser cases", () => {
  CASES.forEach((c, index) => {
    test(`${c.test} [${c.detector}] (${c.syntax})`, () => {
      const syntax = SYNTAXES[c.syntax];
      if (syntax === undefined) throw new Error(c.syntax);
      const whole = expectSplitInvariant(
        syntax,
        c.text,
        { tools: c.tools },
        seededCuts(c.text.length, 20261128 + index),
      );
      const fields = mismatches({ ...c, vllmParser: c.detector }, whole);
      const difference = DIFFERENCES[c.id];
      if (difference === undefined) {
        expect(fields, c.id).toEqual([]);
        return;
      }
      expect(fields, difference.reason).toEqual(difference.fields);
      expect(whole.toolCalls.map((call) => call.function.name)).toEqual(difference.calls);
      expect(normalContent(whole.content)).toBe(difference.content);
    });
  });

  test("each case names its file and commit, listed in the fixtures README, and every difference is a case", () => {
    const readme = readFileSync(new URL("./__fixtures__/peers/README.md", import.meta.url), "utf8");
    for (const c of CASES) {
      expect(c.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(readme).toContain(`\`${c.file}\` at \`${c.commit}\``);
    }
    const ids = new Set(CASES.map((c) => c.id));
    expect(ids.size).toBe(CASES.length);
    for (const id of Object.keys(DIFFERENCES)) expect(ids.has(id), id).toBe(true);
  });
});
