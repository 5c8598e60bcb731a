/**
 * A clean chat history of exactly `size` messages, as an agent accumulates it: a system prompt, then turns of
 * user → assistant with 1–3 tool calls → one tool result per call → assistant answer. Every call has valid compact
 * JSON object text as arguments and exactly one result, so `sanitizeHistory` has nothing to change.
 */
import { KINDS } from "./corpus.mjs";
import { createRng } from "./prng.mjs";

/**
 * Tools and the size of the arguments they take, in bytes (target; the text lands near it). The mix is weighted
 * toward small calls, as agent traces are: about half the calls are under 200 B, a few are file edits of 1–6 KB
 * and fewer still are 10 KB batch inserts.
 */
const TOOLS = [
  { name: "get_weather", kind: "weather", weight: 25, size: [60, 150] },
  { name: "web_search", kind: "search", weight: 25, size: [60, 200] },
  { name: "set_config", kind: "config", weight: 15, size: [200, 1500] },
  { name: "edit_file", kind: "fileEdit", weight: 15, size: [300, 6000] },
  { name: "plot_series", kind: "numbers", weight: 10, size: [200, 3000] },
  { name: "insert_rows", kind: "records", weight: 10, size: [150, 10000] },
];
const TOTAL_WEIGHT = TOOLS.reduce((sum, tool) => sum + tool.weight, 0);
const ID_CHARS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function pickTool(rng) {
  let r = rng.next() * TOTAL_WEIGHT;
  for (const tool of TOOLS) {
    r -= tool.weight;
    if (r < 0) return tool;
  }
  return TOOLS[TOOLS.length - 1];
}

function text(rng, min, max) {
  const sentences = [
    "Here is what I found.",
    "The forecast shows light rain in the afternoon — bring an umbrella ☔.",
    "I updated the file and the tests pass.",
    "Les résultats sont prêts.",
    'The query returned 42 rows; the first is "Ada".',
    "検索結果は以下の通りです。",
    "Done. Let me know if you want the chart as SVG instead.",
  ];
  const target = rng.int(min, max);
  let out = "";
  while (out.length < target) out += `${rng.pick(sentences)} `;
  return out.trimEnd();
}

function turn(rng, nextId) {
  const messages = [{ role: "user", content: text(rng, 20, 300) }];
  const calls = [];
  const n = rng.int(1, 3);
  for (let i = 0; i < n; i++) {
    const tool = pickTool(rng);
    const args = JSON.stringify(KINDS[tool.kind](rng, rng.int(tool.size[0], tool.size[1])));
    calls.push({ id: nextId(), type: "function", function: { name: tool.name, arguments: args } });
  }
  messages.push({
    role: "assistant",
    content: rng.chance(0.3) ? text(rng, 10, 80) : null,
    tool_calls: calls,
  });
  for (const call of calls) {
    messages.push({ role: "tool", tool_call_id: call.id, content: text(rng, 30, 2000) });
  }
  messages.push({ role: "assistant", content: text(rng, 40, 800) });
  return messages;
}

/** A clean history of exactly `size` messages. */
export function cleanHistory(size, seed) {
  const rng = createRng(seed);
  const used = new Set();
  const nextId = () => {
    for (;;) {
      let id = "call_";
      for (let i = 0; i < 24; i++) id += ID_CHARS[rng.int(0, ID_CHARS.length - 1)];
      if (!used.has(id)) {
        used.add(id);
        return id;
      }
    }
  };
  const messages = [{ role: "system", content: "You are a helpful agent. Use the tools when they help." }];
  for (;;) {
    const next = turn(rng, nextId);
    if (messages.length + next.length > size) break;
    messages.push(...next);
  }
  // Fill the last few slots with plain exchanges (and a pending user question if one slot is left).
  while (messages.length < size) {
    messages.push({ role: "user", content: text(rng, 20, 200) });
    if (messages.length < size) messages.push({ role: "assistant", content: text(rng, 40, 400) });
  }
  return messages;
}

/** The tool-call argument texts of a history, in order. */
export function argumentTexts(messages) {
  const out = [];
  for (const message of messages) {
    if (Array.isArray(message.tool_calls))
      for (const call of message.tool_calls) out.push(call.function.arguments);
  }
  return out;
}
