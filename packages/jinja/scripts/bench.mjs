// Render speed, side by side: @toolcall/jinja against @huggingface/jinja (same process, same cases, the cases it
// renders without error) and against Python + Jinja2 as transformers sets it up (timed inside Python, templates
// compiled beforehand, start-up excluded). Cases: every template × every public conversation.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { Template as HfTemplate } from "@huggingface/jinja";
import { prepareForTemplate } from "@toolcall/core";
import {
  buildCases,
  hfRender,
  KWARGS,
  loadConversations,
  loadTemplates,
  PARITY_NOW,
  pythonBatchText,
} from "./parity-cases.mjs";

const packageDir = join(import.meta.dirname, "..");
const jinja = await import(join(packageDir, "dist/index.js"));
const MIN_MS = Number(process.env.BENCH_MS ?? 1500);

const cases = buildCases({
  templates: loadTemplates(),
  conversations: loadConversations(),
  formFor: (t) => jinja.probeChatTemplate(t.source).argumentsForm,
});

/** CPU time of this process in milliseconds: other processes on a shared machine do not count against it. */
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/**
 * Mean CPU time per render in microseconds: all cases, repeated until MIN_MS of CPU time has passed (after a
 * warm-up round). Python is measured the same way (`time.process_time`).
 */
function measure(render, subset, minMs = MIN_MS) {
  for (const c of subset) render(c);
  let rounds = 0;
  const started = cpuMs();
  let elapsed = 0;
  do {
    for (const c of subset) render(c);
    rounds++;
    elapsed = cpuMs() - started;
  } while (elapsed < minMs);
  return (elapsed * 1000) / (rounds * subset.length);
}

const ok = (fn) => {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
};

// Inputs prepared once, outside the timings.
const hfTemplates = new Map();
const ourTemplates = new Map();
for (const c of cases) {
  if (!hfTemplates.has(c.source)) {
    try {
      hfTemplates.set(c.source, new HfTemplate(c.source));
    } catch {
      hfTemplates.set(c.source, null);
    }
    ourTemplates.set(c.source, jinja.compileTemplate(c.source));
  }
  c.jsonParsed = c.messages.map((m) =>
    m.tool_calls
      ? {
          ...m,
          tool_calls: m.tool_calls.map((call) => ({
            ...call,
            function: {
              ...call.function,
              arguments: c.form === "mapping" ? JSON.parse(call.function.arguments) : call.function.arguments,
            },
          })),
        }
      : m,
  );
  c.prepared = prepareForTemplate(c.messages, { argumentsForm: c.form, lossless: true });
}
const variables = (c, messages) => ({
  messages,
  tools: c.tools,
  documents: null,
  add_generation_prompt: true,
  ...KWARGS,
});
const renderHf = (c) => hfTemplates.get(c.source).render(variables(c, c.jsonParsed));
const renderEngine = (c) => ourTemplates.get(c.source).render(variables(c, c.prepared), { now: PARITY_NOW });
const renderFull = (c) =>
  jinja.renderChatTemplate({
    template: c.source,
    messages: c.messages,
    tools: c.tools,
    addGenerationPrompt: true,
    variables: KWARGS,
    now: PARITY_NOW,
  });

// A conversation per case, made once (as a template is compiled once): its messages are converted at the first
// render (the warm-up round) and reused, as a chat server renders the same conversation turn after turn.
const conversations = new Map();
const renderConversation = (c) => {
  let conversation = conversations.get(c);
  if (conversation === undefined) {
    conversation = jinja.createChatConversation({ template: c.source, tools: c.tools, variables: KWARGS });
    conversations.set(c, conversation);
  }
  return conversation.render({ messages: c.messages, addGenerationPrompt: true, now: PARITY_NOW });
};

const oursOk = cases.filter((c) => ok(() => renderFull(c)));
const hfOk = oursOk.filter((c) => hfTemplates.get(c.source) !== null && ok(() => renderHf(c)));

// Python: the same cases, compiled first; only the renders are timed, inside Python.
const PYTHON = `
import json, runpy, sys, time
module = runpy.run_path(sys.argv[1], run_name="hf_render")
cases = json.load(sys.stdin)
min_s = float(sys.argv[2])
compiled = {}
for case in cases:
    if case["template"] not in compiled:
        compiled[case["template"]] = module["compile_template"](case["template"])
def render(case):
    return compiled[case["template"]].render(messages=case["messages"], tools=case.get("tools"), documents=None,
        add_generation_prompt=case.get("add_generation_prompt", False), **case.get("kwargs", {}))
for case in cases:
    render(case)
rounds = 0
start = time.process_time()
while True:
    for case in cases:
        render(case)
    rounds += 1
    elapsed = time.process_time() - start
    if elapsed >= min_s:
        break
print(json.dumps({"us_per_render": elapsed * 1e6 / (rounds * len(cases)), "renders": rounds * len(cases)}))
`;
function measurePython(subset, minMs = MIN_MS) {
  const result = spawnSync("python3", ["-c", PYTHON, hfRender, String(minMs / 1000)], {
    input: pythonBatchText(subset),
    encoding: "utf8",
    maxBuffer: 1 << 30,
  });
  if (result.status !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout).us_per_render;
}

const rows = [];
let fullPath;
/** The target of the full path (wire messages in, a conversation converted once): ≥ 5× Python Jinja2's speed. */
const FULL_PATH_TARGET = 5;
const fmt = (us) => `${us.toFixed(1)} µs`;
{
  const ours = measure(renderEngine, hfOk);
  const oursFull = measure(renderFull, hfOk);
  const hf = measure(renderHf, hfOk);
  rows.push([
    `vs @huggingface/jinja 0.5.11 (${hfOk.length} cases it renders)`,
    fmt(ours),
    fmt(oursFull),
    fmt(hf),
    `${(hf / ours).toFixed(2)}× / ${(hf / oursFull).toFixed(2)}×`,
  ]);
}
{
  const ours = measure(renderEngine, oursOk);
  const oursFull = measure(renderFull, oursOk);
  const oursConversation = measure(renderConversation, oursOk);
  const python = measurePython(oursOk);
  rows.push([
    `vs Python Jinja2 3.1.6 (${oursOk.length} cases that render)`,
    fmt(ours),
    fmt(oursFull),
    fmt(python),
    `${(python / ours).toFixed(2)}× / ${(python / oursFull).toFixed(2)}×`,
  ]);
  fullPath = { python, conversation: oursConversation, perRender: oursFull };
}
// Per template: the three templates the speed targets name (≥ 3× Python Jinja2, ≥ 6× @huggingface/jinja per
// render), each over its cases that all three render. Ours and @huggingface/jinja alternate in rounds (ABAB…) in
// this process; Python is timed in its own process over the same cases.
const PER_TEMPLATE = [
  "Qwen-Qwen3-8B.jinja",
  "meta-llama-Llama-3.1-8B-Instruct.jinja",
  "openai-gpt-oss-120b.jinja",
];
const perTemplateRows = [];
for (const name of PER_TEMPLATE) {
  const subset = hfOk.filter((c) => c.template === name);
  if (subset.length === 0) continue;
  const rounds = 5;
  let ours = 0;
  let hf = 0;
  for (let r = 0; r < rounds; r++) {
    if (r % 2 === 0) {
      ours += measure(renderEngine, subset, MIN_MS / rounds);
      hf += measure(renderHf, subset, MIN_MS / rounds);
    } else {
      hf += measure(renderHf, subset, MIN_MS / rounds);
      ours += measure(renderEngine, subset, MIN_MS / rounds);
    }
  }
  ours /= rounds;
  hf /= rounds;
  const python = measurePython(subset);
  perTemplateRows.push([
    `${name.replace(/\.jinja$/, "")} (${subset.length} cases)`,
    fmt(ours),
    fmt(hf),
    fmt(python),
    `${(hf / ours).toFixed(2)}×${hf / ours >= 6 ? "" : " MISS"}`,
    `${(python / ours).toFixed(2)}×${python / ours >= 3 ? "" : " MISS"}`,
  ]);
}

console.log(
  "| comparison | @toolcall/jinja, engine (compiled, arguments decoded) | @toolcall/jinja, renderChatTemplate (from wire messages) | other | speed-up (engine / full) |",
);
console.log("|---|---:|---:|---:|---:|");
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
{
  const speed = fullPath.python / fullPath.conversation;
  console.log(
    `\n| render, full path (wire messages in) | µs per render | speed vs Python Jinja2 | target |\n|---|---:|---:|---:|`,
  );
  console.log(
    `| createChatConversation, messages converted once per conversation | ${fmt(fullPath.conversation)} | ${speed.toFixed(2)}× | ≥ ${FULL_PATH_TARGET}×${speed >= FULL_PATH_TARGET ? "" : " MISS"} |`,
  );
  console.log(
    `| renderChatTemplate, every message converted at every render | ${fmt(fullPath.perRender)} | ${(fullPath.python / fullPath.perRender).toFixed(2)}× | (informative) |`,
  );
}
console.log(
  `\nMean CPU time per render (process CPU time, so other load on the machine counts less); each side repeated for at least ${MIN_MS} ms of CPU after a warm-up round. Node ${process.version}.`,
);
console.log(
  "\n| template | @toolcall/jinja, engine | @huggingface/jinja 0.5.11 | Python Jinja2 3.1.6 | vs @huggingface/jinja (target ≥ 6×) | vs Python (target ≥ 3×) |",
);
console.log("|---|---:|---:|---:|---:|---:|");
for (const row of perTemplateRows) console.log(`| ${row.join(" | ")} |`);

const { printGrowth } = await import("./bench-growth.mjs");
printGrowth();
