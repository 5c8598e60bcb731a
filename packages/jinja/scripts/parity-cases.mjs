// Builds render cases (every template × every conversation) and renders them with the reference renderer,
// Python + Jinja2 as transformers sets it up (../shared/parity/hf_render.py, one process per batch).
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const repoRoot = resolve(here, "../../..");
/** The shared material, beside the repository (CI has it there too). */
export const sharedDir = resolve(repoRoot, "../shared");
export const templatesDir = join(sharedDir, "templates");
export const hfRender = join(sharedDir, "parity/hf_render.py");

/** Fixed clock of hf_render.py (naive local time). */
export const PARITY_NOW = new Date(2026, 0, 2, 3, 4, 5);
export const KWARGS = { bos_token: "<s>", eos_token: "</s>" };

/** The folders of templates, relative to `templatesDir`: the first corpus, then the families' batch. */
export const TEMPLATE_FOLDERS = ["", "families"];

/**
 * Every template file: `{ name, source }`, sorted by name; a file of the families' batch is named by its path
 * relative to `templatesDir` (`families/NAME.jinja`).
 */
export function loadTemplates() {
  return TEMPLATE_FOLDERS.flatMap((folder) =>
    readdirSync(join(templatesDir, folder))
      .filter((f) => f.endsWith(".jinja"))
      .sort()
      .map((file) => {
        const name = folder === "" ? file : `${folder}/${file}`;
        return { name, source: readFileSync(join(templatesDir, name), "utf8") };
      }),
  );
}

/** `{ tools, conversations: [{ id, args_json }] }`. */
export function loadConversations() {
  return JSON.parse(readFileSync(join(sharedDir, "parity/conversations.json"), "utf8"));
}

function toolNameFor(tools, argsJson) {
  let keys = [];
  try {
    keys = Object.keys(JSON.parse(argsJson));
  } catch {}
  const match = tools.find(
    (t) => keys.length > 0 && keys.every((k) => k in (t.function.parameters?.properties ?? {})),
  );
  return (
    match ??
    tools.find((t) => keys.some((k) => k in (t.function.parameters?.properties ?? {}))) ??
    tools[0]
  ).function.name;
}

/** Nine alphanumeric characters, as Mistral templates insist. */
export function callId(conversation, call) {
  return `tc${String(conversation).padStart(2, "0")}${call}abcd`.slice(0, 9);
}

/**
 * A real agent turn in wire form: system, user, assistant with the calls (`content` as given), one tool result
 * per call, a final answer, a user follow-up.
 */
export function buildMessages({ tools, argsJson, index, content, label }) {
  const calls = argsJson.map((args, i) => ({
    id: callId(index, i),
    type: "function",
    function: { name: toolNameFor(tools, args), arguments: args },
  }));
  return [
    { role: "system", content: "You are a helpful assistant." },
    { role: "user", content: `Please help with: ${label}` },
    { role: "assistant", content, tool_calls: calls },
    ...calls.map((c, i) => ({
      role: "tool",
      tool_call_id: c.id,
      content: `result ${i}: ok "${c.function.name}"`,
    })),
    { role: "assistant", content: "Done." },
    { role: "user", content: "Thanks!" },
  ];
}

/**
 * Cases: each template × each conversation × `content` null and "" on the calling turn. `formFor(template)`
 * gives the argument form ("mapping" | "string") our renderer will use; Python gets the same form, decoded by
 * its own json.loads.
 */
export function buildCases({ templates, conversations, formFor }) {
  const cases = [];
  for (const template of templates) {
    const form = formFor(template);
    conversations.conversations.forEach((conversation, index) => {
      for (const content of [null, ""]) {
        cases.push({
          template: template.name,
          source: template.source,
          id: `${conversation.id}/${content === null ? "null" : "empty"}-content`,
          form,
          tools: conversations.tools,
          messages: buildMessages({
            tools: conversations.tools,
            argsJson: conversation.args_json,
            index,
            content,
            label: conversation.id,
          }),
        });
      }
    });
  }
  return cases;
}

const HOLE = "\u0000ARGS\u0000";

/** The JSON text hf_render.py reads: arguments spliced in as raw JSON text (mapping) or a JSON string (string). */
function pythonCaseText(c) {
  const raw = [];
  const messages = c.messages.map((m) =>
    m.tool_calls
      ? {
          ...m,
          tool_calls: m.tool_calls.map((call) => {
            raw.push(call.function.arguments);
            return { ...call, function: { ...call.function, arguments: HOLE } };
          }),
        }
      : m,
  );
  let i = 0;
  const text = JSON.stringify({
    template: c.source,
    messages,
    tools: c.tools ?? null,
    add_generation_prompt: c.addGenerationPrompt ?? true,
    kwargs: { ...KWARGS, ...(c.variables ?? {}) },
  });
  return text.replace(new RegExp(JSON.stringify(HOLE).replace(/\\/g, "\\\\"), "g"), () => {
    const args = raw[i++];
    return c.form === "string" ? JSON.stringify(args) : args;
  });
}

// hf_render.py's own main(), with its compile_template memoized: a template's text compiles to the same Template
// every time, and Jinja2 templates are reusable, so a batch pays each compilation once.
const MEMOIZED_MAIN = [
  "import functools, runpy, sys",
  "module = runpy.run_path(sys.argv[1], run_name='hf_render')",
  "render = module['render']",
  "render.__globals__['compile_template'] = functools.lru_cache(maxsize=None)(module['compile_template'])",
  "module['main']()",
].join("\n");

/** hf_render.py's batch input for the cases, as JSON text. */
export function pythonBatchText(cases) {
  return `[${cases.map(pythonCaseText).join(",")}]`;
}

/** Renders every case with Python (hf_render.py, one process per batch): `[{ ok } | { error }]`. */
export function renderPython(cases) {
  return renderPythonText(pythonBatchText(cases));
}

/** Renders hf_render.py's input, given as JSON text (a list of cases), in one process. */
export function renderPythonText(input) {
  const result = spawnSync("python3", ["-c", MEMOIZED_MAIN, hfRender], {
    input,
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  if (result.status !== 0) throw new Error(`hf_render.py failed: ${result.stderr}`);
  return JSON.parse(result.stdout);
}

/** `{ ok: text }` or `{ error: "Type: message" }` from our renderer. */
export function renderOurs(jinja, c) {
  const result = jinja.safeRenderChatTemplate({
    template: c.source,
    messages: c.messages,
    tools: c.tools,
    addGenerationPrompt: c.addGenerationPrompt ?? true,
    variables: { ...KWARGS, ...(c.variables ?? {}) },
    now: PARITY_NOW,
    argumentsForm: c.form,
  });
  return result.ok ? { ok: result.text } : { error: result.error.pythonText };
}

/** True when both rendered the same text, or both raised the same error. */
export function sameOutcome(expected, actual) {
  if ("ok" in expected) return "ok" in actual && actual.ok === expected.ok;
  return "error" in actual && actual.error === expected.error;
}
