// Measures render parity against Python + Jinja2 (transformers' setup) for every template × conversation, for our
// engine and for @huggingface/jinja as-is, and prints the table (template, cases, identical).
// `node scripts/parity.mjs --write` also writes the table into README.md between the parity markers.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Template as HfTemplate } from "@huggingface/jinja";
import {
  buildCases,
  KWARGS,
  loadConversations,
  loadTemplates,
  renderOurs,
  renderPython,
  sameOutcome,
  templatesDir,
} from "./parity-cases.mjs";

const packageDir = join(import.meta.dirname, "..");
const jinja = await import(join(packageDir, "dist/index.js"));

/** @huggingface/jinja as-is: arguments by JSON.parse in the same form, transformers' globals given as functions. */
function renderHf(c) {
  try {
    const messages = c.messages.map((m) =>
      m.tool_calls
        ? {
            ...m,
            tool_calls: m.tool_calls.map((call) => ({
              ...call,
              function: {
                ...call.function,
                arguments:
                  c.form === "mapping" ? JSON.parse(call.function.arguments) : call.function.arguments,
              },
            })),
          }
        : m,
    );
    // raise_exception and strftime_now are built into @huggingface/jinja (its clock cannot be fixed).
    const text = new HfTemplate(c.source).render({
      messages,
      tools: c.tools,
      add_generation_prompt: true,
      ...KWARGS,
    });
    return { ok: text };
  } catch (error) {
    return { error: `TemplateError: ${error.message}` };
  }
}

/** A markdown table with its columns padded as the formatter (biome) lays them out: numbers right-aligned. */
function padTable(rows) {
  const cells = rows.map((row) =>
    row
      .split("|")
      .slice(1, -1)
      .map((cell) => cell.trim()),
  );
  const right = cells[1].map((c) => c.endsWith(":"));
  const widths = cells[0].map((_, i) =>
    Math.max(3, ...cells.filter((_, r) => r !== 1).map((row) => row[i].length)),
  );
  return cells.map((row, r) => {
    const out =
      r === 1
        ? widths.map((w, i) => (right[i] ? `${"-".repeat(w - 1)}:` : "-".repeat(w)))
        : row.map((c, i) => (right[i] ? c.padStart(widths[i]) : c.padEnd(widths[i])));
    return `| ${out.join(" | ")} |`;
  });
}

const templates = loadTemplates();
const conversations = loadConversations();
const cases = buildCases({
  templates,
  conversations,
  formFor: (t) => jinja.probeChatTemplate(t.source).argumentsForm,
});
const expected = renderPython(cases);

const rows = new Map();
cases.forEach((c, i) => {
  const row = rows.get(c.template) ?? { cases: 0, ours: 0, hf: 0, form: c.form, failures: [] };
  row.cases++;
  const ours = renderOurs(jinja, c);
  if (sameOutcome(expected[i], ours)) row.ours++;
  else row.failures.push({ id: c.id, expected: expected[i], actual: ours });
  const hf = renderHf(c);
  // @huggingface/jinja's errors carry no Python type: an error counts when both raised.
  if ("ok" in expected[i] ? sameOutcome(expected[i], hf) : "error" in hf) row.hf++;
  rows.set(c.template, row);
});

let totalCases = 0;
let totalOurs = 0;
let totalHf = 0;
const lines = [
  "| template | argument form | cases | identical (@toolcall/jinja) | identical (@huggingface/jinja 0.5.11) |",
  "|---|---|---:|---:|---:|",
];
for (const [name, row] of rows) {
  totalCases += row.cases;
  totalOurs += row.ours;
  totalHf += row.hf;
  lines.push(`| ${name.replace(/\.jinja$/, "")} | ${row.form} | ${row.cases} | ${row.ours} | ${row.hf} |`);
}
const pct = (n) => `${((100 * n) / totalCases).toFixed(1)}%`;
lines.push(
  `| **all ${rows.size} templates** |  | **${totalCases}** | **${totalOurs} (${pct(totalOurs)})** | **${totalHf} (${pct(totalHf)})** |`,
);
const errors = expected.filter((e) => "error" in e).length;
const table = `${padTable(lines).join("\n")}\n\n${totalCases} cases (${errors} of them raise in Python: an error counts as identical when both raise; ours must give the same exception name and message).`;

// The R8 conformance vectors: the engine and @huggingface/jinja against the expected outcomes (Python's).
const conformance = await import(join(packageDir, "../conformance/dist/index.js"));
const { FloatValue } = conformance;
const plain = (value, float) => {
  if (value instanceof FloatValue) return float(value.value);
  if (Array.isArray(value)) return value.map((v) => plain(v, float));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v, float)]));
  return value;
};
const r8 = conformance.loadVectors({ rules: ["R8"] });
let r8Run = 0;
let r8Ours = 0;
let r8Hf = 0;
const r8Failures = [];
for (const testCase of r8) {
  const resolved = conformance.resolveRenderInput(testCase.input, templatesDir);
  if ("skip" in resolved) continue;
  const input = resolved.input;
  r8Run++;
  const [y, mo, d, h, mi, sec] = input.now.split(/[-T:]/).map(Number);
  const context = (float) => ({
    messages: plain(input.messages, float),
    tools: plain(input.tools, float),
    documents: null,
    add_generation_prompt: input.addGenerationPrompt,
    ...plain(input.variables, float),
  });
  const want = testCase.expected;
  let ours;
  try {
    ours = {
      text: jinja.compileTemplate(input.template).render(
        context((v) => new jinja.PyFloat(v)),
        { now: new Date(y, mo - 1, d, h, mi, sec) },
      ),
    };
  } catch (error) {
    ours = jinja.TemplateError.isInstance(error)
      ? { error: { type: error.type, message: error.message } }
      : { error: { type: "JavaScript", message: String(error) } };
  }
  // A vector without an error message (RecursionError: Python's words vary with the stack) compares the type alone.
  const same =
    "error" in want && !("message" in want.error)
      ? ours.error?.type === want.error.type
      : JSON.stringify(ours) === JSON.stringify(want);
  if (same) r8Ours++;
  else r8Failures.push({ id: testCase.id, want, ours });
  let hf;
  try {
    hf = { text: new HfTemplate(input.template).render(context((v) => v)) };
  } catch {
    hf = { error: true };
  }
  if ("text" in want ? hf.text === want.text : "error" in hf) r8Hf++;
}
const r8Table = `R8 conformance vectors (packages/conformance/vectors/r8, ${r8.length} vectors, ${r8Run} run here): **${r8Ours} identical (@toolcall/jinja)**, ${r8Hf} (@huggingface/jinja 0.5.11; an error counts when both raise).`;

console.log(table);
console.log(`\n${r8Table}`);
if (process.argv.includes("--verbose"))
  for (const f of r8Failures.slice(0, 5)) console.log(JSON.stringify(f).slice(0, 2000));
if (process.argv.includes("--verbose")) {
  for (const [name, row] of rows) {
    for (const f of row.failures.slice(0, 2)) {
      console.log(`\n--- ${name} ${f.id}`);
      console.log("expected:", JSON.stringify(f.expected).slice(0, 3000));
      console.log("actual:  ", JSON.stringify(f.actual).slice(0, 3000));
    }
  }
}
if (process.argv.includes("--write")) {
  const readmePath = join(packageDir, "README.md");
  const readme = readFileSync(readmePath, "utf8");
  const begin = "<!-- parity:begin -->";
  const end = "<!-- parity:end -->";
  const next = readme.replace(
    new RegExp(`${begin}[\\s\\S]*${end}`),
    `${begin}\n${table}\n\n${r8Table}\n${end}`,
  );
  writeFileSync(readmePath, next);
}
