// Writes the R8 render vectors (packages/conformance/vectors/r8/*.json): this package's own templates
// (r8-cases.mjs) and the shared real chat templates (../shared/templates, named by file and SHA-256, never
// copied), each rendered by Python + Jinja2 as transformers renders (../shared/parity/hf_render.py) to get the
// expected text or error. `node scripts/r8-vectors.mjs` rewrites the files; test/r8-vectors.test.ts checks they
// still match Python.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseJson } from "@toolcall/core";
import {
  buildMessages,
  KWARGS,
  loadConversations,
  loadTemplates,
  renderPythonText,
  repoRoot,
} from "./parity-cases.mjs";
import { TOPICS } from "./r8-cases.mjs";

export const vectorsDir = join(repoRoot, "packages/conformance/vectors/r8");

/** A tagged value as Python's json.loads should read it: `$float` and `$bigint` written as number literals. */
export function pythonJson(value) {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "$float") return String(value.$float);
    if (keys.length === 1 && keys[0] === "$bigint") return String(value.$bigint);
    return `{${keys.map((k) => `${JSON.stringify(k)}: ${pythonJson(value[k])}`).join(", ")}}`;
  }
  return JSON.stringify(value);
}

/** Wire JSON text as the tagged value Python would decode it to (integral floats and big ints tagged). */
export function taggedFromWire(text) {
  const parsed = parseJson(text, { lossless: true });
  if (!parsed.success) return text;
  const walk = (v) => {
    if (Array.isArray(v)) return v.map(walk);
    if (
      v !== null &&
      typeof v === "object" &&
      typeof v.text === "string" &&
      typeof v.isInteger === "boolean"
    ) {
      const n = Number(v.text);
      if (v.isInteger) return Number.isSafeInteger(n) ? n : { $bigint: v.text };
      return Number.isInteger(n) ? { $float: v.text } : n;
    }
    if (v !== null && typeof v === "object")
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(parsed.value);
}

function pythonCase(input, template) {
  return `{"template": ${JSON.stringify(template)}, "messages": ${pythonJson(input.messages ?? [])}, "tools": ${pythonJson(input.tools ?? null)}, "add_generation_prompt": ${input.addGenerationPrompt ? "true" : "false"}, "kwargs": ${pythonJson(input.variables ?? {})}}`;
}

function expectedOf(outcome) {
  if ("ok" in outcome) return { text: outcome.ok };
  const at = outcome.error.indexOf(": ");
  const type = at === -1 ? outcome.error : outcome.error.slice(0, at);
  // Python words a RecursionError by where the limit is hit ("… while calling a Python object"): the type alone.
  if (type === "RecursionError") return { error: { type } };
  return { error: { type, message: at === -1 ? "" : outcome.error.slice(at + 2) } };
}

/** Every vector file: `{ file, groups }`, expected outcomes from Python. */
export function buildVectorFiles({ formFor }) {
  const files = [];
  const pending = [];
  for (const [topic, [description, cases]] of Object.entries(TOPICS)) {
    const tests = cases.map(([slug, title, template, variables]) => {
      const input = { template, ...(variables === undefined ? {} : { variables }) };
      pending.push({ input, template });
      return { id: `r8-${topic}-${slug}`, description: title, input };
    });
    files.push({ file: `${topic}.json`, groups: [{ description, rule: "R8", operation: "render", tests }] });
  }
  // The shared real templates: two conversations each, arguments as transformers would get them.
  const conversations = loadConversations();
  const chosen = ["typed-values", "float-integral"].map((id) =>
    conversations.conversations.findIndex((c) => c.id === id),
  );
  const tests = [];
  for (const template of loadTemplates()) {
    const form = formFor(template);
    for (const index of chosen) {
      const conversation = conversations.conversations[index];
      const messages = buildMessages({
        tools: conversations.tools,
        argsJson: conversation.args_json,
        index,
        content: "",
        label: conversation.id,
      }).map((m) =>
        m.tool_calls
          ? {
              ...m,
              tool_calls: m.tool_calls.map((call) => ({
                ...call,
                function: {
                  ...call.function,
                  arguments:
                    form === "mapping" ? taggedFromWire(call.function.arguments) : call.function.arguments,
                },
              })),
            }
          : m,
      );
      const input = {
        templateFile: template.name,
        templateSha256: createHash("sha256").update(template.source, "utf8").digest("hex"),
        messages,
        tools: conversations.tools,
        addGenerationPrompt: true,
        variables: KWARGS,
      };
      pending.push({ input, template: template.source });
      const slug = template.name
        .replace(/\.jinja$/, "")
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-");
      tests.push({
        id: `r8-chat-templates-${slug}-${conversation.id}`,
        description: `${template.name}, ${conversation.id}`,
        input,
      });
    }
  }
  files.push({
    file: "chat-templates.json",
    groups: [
      {
        description: "the shared real chat templates (run where ../shared/templates is present)",
        rule: "R8",
        operation: "render",
        source: "../shared/templates (files named by name and SHA-256, not copied)",
        tests,
      },
    ],
  });
  const outcomes = renderPythonText(`[${pending.map((p) => pythonCase(p.input, p.template)).join(",")}]`);
  let i = 0;
  for (const { groups } of files)
    for (const test of groups[0].tests) test.expected = expectedOf(outcomes[i++]);
  return files;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const jinja = await import(join(import.meta.dirname, "../dist/index.js"));
  const files = buildVectorFiles({ formFor: (t) => jinja.probeChatTemplate(t.source).argumentsForm });
  mkdirSync(vectorsDir, { recursive: true });
  for (const { file, groups } of files)
    writeFileSync(join(vectorsDir, file), `${JSON.stringify(groups, null, 2)}\n`);
  console.log(
    `wrote ${files.length} files, ${files.reduce((n, f) => n + f.groups[0].tests.length, 0)} vectors`,
  );
}
