// Growth of the engine on hostile templates: time ~ size^k, fitted over four sizes. Tests count the work (steps on
// a work meter); this is where the time is. Target: every exponent at most 1.2. Run alone with
// `node scripts/bench-growth.mjs`, or as the last section of `pnpm bench`.
import { join } from "node:path";
import v8 from "node:v8";
import vm from "node:vm";

const packageDir = join(import.meta.dirname, "..");
const { compileTemplate } = await import(join(packageDir, "dist/index.js"));

export const TARGET_EXPONENT = 1.2;
const SIZES = [32_768, 65_536, 131_072, 262_144];

/** Renders and swallows the engine's own errors: a budget's MemoryError is an expected end here. */
function attempt(render) {
  try {
    return render();
  } catch (error) {
    if (error?.name !== "TemplateError") throw error;
    return error.type;
  }
}

const wrap = compileTemplate("{{ text|wordwrap(1)|length }}");
const fixed = compileTemplate("{{ (('%.' ~ n ~ 'f') % 1.5)|length }}");
const bomb = compileTemplate(
  "{% macro a(x) %}{{x}}{{x}}{{x}}{{x}}{{x}}{{x}}{{x}}{{x}}{{x}}{{x}}{% endmacro %}{% macro b(x) %}{{ a(a(a(x))) }}{% endmacro %}{{ b(b(b('x' * 1000))) }}",
);
const lipsum = compileTemplate("{{ lipsum(100000, min=1000, max=1001)|length }}");
const cyclic = compileTemplate("{{ items|length }}");

/** One row per hostile case: a name and a render of an input of about `n` characters (or an `n` budget). */
const TARGETS = [
  {
    name: "wordwrap(1) of one long word (the issue's 16 000-character case)",
    run: (n) => wrap.render({ text: "x".repeat(n) }),
  },
  { name: "'%.Nf' % 1.5 (the issue's 20 000 000 places)", run: (n) => fixed.render({ n: n * 16 }) },
  {
    name: "a macro bomb of 10^9 characters, stopped at an output budget of N",
    run: (n) => attempt(() => bomb.render({}, { maxOutputLength: n * 16 })),
  },
  {
    name: "lipsum(100000, min=1000, max=1001), stopped at an output budget of N",
    run: (n) => attempt(() => lipsum.render({}, { maxOutputLength: n * 4 })),
  },
  {
    name: "compiling N nested ifs (a RecursionError past 100 levels)",
    run: (n) => {
      const depth = Math.floor(n / 24);
      return attempt(() =>
        compileTemplate(`${"{% if true %}".repeat(depth)}x${"{% endif %}".repeat(depth)}`),
      );
    },
  },
  {
    name: "a template of N characters without a newline",
    run: (n) => compileTemplate("{{ x }}".repeat(Math.floor(n / 7))).render({ x: 1 }).length,
  },
  {
    name: "a list of N items that holds itself",
    run: (n) => {
      const items = Array.from({ length: n / 8 }, (_, i) => [i]);
      items.push(items);
      return cyclic.render({ items });
    },
  },
];

// A full collection before each timed pass, so a pass pays for its own garbage only (as the root bench does).
v8.setFlagsFromString("--expose-gc");
const collect = vm.runInNewContext("gc");

function cpuMs() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Best CPU time of a few runs, each repeated to cover the largest size's amount of input. */
function timeAt(run, n) {
  const reps = Math.max(1, Math.round(SIZES[SIZES.length - 1] / n));
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < 5; round++) {
    collect();
    const start = cpuMs();
    for (let r = 0; r < reps; r++) run(n);
    best = Math.min(best, (cpuMs() - start) / reps);
  }
  return best;
}

function exponentOf(sizes, times) {
  const xs = sizes.map(Math.log);
  const ys = times.map((t) => Math.log(Math.max(t, 1e-3)));
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let num = 0;
  let den = 0;
  for (let i = 0; i < xs.length; i++) {
    num += (xs[i] - mx) * (ys[i] - my);
    den += (xs[i] - mx) ** 2;
  }
  return num / den;
}

/** Prints the growth table: one row per hostile case, its times, exponent and target (MISS past it). */
export function printGrowth() {
  console.log(
    `\n| hostile template (Jinja engine) | ${SIZES.map((n) => `N = ${n}`).join(" | ")} | exponent k (target ≤ ${TARGET_EXPONENT}) |`,
  );
  console.log(`|---|${SIZES.map(() => "---:").join("|")}|---:|`);
  for (const target of TARGETS) {
    for (const n of SIZES) target.run(n);
    const times = SIZES.map((n) => timeAt(target.run, n));
    const k = exponentOf(SIZES, times);
    const verdict = k <= TARGET_EXPONENT ? `${k.toFixed(2)}` : `${k.toFixed(2)} MISS`;
    console.log(`| ${target.name} | ${times.map((t) => `${t.toFixed(2)} ms`).join(" | ")} | ${verdict} |`);
  }
  console.log("\nCPU time per run (best of five); each size repeated to cover the largest size's input.");
}

if (import.meta.url === `file://${process.argv[1]}`) printGrowth();
