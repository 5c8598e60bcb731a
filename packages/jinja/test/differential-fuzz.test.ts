import * as core from "@toolcall/core";
import { describe, expect, it } from "vitest";
import { runFuzz } from "../scripts/fuzz.mjs";
import * as jinja from "../src/index.js";

// The differential fuzzer, bounded for CI: random templates from a grammar of Jinja2's features (filters, tests,
// methods, `%` and `str.format`, generators, Markup, loops, macros, namespaces, errors) over random variables,
// rendered here and by Python + Jinja2 as transformers renders (hf_render.py, one process per batch). Any
// difference, in the text or in the exception raised, fails. Seeded: a failure names its seed and case index;
// `node scripts/fuzz.mjs --seed N --cases M` replays it. The long run (100 000 cases) is in the README.

const SEEDS = [11, 12];
const CASES = 900;

describe("differential fuzzing against Python + Jinja2", () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: ${CASES} random templates render identically`, () => {
      const result = runFuzz({ jinja, core, seed, count: CASES, batch: CASES });
      expect(result.cases).toBe(CASES);
      // The grammar reaches both outcomes: most templates render, many raise (and the errors must match too).
      expect(result.pythonErrors).toBeGreaterThan(CASES / 10);
      expect(result.pythonErrors).toBeLessThan(CASES);
      expect(result.mismatches.slice(0, 3)).toEqual([]);
    });
  }
});
