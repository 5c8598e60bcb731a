import { readFileSync } from "node:fs";
import type { SyntaxParseResult } from "@toolcall/core/kit";
import { describe, expect, test } from "vitest";
import { SYNTAXES } from "../src/registry.js";
import { expectSplitInvariant, fixedIds } from "./helpers.js";
import { loadVllmCases, mismatches, normalContent, seededCuts, type VllmCase } from "./peers-vllm-cases.js";
import { DIFFERENCES as OLDER_DIFFERENCES, REASONS as OLDER_REASONS } from "./peers-vllm-differences.js";
import { NEWER_DIFFERENCES, NEWER_REASONS } from "./peers-vllm-newer-differences.js";

const REASONS: Record<string, { name: string; reason: string }> = { ...OLDER_REASONS, ...NEWER_REASONS };
const DIFFERENCES = { ...OLDER_DIFFERENCES, ...NEWER_DIFFERENCES };

/**
 * vLLM's own tool-parser tests (tests/tool_parsers/, Apache-2.0), as data: every case whose input is a whole model
 * output and whose test states the result, run through our syntax for the family, whole and streamed in seeded
 * random splits (which must agree), and compared with what vLLM's test expects. Arguments are compared as JSON
 * values, content after the separator rule (`normalContent`). Where we differ on purpose, `DIFFERENCES` says why and
 * the test holds the difference exactly.
 */
const CASES = loadVllmCases();

/** Per syntax: cases, agreeing, differing on purpose. The package README's "Against vLLM's own test cases" table. */
const SUMMARY: Record<string, [number, number, number]> = {
  hermes: [16, 15, 1],
  glm45: [12, 9, 3],
  glm47: [9, 9, 0],
  "kimi-k2": [13, 12, 1],
  "deepseek-v3": [8, 8, 0],
  "deepseek-v31": [2, 1, 1],
  "deepseek-v32": [4, 3, 1],
  "mistral-list": [13, 13, 0],
  "mistral-args": [7, 6, 1],
  "llama3-json": [14, 12, 2],
  "llama-pythonic": [22, 22, 0],
  "minimax-m2": [18, 18, 0],
  "seed-oss": [5, 2, 3],
  granite: [8, 8, 0],
  "phi4-mini": [7, 7, 0],
  hunyuan: [10, 9, 1],
  jamba: [4, 4, 0],
  xlam: [10, 4, 6],
  apertus: [19, 18, 1],
  "command-r7b": [4, 3, 1],
  "hy-v3": [14, 11, 3],
  "hy-v4": [52, 49, 3],
  lfm2: [27, 24, 3],
  step3: [13, 13, 0],
  olmo3: [13, 12, 1],
  "nemotron-nano-v2": [10, 9, 1],
  "qwen3-coder": [45, 44, 1],
  gigachat3: [13, 13, 0],
  longcat: [7, 7, 0],
  functiongemma: [7, 5, 2],
  interns1: [3, 3, 0],
  mimo: [7, 6, 1],
  step3p5: [12, 12, 0],
};

function syntaxOf(c: VllmCase) {
  const syntax = SYNTAXES[c.syntax];
  if (syntax === undefined) throw new Error(`no syntax ${c.syntax}`);
  return syntax;
}

function parseWhole(c: VllmCase): SyntaxParseResult {
  return syntaxOf(c).parse(c.text, { tools: c.tools, createId: fixedIds });
}

const bySyntax = new Map<string, VllmCase[]>();
for (const c of CASES) bySyntax.set(c.syntax, [...(bySyntax.get(c.syntax) ?? []), c]);

/** Our standing per syntax, from the whole parses (the per-case tests below also check every stream). */
function standing(cases: readonly VllmCase[]): [number, number, number] {
  const agree = cases.filter((c) => mismatches(c, parseWhole(c)).length === 0).length;
  return [cases.length, agree, cases.length - agree];
}

function checkDifference(c: VllmCase, result: SyntaxParseResult, fields: string[]): void {
  const difference = DIFFERENCES[c.id];
  if (difference === undefined) {
    expect(fields, `${c.test} (${c.file})`).toEqual([]);
    return;
  }
  // The difference, exactly: where we depart and what we give there.
  expect(fields, REASONS[difference.kind]?.reason).toEqual(difference.fields);
  const { ours } = difference;
  expect(result.toolCalls.map((call) => call.function.name)).toEqual(ours.calls);
  expect(normalContent(result.content)).toBe(ours.content);
  if (ours.reasoningStartsWith !== undefined)
    expect(normalContent(result.reasoning)?.startsWith(ours.reasoningStartsWith)).toBe(true);
  else expect(normalContent(result.reasoning)).toBe(ours.reasoning ?? null);
}

for (const [id, cases] of bySyntax) {
  const [total, agree, differ] = standing(cases);
  describe(`${id}: ${agree}/${total} of vLLM's cases agree, ${differ} differ on purpose`, () => {
    cases.forEach((c, index) => {
      test(`${c.test.split(";")[0]} [${c.vllmParser}]`, () => {
        const whole = expectSplitInvariant(
          syntaxOf(c),
          c.text,
          { tools: c.tools },
          seededCuts(c.text.length, 20260902 + index),
        );
        checkDifference(c, whole, mismatches(c, whole));
      });
    });
  });
}

describe("the comparison with vLLM's cases", () => {
  test("agreement per syntax is what the package README states", () => {
    const computed = Object.fromEntries([...bySyntax].map(([id, cases]) => [id, standing(cases)]));
    expect(computed).toEqual(SUMMARY);
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const section = readme.slice(readme.indexOf("## Against vLLM's own test cases"));
    for (const [id, [total, agree, differ]] of Object.entries(SUMMARY))
      expect(section, id).toMatch(
        new RegExp(`\\| \`${id}\`\\s*\\| ${total}\\s*\\| ${agree}\\s*\\| ${differ}\\s*\\|`),
      );
    for (const { name, reason } of Object.values(REASONS))
      expect(section).toContain(`**${name}**: ${reason}`);
  });

  test("every listed difference is a case of the fixture, and every reason is used", () => {
    const ids = new Set(CASES.map((c) => c.id));
    expect(ids.size, "case ids are unique").toBe(CASES.length);
    for (const id of Object.keys(DIFFERENCES)) expect(ids.has(id), id).toBe(true);
    const used = new Set(Object.values(DIFFERENCES).map((d) => d.kind));
    expect([...used].sort()).toEqual(Object.keys(REASONS).sort());
  });

  test("the cases vLLM marks as known failures of its own parser (xfail) all agree here", () => {
    const xfail = CASES.filter((c) => c.vllmXfail !== undefined);
    expect(xfail.length).toBe(21);
    for (const c of xfail) {
      expect(DIFFERENCES[c.id], c.id).toBeUndefined();
      expect(mismatches(c, parseWhole(c)), c.id).toEqual([]);
    }
  });

  test("each case names its vLLM test file, commit and test, and states a result", () => {
    const readme = readFileSync(new URL("./__fixtures__/peers/README.md", import.meta.url), "utf8");
    for (const c of CASES) {
      expect(c.file).toMatch(/^tests\/tool_parsers\/test_[a-z0-9_]+\.py$/);
      expect(c.commit).toMatch(/^[0-9a-f]{40}$/);
      const file = c.file.replaceAll(".", "\\.");
      expect(readme, c.file).toMatch(new RegExp(`\\| \`${file}\`\\s*\\| \`${c.commit}\``));
      expect(c.test.length).toBeGreaterThan(0);
      expect(Object.keys(c.expected).length, c.id).toBeGreaterThan(0);
    }
  });
});
