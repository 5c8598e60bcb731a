import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { SYNTAXES } from "../src/registry.js";
import { expectSplitInvariant } from "./helpers.js";
import { mismatches, seededCuts, type VllmCase } from "./peers-vllm-cases.js";

/**
 * llama.cpp's chat parser tests (tests/test-chat-parser.cpp, tests/test-chat.cpp; MIT), as data: model outputs whose
 * test states the message, run through our syntax for the format, whole and in seeded random splits, and compared as
 * vLLM's cases are (`peers-vllm-cases.ts`). Every case agrees.
 */
interface LlamaCppCase extends Omit<VllmCase, "vllmParser"> {
  detector: string;
}

const CASES = (
  JSON.parse(
    readFileSync(new URL("./__fixtures__/peers/llama-cpp-chat-cases.json", import.meta.url), "utf8"),
  ) as { cases: LlamaCppCase[] }
).cases;

describe("llama.cpp's chat parser cases", () => {
  CASES.forEach((c, index) => {
    test(`${c.test} [${c.detector}] (${c.syntax})`, () => {
      const syntax = SYNTAXES[c.syntax];
      if (syntax === undefined) throw new Error(c.syntax);
      const whole = expectSplitInvariant(
        syntax,
        c.text,
        { tools: c.tools },
        seededCuts(c.text.length, 20261129 + index),
      );
      expect(mismatches({ ...c, vllmParser: c.detector }, whole), c.id).toEqual([]);
    });
  });

  test("each case names its file and commit, listed in the fixtures README", () => {
    const readme = readFileSync(new URL("./__fixtures__/peers/README.md", import.meta.url), "utf8");
    expect(new Set(CASES.map((c) => c.id)).size).toBe(CASES.length);
    for (const c of CASES) expect(readme).toContain(`\`${c.file}\` at \`${c.commit}\``);
  });
});
