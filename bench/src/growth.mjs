/**
 * Section 10: wall-clock growth of every repair and parser on hostile input, 64 KiB to 1 MiB, side by side with
 * JSON.parse on valid JSON of the same size (the floor). Tests count work instead (no clock); this is where the
 * time is. Target: every exponent (time ~ size^k, fitted over the three sizes) at most 1.2.
 */

import v8 from "node:v8";
import vm from "node:vm";
import { coreRepairs, createJsonrepairRepair, decodeArguments, sanitizeHistory } from "@toolcall/core";
import {
  numbersRoundTrip,
  StreamDecider,
  schemaTypedArguments,
  splitMergedArguments,
} from "@toolcall/core/kit";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import { syntaxById } from "@toolcall/model-formats";
import { createSseRepair } from "@toolcall/openai/exchange";
import { jsonrepair } from "jsonrepair";
import { median, sink } from "./measure.mjs";

export const GROWTH_SIZES = [64 * 1024, 256 * 1024, 1024 * 1024];
export const TARGET_EXPONENT = 1.2;

const Q = '<|"|>';
const repeat = (unit, n) => unit.repeat(Math.max(1, Math.ceil(n / unit.length)));

/** Text the JSON repairs see: unclosed strings, runs of quotes and brackets, tokens, the issue's cases. */
const REPAIR_TEXTS = {
  "quotes after a key (the issue's 96 KiB case)": (n) => `{"a":${repeat('"', n)}`,
  "quotes and letters": (n) => `[${repeat('"a', n)}`,
  "open brackets": (n) => repeat("{[", n),
  "fence lookalikes": (n) => `\`\`\`json\n${repeat("`", n)}`,
  "suffix tokens that strip": (n) => `{"a":1}${repeat("</s> ", n)}`,
  commas: (n) => `{"a":[${repeat(",", n)}`,
  "control characters": (n) => `{"a":"${repeat("\u0001", n)}"}`,
  "python values": (n) => `{'a': [${repeat("1,", n)}]}`,
  "repeated objects": (n) => `${repeat('{"a":1}', n)}{`,
  "quote markers after a bracket (the issue's 1 MB case)": (n) => `[${repeat(Q, n)}`,
  "leaked markers": (n) => `{"a": "${repeat('<|\\"|"x<|\\"', n)}`,
  "empty objects": (n) => `${repeat("{}", n)}{`,
  "stray closers": (n) => `{}{"a":1}${repeat("]", n)}x`,
  "bare tokens": (n) => `{"a":[${repeat("both,", n)}1`,
  "literal escapes": (n) => `{"a": ${repeat("\\n", n)}1`,
  "value closers then key openers": (n) => `{"a": "${repeat("</arg_value> <arg_key>", n)}`,
  "parameters that never close": (n) => `<parameter=a>${repeat("<parameter=b>", n)}`,
  "merged objects": (n) => repeat('{"a":1}{"b":2}', n),
};

/** The families a target meets: the ones that stress what it does (the tests count every family on every target). */
const pick = (...names) => Object.fromEntries(names.map((name) => [name, REPAIR_TEXTS[name]]));

function openers(n) {
  const units = ["<|tool_call>", "call:f{", "<tool_call>"];
  let text = "";
  for (let i = 0; text.length < n; i++) text += units[i % units.length];
  return text;
}

const GEMMA_TEXTS = {
  "openers and half-calls (the issue's case)": openers,
  "interior quote tokens": (n) => `<|tool_call>call:f{a:${Q}${repeat(`${Q},`, n)}`,
  "calls whose strings never close": (n) => repeat(`<|tool_call>call:f{a:${Q}x<tool_call|>`, n),
};

const QWEN_TEXTS = {
  "openers and half-calls (the issue's case)": openers,
  "unclosed parameters on lines (the issue's case)": (n) =>
    `<tool_call><function=f>${repeat("\n<parameter=a>x", n)}`,
  "parameter closers inside a value": (n) =>
    `<tool_call><function=f><parameter=b>${repeat("</parameter>x", n)}`,
};

const NUMBER_TEXTS = {
  "open brackets and minus signs": (n) => repeat("[-", n),
  "many numbers": (n) => `[${repeat("1,", n)}1]`,
};

const tools = [
  {
    type: "function",
    function: { name: "f", parameters: { type: "object", properties: { a: { type: "integer" } } } },
  },
];

const GEMMA4 = syntaxById("gemma4");
const QWEN3_CODER = syntaxById("qwen3-coder");

function feed(syntax, text, size, options) {
  const stream = syntax.createStream(options);
  for (let i = 0; i < text.length; i += size) sink.value = stream.push(text.slice(i, i + size));
  sink.value = stream.end();
}

/** A history of about `n` characters whose every call has arguments broken the issue's way (a key, then quotes). */
function brokenHistory(n) {
  const messages = [];
  const calls = Math.max(1, Math.floor(n / 256));
  for (let i = 0; i < calls; i++) {
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: [
        { id: `c${i}`, type: "function", function: { name: "f", arguments: `{"a":${'"'.repeat(200)}` } },
      ],
    });
    messages.push({ role: "tool", tool_call_id: `c${i}`, content: "ok" });
  }
  return messages;
}

/** A history of about `n` characters whose every turn reuses the call id `call_0` (the quadratic renamer's case). */
function reusedIdHistory(n) {
  const messages = [];
  const turns = Math.max(1, Math.floor(n / 256));
  for (let i = 0; i < turns; i++) {
    messages.push({
      role: "assistant",
      content: null,
      tool_calls: [{ id: "call_0", type: "function", function: { name: "f", arguments: '{"a":1}' } }],
    });
    messages.push({ role: "tool", tool_call_id: "call_0", content: "ok" });
  }
  return messages;
}

/**
 * The pieces of about `n` characters of calls, one piece per call (about 64 characters each): the number of calls
 * grows with the size. `first` is the first call's text: one that is held holds every later call back to the finish.
 */
function manyCalls(n, first) {
  const deltas = [];
  const count = Math.max(2, Math.floor(n / 64));
  for (let i = 0; i < count; i++)
    deltas.push({ index: i, id: `call_${i}`, name: "f", arguments: i === 0 ? first : `{"a": ${i}}` });
  return deltas;
}

/** The same calls as a Chat Completions SSE body, one event per call, cut in 64 KiB pieces as a socket gives them. */
function manyCallsSse(deltas) {
  const events = deltas.map(
    (delta) =>
      `data: {"id":"c","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":${delta.index},"id":"${delta.id}","type":"function","function":{"name":"f","arguments":${JSON.stringify(delta.arguments)}}}]},"finish_reason":null}]}\n\n`,
  );
  events.push(
    'data: {"id":"c","object":"chat.completion.chunk","created":0,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}\n\ndata: [DONE]\n\n',
  );
  const bytes = new TextEncoder().encode(events.join(""));
  const pieces = [];
  for (let i = 0; i < bytes.length; i += 65_536) pieces.push(bytes.subarray(i, i + 65_536));
  return pieces;
}

const CALL_TEXTS = {
  "calls held behind a Python dict (the issue's 130 000 calls)": (n) => manyCalls(n, "{'a': 0}"),
  "clean calls, one after another": (n) => manyCalls(n, '{"a": 0}'),
};

function decideAll(deltas) {
  const decider = new StreamDecider({ repairs: coreRepairs });
  for (const delta of deltas) sink.value = decider.push(delta);
  sink.value = decider.finish("tool_calls");
}

function repairSse(pieces) {
  const repair = createSseRepair({ api: "chat.completions", options: { repairs: coreRepairs } });
  for (const piece of pieces) sink.value = repair.push(piece);
  sink.value = repair.end();
}

const jsonrepairRule = createJsonrepairRepair(jsonrepair);

/** A schema whose list items hold an integer: every item's number sent as text is converted. */
const ITEMS_SCHEMA = {
  type: "object",
  properties: { items: { type: "array", items: { type: "object", properties: { n: { type: "integer" } } } } },
};
const everyRepair = [gemmaQuoteMarkers, ...coreRepairs, jsonrepairRule];

/** The families each core rule is measured on. */
const RULE_FAMILIES = {
  "markdown-fence": pick("fence lookalikes", "quotes after a key (the issue's 96 KiB case)"),
  "template-suffix": pick("suffix tokens that strip", "quotes after a key (the issue's 96 KiB case)"),
  "python-literal": pick("python values", "quotes and letters"),
  "control-characters": pick("control characters", "quotes after a key (the issue's 96 KiB case)"),
  "trailing-commas": pick("commas", "open brackets"),
  "repeated-object": pick("repeated objects", "open brackets"),
  "stray-text": pick("empty objects", "stray closers"),
  "unquoted-values": pick("bare tokens", "open brackets"),
  "literal-escapes": pick("literal escapes", "quotes after a key (the issue's 96 KiB case)"),
  "family-markup": pick("value closers then key openers", "parameters that never close"),
};

/** What is measured: a name, the families of input it meets, and one run on one input. */
export const GROWTH_TARGETS = [
  ...coreRepairs.map((rule) => ({
    name: `${rule.id} (core rule)`,
    texts: RULE_FAMILIES[rule.id] ?? pick("open brackets"),
    run: (t) => rule.repair(t),
  })),
  {
    name: "gemma-quote-markers",
    texts: pick("leaked markers", "quote markers after a bracket (the issue's 1 MB case)"),
    run: (t) => gemmaQuoteMarkers.repair(t),
  },
  {
    name: "jsonrepair rule (its 16 KiB bound)",
    texts: pick("quotes after a key (the issue's 96 KiB case)"),
    run: (t) => jsonrepairRule.repair(t),
  },
  {
    name: "decodeArguments, every repair",
    texts: pick(
      "quotes after a key (the issue's 96 KiB case)",
      "quote markers after a bracket (the issue's 1 MB case)",
      "leaked markers",
      "python values",
    ),
    run: (t) => decodeArguments(t, { repairs: everyRepair }),
  },
  {
    name: "sanitizeHistory, every repair",
    texts: { "calls with broken arguments": (n) => n },
    make: brokenHistory,
    run: (history) => sanitizeHistory(history, { repairs: everyRepair }),
  },
  {
    name: "splitMergedArguments",
    texts: pick("merged objects", "empty objects", "open brackets"),
    run: (t) => splitMergedArguments(t),
  },
  {
    name: "schemaTypedArguments",
    texts: { "numbers as text in a list": (n) => n },
    make: (n) => ({
      items: Array.from({ length: Math.max(1, Math.floor(n / 8)) }, (_, i) => ({ n: String(i) })),
    }),
    run: (args) => schemaTypedArguments(args, ITEMS_SCHEMA),
  },
  {
    name: "sanitizeHistory, call_0 reused in every turn",
    texts: { "turns reusing one id": (n) => n },
    make: reusedIdHistory,
    run: (history) => sanitizeHistory(history),
  },
  { name: "numbersRoundTrip", texts: NUMBER_TEXTS, run: (t) => numbersRoundTrip(t) },
  { name: "StreamDecider, number of calls", texts: CALL_TEXTS, make: (deltas) => deltas, run: decideAll },
  {
    name: "openai SSE stream repair, number of calls",
    texts: CALL_TEXTS,
    make: manyCallsSse,
    run: repairSse,
  },
  { name: "gemma4.parse", texts: GEMMA_TEXTS, run: (t) => GEMMA4.parse(t) },
  {
    name: "gemma4 stream, 64-char deltas",
    texts: GEMMA_TEXTS,
    run: (t) => feed(GEMMA4, t, 64),
  },
  { name: "qwen3Coder.parse", texts: QWEN_TEXTS, run: (t) => QWEN3_CODER.parse(t, { tools }) },
  {
    name: "qwen3Coder stream, 64-char deltas",
    texts: QWEN_TEXTS,
    run: (t) => feed(QWEN3_CODER, t, 64, { tools }),
  },
  // Markers that share no prefix, on text full of one and free of another (the hostile-input issue's whole-text cases).
  ...["glm45", "glm47"].map((id) => ({
    name: `${id}.parse`,
    texts: { "<tool_call> repeated": (n) => repeat("<tool_call>", n) },
    run: (t) => syntaxById(id).parse(t),
  })),
  {
    name: "phi4-mini.parse",
    texts: {
      "an open call, then letters": (n) => `functools[{"name": "get_weather", "arguments":${repeat("f", n)}`,
    },
    run: (t) => syntaxById("phi4-mini").parse(t),
  },
];

/** Valid JSON of about `n` characters, shaped like tool-call arguments: the floor JSON.parse reads. */
export function floorText(n) {
  const item = '{"id":12345,"name":"a file name.txt","tags":["x","y"],"size":1.5,"ok":true}';
  return `{"items":[${repeat(`${item},`, n - 20)}${item}]}`;
}

function fastest(run, input, rounds) {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    sink.value = run(input);
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/**
 * A full garbage collection, run before each timed pass. `gc` is exposed here rather than by a flag on the command
 * line, so `pnpm bench` runs as it is.
 */
v8.setFlagsFromString("--expose-gc");
const collect = vm.runInNewContext("gc");

/** One timed pass, after a full collection: wall-clock and CPU milliseconds (this process's user and system time). */
function timed(pass) {
  collect();
  const cpu = process.cpuUsage();
  const start = performance.now();
  pass();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

/** The exponent k in time ~ size^k, least squares in log-log space. */
export function exponentOf(sizes, times) {
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

/** Warm-up passes at every size before any is timed: the code reaches its optimized tier on every input shape. */
export const WARMUP_PASSES = 3;

/**
 * Measures every target on every family at every size, beside the floor at the same size. After the warm-up, each
 * round times every size once (sizes interleaved, so a change in the machine's state weighs on all of them alike);
 * each timed pass starts after a full garbage collection, so it pays for its own garbage and not for the previous
 * pass's. The ratio to the floor is taken per round and its median kept. Returns one result per target: its worst
 * family (highest exponent over the floor's), that family's times, ratios to the floor and raw exponent, and the
 * floor's own exponent.
 */
export function measureGrowth({ rounds, progress }) {
  const floorInputs = GROWTH_SIZES.map(floorText);
  const parse = (text) => JSON.parse(text);
  for (const input of floorInputs) fastest(parse, input, WARMUP_PASSES);
  const floorTimes = floorInputs.map((input) => fastest(parse, input, rounds));
  const floorExponent = exponentOf(GROWTH_SIZES, floorTimes);
  const largest = GROWTH_SIZES[GROWTH_SIZES.length - 1];
  const results = [];
  for (const target of GROWTH_TARGETS) {
    let worst;
    for (const [family, make] of Object.entries(target.texts)) {
      const inputs = GROWTH_SIZES.map((n) => (target.make ? target.make(make(n)) : make(n)));
      // Each measurement covers the same number of bytes at every size (the input repeated up to the largest
      // size), so garbage collection and caches weigh alike on every size, and the smallest runs are not lost in
      // the timer's grain.
      const passes = GROWTH_SIZES.map((n, s) => {
        const reps = Math.max(1, Math.round(largest / n));
        return {
          reps,
          floor: () => {
            for (let r = 0; r < reps; r++) sink.value = parse(floorInputs[s]);
          },
          task: () => {
            for (let r = 0; r < reps; r++) sink.value = target.run(inputs[s]);
          },
        };
      });
      for (let w = 0; w < WARMUP_PASSES; w++)
        for (const pass of passes) {
          pass.task();
          pass.floor();
        }
      const best = GROWTH_SIZES.map(() => Number.POSITIVE_INFINITY);
      const wall = GROWTH_SIZES.map(() => []);
      const cpu = GROWTH_SIZES.map(() => []);
      for (let round = 0; round < rounds; round++) {
        passes.forEach((pass, s) => {
          // The floor and the task one after the other, the order alternating; the ratio per round.
          const floorFirst = (round + s) % 2 === 0;
          const first = timed(floorFirst ? pass.floor : pass.task);
          const second = timed(floorFirst ? pass.task : pass.floor);
          const [floor, task] = floorFirst ? [first, second] : [second, first];
          best[s] = Math.min(best[s], task.wall / pass.reps);
          wall[s].push(task.wall / floor.wall);
          cpu[s].push(task.cpu / Math.max(floor.cpu, 1e-3));
        });
      }
      const times = best;
      const ratios = wall.map(median);
      const cpuRatios = cpu.map(median);
      // Growth beyond the floor's: the exponent of the ratio, plus one. The floor itself grows faster than linear
      // over 64 KiB to 1 MiB (caches), and that is the machine's, not the code's.
      // Judged on CPU time: on a loaded machine wall-clock also counts the time slices of other processes.
      const exponent = exponentOf(GROWTH_SIZES, cpuRatios) + 1;
      const wallExponent = exponentOf(GROWTH_SIZES, ratios) + 1;
      if (worst === undefined || exponent > worst.exponent)
        worst = {
          family,
          exponent,
          wallExponent,
          rawExponent: exponentOf(GROWTH_SIZES, times),
          times,
          ratios,
        };
    }
    progress(`growth ${target.name}: worst ${worst.family}, exponent ${worst.exponent.toFixed(2)}`);
    results.push({ name: target.name, ...worst, families: Object.keys(target.texts).length });
  }
  return { results, floorTimes, floorExponent };
}
