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
  `| **all ${rows.size} templates** | | **${totalCases}** | **${totalOurs} (${pct(totalOurs)})** | **${totalHf} (${pct(totalHf)})** |`,
);
const errors = expected.filter((e) => "error" in e).length;
const table = `${lines.join("\n")}\n\n${totalCases} cases (${errors} of them raise in Python: an error counts as identical when both raise; ours must give the same exception name and message).`;

console.log(table);
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
  const next = readme.replace(new RegExp(`${begin}[\\s\\S]*${end}`), `${begin}\n${table}\n${end}`);
  writeFileSync(readmePath, next);
}
