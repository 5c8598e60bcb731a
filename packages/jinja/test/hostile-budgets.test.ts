import { createWorkMeter } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type Outcome, renderPythonText } from "../scripts/parity-cases.mjs";
import { compileTemplate, type RenderOptions, TemplateError } from "../src/index.js";

// Hostile templates and data: every one ends in bounded work with the error Python raises (or the engine's
// documented StepLimitError), never a JavaScript RangeError or an aborted process. Work is counted with a work
// meter (steps), never timed.

type Result = { text: string; steps: number } | { error: string; steps: number };

function run(template: string, variables: Record<string, unknown> = {}, options: RenderOptions = {}): Result {
  const meter = createWorkMeter();
  try {
    return { text: compileTemplate(template).render(variables, { ...options, meter }), steps: meter.steps };
  } catch (error) {
    if (!TemplateError.isInstance(error)) throw error;
    return { error: error.pythonText, steps: meter.steps };
  }
}

function errorOf(
  template: string,
  variables: Record<string, unknown> = {},
  options: RenderOptions = {},
): string {
  const result = run(template, variables, options);
  return "error" in result ? result.error : `rendered ${result.text.length} characters`;
}

function python(templates: string[]): Outcome[] {
  const cases = templates.map((template) => ({ template, messages: [], tools: null, kwargs: {} }));
  return renderPythonText(JSON.stringify(cases));
}

describe("output budget: a string past maxOutputLength raises Python's MemoryError", () => {
  it("renders '%.20000000f' % 1.5 digit for digit, computing only the digits a double has", () => {
    const result = run("{{ '%.20000000f' % x }}", { x: 1.5 });
    expect("text" in result && result.text.length).toBe(20_000_002);
    expect("text" in result && result.text.startsWith("1.50000")).toBe(true);
    expect("text" in result && /^1\.50*$/.test(result.text)).toBe(true);
    // A bigint division of 20 million digits would cost ~10^12 limb steps; the exact digits cost a few thousand,
    // and the zeros one step each.
    expect(result.steps).toBeGreaterThan(20_000_000);
    expect(result.steps).toBeLessThan(20_100_000);
  });

  it("gives Python's digits past the places a double holds exactly", () => {
    const templates = [
      "{{ '%.1200f' % 0.1 }}",
      "{{ '%.1500e' % 1e-300 }}",
      "{{ '{:.1300f}'.format(5e-324) }}",
      "{{ '%.1400g' % 2.5 }}",
      "{{ '%#.1200g' % 1e300 }}",
    ];
    const expected = python(templates);
    templates.forEach((template, i) => {
      const result = run(template);
      expect("text" in result ? { ok: result.text } : { error: result.error }).toEqual(expected[i]);
    });
  });

  it("raises MemoryError, not RecursionError, for widths of 10^9", () => {
    for (const template of [
      "{{ '%1000000000d' % 1 }}",
      "{{ '%-1000000000s' % 'a' }}",
      "{{ '%.1000000000f' % 1.5 }}",
      "{{ '%.1000000000d' % 1 }}",
      "{{ '{:1000000000}'.format(1) }}",
      "{{ '{:>1000000000}'.format('a') }}",
      "{{ 'x'|center(1000000000) }}",
      "{{ 'x'.ljust(1000000000) }}",
      "{{ '1'.zfill(1000000000) }}",
      "{{ 'a\tb'.expandtabs(1000000000) }}",
      "{{ [1]|tojson(indent=1000000000) }}",
      "{{ 'x' * 1000000000 }}",
      "{{ 'x'|indent(1000000000, true) }}",
    ]) {
      expect(errorOf(template), template).toBe("MemoryError: ");
    }
  });

  it("stops a macro bomb of 10^9 characters at the budget", () => {
    const bomb =
      "{% macro a(x) %}{{x}}{{x}}{{x}}{{x}}{{x}}{{x}}{{x}}{{x}}{{x}}{{x}}{% endmacro %}" +
      "{% macro b(x) %}{{ a(a(a(x))) }}{% endmacro %}{{ b(b(b('x' * 1000))) }}";
    const result = run(bomb, {}, { maxOutputLength: 1 << 20 });
    expect("error" in result && result.error).toBe("MemoryError: ");
    expect(result.steps).toBeGreaterThan(0);
    expect(result.steps).toBeLessThan(4 << 20);
    expect(errorOf(bomb)).toBe("MemoryError: ");
  });

  it("doubling a string in a loop stops at the budget", () => {
    const template =
      "{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}";
    expect(errorOf(template, {}, { maxOutputLength: 1 << 16 })).toBe("MemoryError: ");
    expect(errorOf(template)).toBe("MemoryError: ");
  });

  it("keeps a render that fits its budget whole", () => {
    expect(run("{{ 'x' * 100 }}", {}, { maxOutputLength: 100 })).toMatchObject({ text: "x".repeat(100) });
    expect(errorOf("{{ 'x' * 101 }}", {}, { maxOutputLength: 100 })).toBe("MemoryError: ");
  });
});

describe("lipsum", () => {
  it("raises Python's ValueError for an empty word range, as random.randrange does", () => {
    const templates = ["{{ lipsum(100000, min=100000, max=100000) }}", "{{ lipsum(2, min=5, max=5) }}"];
    const expected = python(templates);
    templates.forEach((template, i) => {
      expect({ error: errorOf(template) }).toEqual(expected[i]);
    });
  });

  it("raises MemoryError past the output budget after work bounded by the budget", () => {
    const result = run("{{ lipsum(100000, min=99999, max=100000) }}", {}, { maxOutputLength: 1 << 20 });
    expect("error" in result && result.error).toBe("MemoryError: ");
    expect(result.steps).toBeGreaterThan(0);
    expect(result.steps).toBeLessThan(4 << 20);
  });
});

describe("wordwrap is linear in its text", () => {
  it("breaks one long word in steps proportional to its length", () => {
    const steps = [16_000, 32_000, 64_000].map((n) => {
      const result = run("{{ ('x' * n)|wordwrap(1) }}", { n });
      expect("text" in result && result.text.length).toBe(2 * n - 1);
      return result.steps;
    });
    expect(steps[0]).toBeGreaterThan(16_000);
    expect(steps[0]).toBeLessThan(16_000 * 8);
    expect((steps[2] as number) / (steps[1] as number)).toBeLessThan(2.2);
    expect((steps[1] as number) / (steps[0] as number)).toBeLessThan(2.2);
  });

  it("wraps as Python's textwrap does", () => {
    const templates = [
      "{{ ('x' * 50)|wordwrap(7) }}",
      "{{ ('ab-cd-ef ' * 5 + 'xxxxxxxxxxxxxxxxxx')|wordwrap(5) }}",
      "{{ 'aaaa bbbbbbbbbbbbbbbbbbbb c'|wordwrap(6, break_long_words=false) }}",
      "{{ ('word ' * 20 + '\u00a0\u00a0\u00a0\u00a0\u00a0\u00a0\u00a0x')|wordwrap(4) }}",
      "{{ 'one two—three four-five-six seven'|wordwrap(3) }}",
    ];
    const expected = python(templates);
    templates.forEach((template, i) => {
      const result = run(template);
      expect("text" in result ? { ok: result.text } : { error: result.error }, template).toEqual(expected[i]);
    });
  });
});

describe("nesting and cycles raise Python's errors, never a JavaScript RangeError", () => {
  it("fails 100 000 parentheses and 20 000 nested ifs with RecursionError", () => {
    expect(errorOf(`{{ ${"(".repeat(100_000)}1${")".repeat(100_000)} }}`)).toBe(
      "RecursionError: maximum recursion depth exceeded",
    );
    expect(errorOf(`${"{% if true %}".repeat(20_000)}x${"{% endif %}".repeat(20_000)}`)).toBe(
      "RecursionError: maximum recursion depth exceeded",
    );
    expect(errorOf(`{{ ${"-".repeat(100_000)}1 }}`)).toBe("RecursionError: maximum recursion depth exceeded");
    expect(errorOf(`{{ ${"[".repeat(100_000)}1${"]".repeat(100_000)} }}`)).toBe(
      "RecursionError: maximum recursion depth exceeded",
    );
  });

  // Python's limit counts the caller's frames too, so the depths here leave room below it.
  it("renders the depths Python renders", () => {
    const templates = [
      `{{ ${"(".repeat(60)}1${")".repeat(60)} }}`,
      `{{ ${"- ".repeat(450)}1 }}`,
      `{{ ${"not ".repeat(450)}1 }}`,
      `${"{% if true %}".repeat(90)}x${"{% endif %}".repeat(90)}`,
    ];
    const expected = python(templates);
    templates.forEach((template, i) => {
      const result = run(template);
      expect("text" in result ? { ok: result.text } : { error: result.error }).toEqual(expected[i]);
    });
  });

  it("takes a cyclic variable as Python takes the object: unused, printed, dumped", () => {
    const list: unknown[] = [1];
    list.push(list);
    const object: Record<string, unknown> = { x: 1 };
    object.self = object;
    expect(run("ok", { list, object })).toMatchObject({ text: "ok" });
    expect(run("{{ list }} {{ object }}", { list, object })).toMatchObject({
      text: "[1, [...]] {'x': 1, 'self': {...}}",
    });
    expect(run("{{ object.self.self.x }} {{ list[1][1][0] }}", { list, object })).toMatchObject({
      text: "1 1",
    });
    expect(errorOf("{{ object|tojson }}", { object })).toBe("ValueError: Circular reference detected");
  });

  it("reports data nested past the engine's stack as RecursionError", () => {
    let deep: unknown[] = [];
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(errorOf("ok", { deep })).toBe("RecursionError: maximum recursion depth exceeded");
  });
});

describe("step budget", () => {
  it("stops nested loops of 10^10 iterations at maxSteps with StepLimitError", () => {
    const template = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}";
    const result = run(template, {}, { maxSteps: 50_000 });
    expect("error" in result && result.error).toBe(
      "StepLimitError: the render took more than 50000 steps (the maxSteps option)",
    );
    expect(result.steps).toBe(50_001);
    expect(errorOf(template)).toMatch(/^StepLimitError: /);
  });

  it("charges filters and methods for the size of what they are given", () => {
    const template = "{% for i in range(100) %}{{ text|upper|length }}{{ text.split()|length }}{% endfor %}";
    const result = run(template, { text: "ab ".repeat(10_000) });
    expect("text" in result).toBe(true);
    expect(result.steps).toBeGreaterThan(3 * 30_000 * 100);
    expect(errorOf(template, { text: "ab ".repeat(10_000) }, { maxSteps: 1_000_000 })).toMatch(
      /^StepLimitError/,
    );
  });

  it("keeps the outer render's budget across a render inside it", () => {
    const inner = compileTemplate("{% for i in range(10) %}{% endfor %}");
    const template = "{% for i in range(100) %}{{ render() }}{% endfor %}";
    const result = run(template, { render: () => inner.render({}) }, { maxSteps: 1000 });
    expect("error" in result && result.error).toMatch(/^StepLimitError/);
  });

  it("takes its limit from a work meter given with one", () => {
    const meter = createWorkMeter({ limit: 100 });
    expect(() => compileTemplate("{% for i in range(1000) %}{% endfor %}").render({}, { meter })).toThrow(
      TemplateError,
    );
    expect(meter.exhausted).toBe(true);
  });
});

/** Pieces a hostile template is made of: each may nest the rest or ask for a huge size. */
const hostilePiece: fc.Arbitrary<string> = fc.letrec<{ piece: string }>((tie) => ({
  piece: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom("x", "{{ 1 }}", "{{ 'ab' * 3 }}", "{{ lipsum(2, min=1, max=3)|length }}"),
    fc.integer({ min: 0, max: 2_000_000_000 }).map((n) => `{{ '%${n}d' % 1 }}`),
    fc.integer({ min: 0, max: 2_000_000_000 }).map((n) => `{{ 'x'|center(${n}) }}`),
    fc.integer({ min: 0, max: 2_000_000_000 }).map((n) => `{{ '%.${n}f' % 0.1 }}`),
    fc.integer({ min: 1, max: 100_000 }).map((n) => `{{ ('x' * ${n})|wordwrap(1)|length }}`),
    fc.integer({ min: 0, max: 300_000 }).map((n) => `{{ ${"(".repeat(n)}1${")".repeat(n)} }}`),
    fc
      .tuple(fc.integer({ min: 0, max: 100_000 }), tie("piece"))
      .map(([n, inner]) => `{% for i in range(${n}) %}${inner}{% endfor %}`),
    fc.tuple(fc.integer({ min: 0, max: 200 }), tie("piece")).map(([n, inner]) => {
      return `${"{% if true %}".repeat(n)}${inner}${"{% endif %}".repeat(n)}`;
    }),
    tie("piece").map((inner) => `{% macro m(s) %}{{ s }}{{ s }}{% endmacro %}{{ m(m(m(m('${inner}')))) }}`),
    tie("piece").map(
      (inner) =>
        `{% set ns = namespace(s='${inner}') %}{% for i in range(40) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}`,
    ),
  ),
})).piece;

describe("hostile templates, generated", () => {
  it("end in a text or a TemplateError within the budgets", () => {
    const maxSteps = 200_000;
    const maxOutputLength = 1 << 18;
    fc.assert(
      fc.property(fc.array(hostilePiece, { maxLength: 4 }), (pieces) => {
        const meter = createWorkMeter();
        let text = "";
        try {
          text = compileTemplate(pieces.join("")).render({}, { maxSteps, maxOutputLength, meter });
        } catch (error) {
          expect(TemplateError.isInstance(error), String(error)).toBe(true);
          expect(["MemoryError", "StepLimitError", "RecursionError", "TemplateSyntaxError"]).toContain(
            (error as TemplateError).type,
          );
        }
        expect(text.length).toBeLessThanOrEqual(maxOutputLength);
        expect(meter.steps).toBeLessThanOrEqual(maxSteps + 1);
      }),
      { numRuns: 150 },
    );
  });
});
