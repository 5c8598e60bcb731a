import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { SYNTAXES } from "../src/registry.js";
import { expectSplitInvariant } from "./helpers.js";
import { mismatches, seededCuts, type VllmCase } from "./peers-vllm-cases.js";

/**
 * llama.cpp's chat parser tests (tests/test-chat-parser.cpp, tests/test-chat.cpp, tests/chat-parsers/; MIT), as data: model outputs whose
 * test states the message, run through our syntax for the format, whole and in seeded random splits, and compared as
 * vLLM's cases are (`peers-vllm-cases.ts`). Where we differ on purpose, `DIFFERENCES` holds the difference exactly.
 */
interface LlamaCppCase extends Omit<VllmCase, "vllmParser"> {
  detector: string;
  /** The template's generation prompt opened the thinking block (llama.cpp's `enable_thinking`, a forced-open think). */
  startInReasoning?: boolean;
}

/**
 * The fixture files: cases of test-chat-parser.cpp and test-chat.cpp, of the per-format tests/chat-parsers/, and of
 * test-chat.cpp's per-template tests (Qwen3.5, Magistral, Nemotron 3 Nano, Command R7B, QwQ, Hermes 2 Pro, Granite,
 * Seed-OSS, Qwen3-Coder).
 */
const LLAMA_CPP_CASE_FILES = [
  "llama-cpp-chat-cases.json",
  "llama-cpp-chat-parsers-cases.json",
  "llama-cpp-chat-template-cases.json",
] as const;

const CASES = LLAMA_CPP_CASE_FILES.flatMap(
  (file) =>
    (
      JSON.parse(readFileSync(new URL(`./__fixtures__/peers/${file}`, import.meta.url), "utf8")) as {
        cases: LlamaCppCase[];
      }
    ).cases,
);

/**
 * Seed-OSS's template writes a value right after its tag (`<parameter=K>V</parameter>`), so newlines around a value are
 * the value's (Qwen3-Coder's template puts each value on lines of its own, so there one newline each side is syntax);
 * llama.cpp's Seed-OSS parser trims them.
 */
const VALUE_NEWLINES =
  "value newlines: Seed-OSS's template writes a value right after its tag, so newlines around a string value are kept; llama.cpp trims them";

/** Why we differ from a llama.cpp case, and what we give there: the fields, the calls' names and arguments. */
const DIFFERENCES: Record<
  string,
  { reason: string; fields: string[]; calls: string[]; arguments: string[] }
> = {
  "llama-cpp-seed-oss-two-parameters": {
    reason: VALUE_NEWLINES,
    fields: ["calls[0].arguments"],
    calls: ["process_data"],
    arguments: ['{"input": "\\ntest\\n", "format": "\\njson\\n"}'],
  },
};

describe("llama.cpp's chat parser cases", () => {
  CASES.forEach((c, index) => {
    test(`${c.test} [${c.detector}] (${c.syntax})`, () => {
      const syntax = SYNTAXES[c.syntax];
      if (syntax === undefined) throw new Error(c.syntax);
      const whole = expectSplitInvariant(
        syntax,
        c.text,
        { tools: c.tools, startInReasoning: c.startInReasoning === true },
        seededCuts(c.text.length, 20261129 + index),
      );
      const fields = mismatches({ ...c, vllmParser: c.detector }, whole);
      const difference = DIFFERENCES[c.id];
      if (difference === undefined) {
        expect(fields, c.id).toEqual([]);
        return;
      }
      expect(fields, difference.reason).toEqual(difference.fields);
      expect(whole.toolCalls.map((call) => call.function.name)).toEqual(difference.calls);
      expect(whole.toolCalls.map((call) => call.function.arguments)).toEqual(difference.arguments);
    });
  });

  test("each case names its file and commit, listed in the fixtures README", () => {
    const readme = readFileSync(new URL("./__fixtures__/peers/README.md", import.meta.url), "utf8");
    expect(new Set(CASES.map((c) => c.id)).size).toBe(CASES.length);
    for (const c of CASES) expect(readme).toContain(`\`${c.file}\` at \`${c.commit}\``);
    for (const id of Object.keys(DIFFERENCES))
      expect(
        CASES.some((c) => c.id === id),
        id,
      ).toBe(true);
  });
});
