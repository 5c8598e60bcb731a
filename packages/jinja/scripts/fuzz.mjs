// The differential fuzzer: random templates (fuzz-grammar.mjs) rendered by @toolcall/jinja and by Python + Jinja2
// as transformers renders them (hf_render.py, one Python process per batch); every difference is a failure.
//
//   node scripts/fuzz.mjs --cases 100000 --seed 1     (build first; prints a summary, exits 1 on a difference)
//
// The vitest suite runs a bounded, seeded slice of it (test/differential-fuzz.test.ts).
import {
  differsOnlyInAddress,
  generateCase,
  makeRng,
  normalizeOutcome,
  pythonInput,
} from "./fuzz-grammar.mjs";
import { PARITY_NOW, renderPythonText } from "./parity-cases.mjs";

/** Our outcome for a case: `{ ok }` or `{ error: "Type: message" }`. */
export function renderCase(jinja, core, c) {
  const parsed = core.parseJson(c.variables, { lossless: true });
  if (!parsed.success) throw new Error(`bad variables: ${c.variables}`);
  const variables = {
    messages: [],
    tools: null,
    documents: null,
    add_generation_prompt: false,
    ...parsed.value,
  };
  try {
    return { ok: jinja.compileTemplate(c.template).render(variables, { now: PARITY_NOW }) };
  } catch (error) {
    if (jinja.TemplateError.isInstance(error)) return { error: error.pythonText };
    return { error: `JavaScript ${error?.name}: ${error?.message}` };
  }
}

/**
 * Runs `count` cases from `seed`, in batches of `batch` (one Python process each). Returns the number of cases
 * and every difference found (`{ seed, index, template, variables, expected, actual }`).
 */
export function runFuzz({ jinja, core, seed, count, batch = 2000, onBatch }) {
  const mismatches = [];
  let done = 0;
  let errors = 0;
  for (let start = 0; start < count; start += batch) {
    const size = Math.min(batch, count - start);
    const rng = makeRng(seed * 1000003 + start);
    const cases = Array.from({ length: size }, () => generateCase(rng));
    const expected = renderPythonText(pythonInput(cases));
    cases.forEach((c, i) => {
      const want = normalizeOutcome(expected[i]);
      const got = normalizeOutcome(renderCase(jinja, core, c));
      if ("error" in want) errors++;
      if (JSON.stringify(want) !== JSON.stringify(got) && !differsOnlyInAddress(want, got)) {
        mismatches.push({
          seed,
          index: start + i,
          template: c.template,
          variables: c.variables,
          expected: want,
          actual: got,
        });
      }
    });
    done += size;
    onBatch?.({ done, mismatches: mismatches.length, found: mismatches });
  }
  return { cases: done, pythonErrors: errors, mismatches };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { join } = await import("node:path");
  const { writeFileSync } = await import("node:fs");
  const packageDir = join(import.meta.dirname, "..");
  const jinja = await import(join(packageDir, "dist/index.js"));
  const core = await import("@toolcall/core");
  const arg = (name, fallback) => {
    const at = process.argv.indexOf(name);
    return at === -1 ? fallback : Number(process.argv[at + 1]);
  };
  const count = arg("--cases", 10000);
  const seed = arg("--seed", 1);
  const started = Date.now();
  const result = runFuzz({
    jinja,
    core,
    seed,
    count,
    batch: arg("--batch", 5000),
    onBatch: ({ done, mismatches, found }) => {
      process.stderr.write(`\r${done}/${count} cases, ${mismatches} differences`);
      if (process.env.DUMP) writeFileSync(process.env.DUMP, JSON.stringify(found, null, 1));
    },
  });
  process.stderr.write("\n");
  for (const m of result.mismatches.slice(0, Number(process.env.SHOW ?? 20))) {
    console.log(`--- seed ${m.seed} case ${m.index}\n${m.template}\nvariables: ${m.variables}`);
    console.log(
      `python: ${JSON.stringify(m.expected).slice(0, 600)}\nours:   ${JSON.stringify(m.actual).slice(0, 600)}`,
    );
  }
  console.log(
    `${result.cases} cases (seed ${seed}), ${result.pythonErrors} raise in Python, ${result.mismatches.length} differences, ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  process.exitCode = result.mismatches.length > 0 ? 1 : 0;
}
