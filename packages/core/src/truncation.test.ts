import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { jsonrepair } from "jsonrepair";
import { describe, expect, it } from "vitest";
import { fuzzRuns } from "../test/linear-work.js";
import { normalizeAnswerArguments } from "./normalize-answer-arguments.js";
import { coreRepairs } from "./repairs/index.js";
import { createJsonrepairRepair } from "./repairs/jsonrepair.js";
import type { RepairRule } from "./repairs/repair-rule.js";
import type { FinishReason } from "./types.js";

// Truncation is decided before any completion (issue: jsonrepair made 9 of 13 cut calls runnable, and servers often
// report `stop` for a cut call). Every strict prefix of a valid call, cut anywhere after its opening brace and
// before its closing one, must stay unusable under every option set.

const VECTORS = join(import.meta.dirname, "../../conformance/vectors");
const WILD = join(import.meta.dirname, "../../../../shared/wild/payloads.json");

function jsonFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith(".json") ? [path] : [];
  });
}

/** Every string in the corpus that is a call's valid arguments text: strict JSON, an object. */
function validCalls(): string[] {
  const found = new Set<string>();
  const walk = (value: unknown): void => {
    if (typeof value === "string") {
      if (value.length > 4000 || !value.trimStart().startsWith("{")) return;
      try {
        const parsed: unknown = JSON.parse(value);
        if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) found.add(value);
      } catch {
        // not a valid call
      }
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(walk);
  };
  for (const file of [...jsonFiles(VECTORS), WILD]) walk(JSON.parse(readFileSync(file, "utf8")));
  return [...found];
}

/** The strict prefixes that end inside the object: after its opening brace, before its closing one. */
function* cutPrefixes(text: string): Generator<string> {
  const open = text.indexOf("{");
  const close = text.lastIndexOf("}");
  for (let end = open + 1; end < close; end++) yield text.slice(0, end);
}

const jsonrepairRule = createJsonrepairRepair(jsonrepair);
const RULE_SETS: Record<string, readonly RepairRule[]> = {
  none: [],
  core: coreRepairs,
  "core and jsonrepair": [...coreRepairs, jsonrepairRule],
  jsonrepair: [jsonrepairRule],
  ...Object.fromEntries(coreRepairs.map((rule) => [rule.id, [rule]])),
};
/**
 * Decode reads one finish reason, `length` (no repair runs at all); every other one, and none, takes the same path,
 * which `stop` stands for here (servers often say `stop` for a cut call).
 */
const FINISH_REASONS: readonly FinishReason[] = ["stop", "length"];

function runnable(text: string, repairs: readonly RepairRule[], finishReason: FinishReason) {
  return normalizeAnswerArguments(text, { repairs, finishReason }).usable;
}

describe("a strict prefix of a valid call never becomes a runnable call", () => {
  const calls = validCalls();

  it("the corpus has valid calls (conformance vectors and the wild payloads)", () => {
    expect(calls.length).toBeGreaterThan(200);
  });

  for (const [name, repairs] of Object.entries(RULE_SETS)) {
    it(`repairs: ${name}, under every finish reason`, () => {
      const runnables: string[] = [];
      for (const call of calls)
        for (const prefix of cutPrefixes(call))
          for (const finishReason of FINISH_REASONS)
            if (runnable(prefix, repairs, finishReason)) runnables.push(`${finishReason}: ${prefix}`);
      expect(runnables).toEqual([]);
    });
  }

  it("nor does any prefix of generated objects, written compact or spaced, under every rule", () => {
    const repairs = [...coreRepairs, jsonrepairRule];
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1, maxKeys: 4 }),
        fc.boolean(),
        (object, spaced) => {
          const text = JSON.stringify(object, null, spaced ? 1 : undefined);
          for (const prefix of cutPrefixes(text))
            expect(runnable(prefix, repairs, "stop"), prefix).toBe(false);
        },
      ),
      fuzzRuns(300),
    );
  });
});
