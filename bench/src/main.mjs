/**
 * `pnpm bench`: @toolcall/core against its floor, side by side in one process, printed as one markdown table.
 * Speed targets live here (as ratios), never in tests. See ../README.md for what each row means.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { isDeepStrictEqual } from "node:util";
import { coreRepairs, createJsonrepairRepair, decodeArguments, sanitizeHistory } from "@toolcall/core";
import { gemmaQuoteMarkers, parseGemmaToolCalls } from "@toolcall/gemma-recovery";
import { SYNTAXES } from "@toolcall/model-formats";
import { jsonrepair } from "jsonrepair";
import { measureAiSdkStream } from "./ai-sdk-stream.mjs";
import { BUCKETS, bucketCorpus } from "./corpus.mjs";
import { measureFetchStream } from "./fetch-stream.mjs";
import { measureStreamedFormats } from "./formats.mjs";
import { GROWTH_SIZES, TARGET_EXPONENT } from "./growth.mjs";
import { argumentTexts, cleanHistory } from "./history.mjs";
import { calibrateReps, interleaved, sink, summarise } from "./measure.mjs";
import { measureStream } from "./stream.mjs";
import { formatBytes, formatMBps, formatOps, markdownTable, ratio, spread } from "./table.mjs";
import {
  bareJsonrepair,
  describeBare,
  describeDecode,
  expectationFor,
  judgeBare,
  judgeDecode,
  loadPayloads,
  PAYLOADS_PATH,
} from "./wild.mjs";

/** Targets (from the issue). Ratios only: absolute speeds depend on the machine. */
const TARGET_DECODE_SPEED = 0.97; // decodeArguments ops/s ÷ JSON.parse ops/s, valid object text, every bucket
const TARGET_SANITIZE_TIME = 1.1; // sanitizeHistory time ÷ time to JSON.parse every argument once
const TARGET_STREAM_OVERHEAD = 0.05;
/** Section 9: the guarded fetch keeps at least this share of the bare fetch's throughput on a clean stream. */
const TARGET_FETCH_SPEED = 0.95;
const TARGET_AI_SDK_OVERHEAD = 0.05; // wrapped model stream CPU ÷ unwrapped model stream CPU, minus one
const TARGET_GEMMA_OVERHEAD = 0.05; // decode with Gemma recovery on clean payloads ÷ plain decode, minus one // guarded stream CPU ÷ raw SDK stream CPU, minus one

const QUICK = process.env.BENCH_QUICK === "1";
/** `BENCH_ONLY=1,2,9`: only these sections (all by default), to measure one door again while working on it. */
const ONLY = new Set(
  (process.env.BENCH_ONLY ?? "")
    .split(",")
    .filter((n) => n !== "")
    .map(Number),
);
const runs = (section) => ONLY.size === 0 || ONLY.has(section);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 3 : 20));
const TIME = QUICK
  ? { decode: 20, sanitize: 40, repairs: 20, warmup: 100 }
  : { decode: 80, sanitize: 250, repairs: 80, warmup: 400 };

const here = dirname(fileURLToPath(import.meta.url));
const versionOf = (path) => JSON.parse(readFileSync(resolve(here, path), "utf8")).version;
const progress = (message) => process.stderr.write(`[bench] ${message}\n`);
const started = performance.now();

const rows = [];
const notes = [];
const LOSSLESS = { lossless: true };

// 1. decodeArguments vs JSON.parse, per size bucket.
for (const [b, bucket] of runs(1) ? BUCKETS.entries() : []) {
  const texts = bucketCorpus(bucket, 0x7001 + b);
  const n = texts.length;
  const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  let objects = 0;
  for (const text of texts) {
    const decoded = decodeArguments(text);
    if (decoded.status === "object" && isDeepStrictEqual(decoded.arguments, JSON.parse(text))) objects++;
  }
  const reps = calibrateReps(() => {
    for (let k = 0; k < n; k++) sink.value = JSON.parse(texts[k]);
  });
  progress(`decode ${bucket.label}: ${n} texts, ${bytes} B, ${reps} passes per call`);
  const tasks = [
    {
      name: "JSON.parse",
      fn: () => {
        for (let r = 0; r < reps; r++) for (let k = 0; k < n; k++) sink.value = JSON.parse(texts[k]);
      },
    },
    {
      name: "decodeArguments",
      fn: () => {
        for (let r = 0; r < reps; r++) for (let k = 0; k < n; k++) sink.value = decodeArguments(texts[k]);
      },
    },
    {
      name: "decodeArguments lossless",
      fn: () => {
        for (let r = 0; r < reps; r++)
          for (let k = 0; k < n; k++) sink.value = decodeArguments(texts[k], LOSSLESS);
      },
    },
  ];
  const latencies = interleaved(tasks, { rounds: ROUNDS, timeMs: TIME.decode, warmupMs: TIME.warmup });
  const per = { opsPerCall: n * reps, bytesPerCall: bytes * reps };
  const floor = summarise(latencies, 0, per);
  const decode = summarise(latencies, 1, per);
  const lossless = summarise(latencies, 2, per);
  const input = `${n} texts, avg ${formatBytes(bytes / n)}`;
  const section = `1 decode ${bucket.label}`;
  rows.push(
    [
      section,
      "JSON.parse (floor)",
      input,
      formatOps(floor.opsPerSecond),
      formatMBps(floor.bytesPerSecond),
      "1.00×",
      "",
      "floor",
      "",
    ],
    [
      section,
      "decodeArguments(text)",
      input,
      formatOps(decode.opsPerSecond),
      formatMBps(decode.bytesPerSecond),
      `${ratio(decode.ratio)} speed`,
      spread(decode.ratioLow, decode.ratioHigh),
      `≥ ${TARGET_DECODE_SPEED.toFixed(2)}× speed`,
      `${decode.ratio >= TARGET_DECODE_SPEED ? "ok" : "MISS"} (status object ${objects}/${n})`,
    ],
    [
      section,
      "decodeArguments(text, { lossless: true })",
      input,
      formatOps(lossless.opsPerSecond),
      formatMBps(lossless.bytesPerSecond),
      `${ratio(lossless.ratio)} speed`,
      spread(lossless.ratioLow, lossless.ratioHigh),
      "none (info)",
      "",
    ],
  );
}

// 2. sanitizeHistory on a clean 10 000-message history vs JSON.parse of every argument once.
if (runs(2)) {
  const history = cleanHistory(10_000, 0x5a17);
  const args = argumentTexts(history);
  const argBytes = args.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  const before = JSON.stringify(history);
  const check = sanitizeHistory(history);
  const sameArray = check.messages === history;
  const changes = check.changes.length;
  progress(`sanitize: ${history.length} messages, ${args.length} calls, ${argBytes} B of arguments`);
  const tasks = [
    {
      name: "JSON.parse every argument once",
      fn: () => {
        for (let i = 0; i < history.length; i++) {
          const calls = history[i].tool_calls;
          if (calls === undefined) continue;
          for (let j = 0; j < calls.length; j++) sink.value = JSON.parse(calls[j].function.arguments);
        }
      },
    },
    {
      name: "sanitizeHistory",
      fn: () => {
        sink.value = sanitizeHistory(history);
      },
    },
  ];
  const latencies = interleaved(tasks, {
    rounds: ROUNDS,
    timeMs: TIME.sanitize,
    warmupMs: TIME.warmup,
    minIterations: 3,
  });
  const unchanged = JSON.stringify(history) === before;
  const per = { opsPerCall: 1, bytesPerCall: argBytes, direction: "time" };
  const floor = summarise(latencies, 0, per);
  const sanitize = summarise(latencies, 1, per);
  const input = `${history.length.toLocaleString("en-US")} msgs, ${args.length.toLocaleString("en-US")} calls, ${formatBytes(argBytes)} args`;
  const verdict = sanitize.ratio <= TARGET_SANITIZE_TIME ? "ok" : "MISS";
  rows.push(
    [
      "2 sanitize",
      "JSON.parse every argument once (floor)",
      input,
      formatOps(floor.opsPerSecond),
      formatMBps(floor.bytesPerSecond),
      "1.00×",
      "",
      "floor",
      "",
    ],
    [
      "2 sanitize",
      "sanitizeHistory(history)",
      input,
      formatOps(sanitize.opsPerSecond),
      formatMBps(sanitize.bytesPerSecond),
      `${ratio(sanitize.ratio)} time`,
      spread(sanitize.ratioLow, sanitize.ratioHigh),
      `≤ ${TARGET_SANITIZE_TIME.toFixed(2)}× time`,
      `${verdict} (same array: ${sameArray ? "yes" : "NO"}, changes: ${changes}, input unchanged: ${unchanged ? "yes" : "NO"})`,
    ],
  );
}

// 3. Repairs on the wild payloads.
const payloads = runs(3) ? loadPayloads() : null;
if (payloads === undefined) {
  rows.push(["3 repairs", `skipped: ${PAYLOADS_PATH} not found`, "", "", "", "", "", "", ""]);
} else if (payloads !== null) {
  const CORE = { repairs: coreRepairs };
  const JSONREPAIR = { repairs: [createJsonrepairRepair(jsonrepair)] };
  const raws = payloads.map((p) => p.raw);
  const n = raws.length;
  const bytes = raws.reduce((sum, raw) => sum + Buffer.byteLength(raw), 0);
  const tools = [
    { label: "decodeArguments + coreRepairs", key: "core" },
    { label: "decodeArguments + jsonrepair repair", key: "jr" },
    { label: "bare jsonrepair(raw) + JSON.parse", key: "bare" },
  ];
  const right = { core: 0, jr: 0, bare: 0 };
  const wrong = { core: [], jr: [], bare: [] };
  let unjudged = 0;
  for (const payload of payloads) {
    const expected = expectationFor(payload);
    if (expected === undefined) {
      unjudged++;
      notes.push(
        `no expectation written for payload ${payload.source} (${payload.category}); counted as not right`,
      );
      continue;
    }
    const name = `${payload.category} (${payload.source}; expected ${expected.expect.noCall ? `no call, status ${expected.expect.statuses.join("/")}` : JSON.stringify(expected.expect.object)})`;
    const core = decodeArguments(payload.raw, CORE);
    const jr = decodeArguments(payload.raw, JSONREPAIR);
    const bare = bareJsonrepair(jsonrepair, payload.raw);
    if (judgeDecode(payload, core, expected.expect)) right.core++;
    else wrong.core.push(`${name}: ${describeDecode(core)}`);
    if (judgeDecode(payload, jr, expected.expect)) right.jr++;
    else wrong.jr.push(`${name}: ${describeDecode(jr)}`);
    if (judgeBare(bare, expected.expect)) right.bare++;
    else wrong.bare.push(`${name}: ${describeBare(bare)}`);
  }
  const reps = calibrateReps(() => {
    for (let k = 0; k < n; k++) sink.value = decodeArguments(raws[k], CORE);
  });
  progress(`repairs: ${n} payloads, ${reps} passes per call`);
  const tasks = [
    {
      name: "core",
      fn: () => {
        for (let r = 0; r < reps; r++)
          for (let k = 0; k < n; k++) sink.value = decodeArguments(raws[k], CORE);
      },
    },
    {
      name: "jr",
      fn: () => {
        for (let r = 0; r < reps; r++)
          for (let k = 0; k < n; k++) sink.value = decodeArguments(raws[k], JSONREPAIR);
      },
    },
    {
      name: "bare",
      fn: () => {
        for (let r = 0; r < reps; r++) {
          for (let k = 0; k < n; k++) {
            try {
              sink.value = JSON.parse(jsonrepair(raws[k]));
            } catch (error) {
              sink.value = error;
            }
          }
        }
      },
    },
  ];
  const latencies = interleaved(tasks, { rounds: ROUNDS, timeMs: TIME.repairs, warmupMs: TIME.warmup });
  const per = { opsPerCall: n * reps, bytesPerCall: bytes * reps };
  const input = `${n} wild payloads, ${formatBytes(bytes)}`;
  tools.forEach((tool, i) => {
    const s = summarise(latencies, i, per);
    rows.push([
      "3 repairs",
      i === 0 ? `${tool.label} (floor)` : tool.label,
      input,
      formatOps(s.opsPerSecond),
      formatMBps(s.bytesPerSecond),
      i === 0 ? "1.00×" : `${ratio(s.ratio)} speed`,
      i === 0 ? "" : spread(s.ratioLow, s.ratioHigh),
      "none (info)",
      `right ${right[tool.key]}/${n}${unjudged > 0 ? ` (${unjudged} unjudged)` : ""}`,
    ]);
    for (const miss of wrong[tool.key]) notes.push(`${tool.label} got wrong: ${miss}`);
  });
}

// 4. Gemma recovery on clean input: the marker repair runs only on text that fails strict JSON, and the content
// parser looks for `<|` before anything else, so clean payloads pay (almost) nothing.
if (runs(4)) {
  const texts = bucketCorpus(BUCKETS[1], 0x7101);
  const content = texts.map((text) => `Here is what I found: ${text.slice(0, 400)} and that is all.`);
  const n = texts.length;
  const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
  const withGemma = { repairs: [gemmaQuoteMarkers] };
  const reps = calibrateReps(() => {
    for (let k = 0; k < n; k++) sink.value = decodeArguments(texts[k]);
  });
  progress(`gemma clean payloads: ${n} texts, ${reps} passes per call`);
  const tasks = [
    {
      name: "decodeArguments",
      fn: () => {
        for (let r = 0; r < reps; r++) for (let k = 0; k < n; k++) sink.value = decodeArguments(texts[k]);
      },
    },
    {
      name: "decodeArguments + gemmaQuoteMarkers",
      fn: () => {
        for (let r = 0; r < reps; r++)
          for (let k = 0; k < n; k++) sink.value = decodeArguments(texts[k], withGemma);
      },
    },
    {
      name: "decodeArguments + parseGemmaToolCalls(content)",
      fn: () => {
        for (let r = 0; r < reps; r++)
          for (let k = 0; k < n; k++) {
            sink.value = decodeArguments(texts[k]);
            sink.value = parseGemmaToolCalls(content[k]);
          }
      },
    },
  ];
  const latencies = interleaved(tasks, { rounds: ROUNDS, timeMs: TIME.decode, warmupMs: TIME.warmup });
  const per = { opsPerCall: n * reps, bytesPerCall: bytes * reps };
  const floor = summarise(latencies, 0, per);
  const section = "4 gemma clean";
  const input = `${n} texts, avg ${formatBytes(bytes / n)}`;
  rows.push([
    section,
    "decodeArguments(text) (floor)",
    input,
    formatOps(floor.opsPerSecond),
    formatMBps(floor.bytesPerSecond),
    "1.00×",
    "",
    "floor",
    "",
  ]);
  for (const [i, name] of [
    [1, "… with repairs: [gemmaQuoteMarkers]"],
    [2, "… and parseGemmaToolCalls(content)"],
  ]) {
    const row = summarise(latencies, i, { ...per, direction: "time" });
    const ok = row.ratio <= 1 + TARGET_GEMMA_OVERHEAD;
    rows.push([
      section,
      name,
      input,
      formatOps(row.opsPerSecond),
      formatMBps(row.bytesPerSecond),
      `${row.ratio.toFixed(3)}× time`,
      spread(row.ratioLow, row.ratioHigh),
      `≤ ${(1 + TARGET_GEMMA_OVERHEAD).toFixed(2)}× time`,
      ok ? "ok" : "MISS",
    ]);
    if (!ok) notes.push(`gemma clean payloads: ${name} costs ${row.ratio.toFixed(3)}× plain decode`);
  }
}

// 5. The guarded Chat Completions stream against the raw SDK stream: CPU per pass over a 10 000-chunk SSE body.
if (runs(5)) {
  progress("openai stream: 10 000 chunks, raw SDK stream vs repairChatCompletionStream");
  const stream = await measureStream({ rounds: QUICK ? 3 : 15, passes: QUICK ? 2 : 5 });
  const perChunkMicros = ((stream.guarded - stream.raw) * 1000) / stream.chunks;
  const ok = stream.ratio <= 1 + TARGET_STREAM_OVERHEAD;
  rows.push(
    [
      "5 openai stream",
      stream.names[0],
      `${stream.chunks} chunks, ${formatBytes(stream.bytes)}`,
      formatOps(1000 / stream.raw),
      "",
      "1.00×",
      "",
      "floor",
      "",
    ],
    [
      "5 openai stream",
      stream.names[1],
      `${stream.chunks} chunks, ${formatBytes(stream.bytes)}`,
      formatOps(1000 / stream.guarded),
      "",
      `${stream.ratio.toFixed(3)}× CPU`,
      `${stream.low.toFixed(3)}–${stream.high.toFixed(3)}`,
      `≤ ${(1 + TARGET_STREAM_OVERHEAD).toFixed(2)}× CPU`,
      `${ok ? "ok" : "MISS"} (${perChunkMicros.toFixed(2)} µs per chunk added)`,
    ],
  );
  if (!ok)
    notes.push(
      `openai stream: the guarded stream costs ${stream.ratio.toFixed(3)}× the raw SDK stream's CPU`,
    );
}

// 6. Model tool-call syntaxes on plain answers against one indexOf scan: each syntax in its own process, as a server
// runs one family (formats-child.mjs).
for (const id of runs(6) ? Object.keys(SYNTAXES) : []) {
  const timing = [Math.min(ROUNDS, 10), TIME.decode / 2, TIME.warmup / 2].map(String);
  const child = spawnSync(process.execPath, [resolve(here, "formats-child.mjs"), id, ...timing], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 16 * 1024 * 1024,
  });
  if (child.status !== 0)
    throw new Error(`section 6 failed for ${id} (exit ${child.status ?? child.signal})`);
  const plain = JSON.parse(child.stdout);
  rows.push(...plain.rows);
  notes.push(...plain.notes);
}

// 7. Model tool-call syntaxes streamed, against parsing the same text whole.
if (runs(7)) {
  const formats = measureStreamedFormats({
    rounds: Math.min(ROUNDS, 10),
    timeMs: TIME.decode / 2,
    warmupMs: TIME.warmup / 2,
    progress,
  });
  rows.push(...formats.rows);
  notes.push(...formats.notes);
}

// 8. The AI SDK middleware against the unwrapped model: CPU per pass over the same 10 000-chunk SSE body.
if (runs(8)) {
  progress("ai-sdk stream: 10 000 chunks, unwrapped model vs wrapLanguageModel(toolcallMiddleware)");
  const aiSdk = await measureAiSdkStream({ rounds: QUICK ? 3 : 15, passes: QUICK ? 2 : 5 });
  const perPartMicros = ((aiSdk.wrapped - aiSdk.bare) * 1000) / aiSdk.parts;
  const ok = aiSdk.ratio <= 1 + TARGET_AI_SDK_OVERHEAD;
  const input = `${aiSdk.parts} parts, ${formatBytes(aiSdk.bytes)}`;
  rows.push(
    [
      "8 ai-sdk middleware",
      aiSdk.names[0],
      input,
      formatOps(1000 / aiSdk.bare),
      "",
      "1.00×",
      "",
      "floor",
      "",
    ],
    [
      "8 ai-sdk middleware",
      aiSdk.names[1],
      input,
      formatOps(1000 / aiSdk.wrapped),
      "",
      `${aiSdk.ratio.toFixed(3)}× CPU`,
      `${aiSdk.low.toFixed(3)}–${aiSdk.high.toFixed(3)}`,
      `≤ ${(1 + TARGET_AI_SDK_OVERHEAD).toFixed(2)}× CPU`,
      `${ok ? "ok" : "MISS"} (${perPartMicros.toFixed(2)} µs per part added)`,
    ],
  );
  if (!ok)
    notes.push(
      `ai-sdk middleware: the wrapped model's stream costs ${aiSdk.ratio.toFixed(3)}× the unwrapped one's CPU`,
    );
}

// 9. guardFetch against the bare fetch on the same clean stream, read through the SDK (target) and as bytes.
if (runs(9)) {
  progress("guarded fetch: 10 000-chunk clean stream, bare fetch vs guardFetch");
  const fetched = await measureFetchStream({ rounds: QUICK ? 3 : 15, passes: QUICK ? 1 : 3 });
  const input = `${fetched.chunks} chunks, ${formatBytes(fetched.bytes)}`;
  const ok = fetched.same && fetched.sdk.ratio >= TARGET_FETCH_SPEED;
  rows.push(
    [
      "9 guarded fetch",
      "bare fetch, read by the openai SDK (floor)",
      input,
      formatOps(1000 / fetched.sdk.bare),
      "",
      "1.00×",
      "",
      "floor",
      "",
    ],
    [
      "9 guarded fetch",
      "guardFetch(bare), read by the openai SDK",
      input,
      formatOps(1000 / fetched.sdk.guarded),
      "",
      `${fetched.sdk.ratio.toFixed(3)}× speed`,
      `${fetched.sdk.low.toFixed(3)}–${fetched.sdk.high.toFixed(3)}`,
      `≥ ${TARGET_FETCH_SPEED.toFixed(2)}× speed`,
      `${ok ? "ok" : "MISS"}${fetched.same ? " (bytes out = bytes in)" : " (bytes changed!)"}`,
    ],
    [
      "9 guarded fetch",
      "bare fetch, bytes only (floor)",
      input,
      formatOps(1000 / fetched.raw.bare),
      "",
      "1.00×",
      "",
      "floor",
      "",
    ],
    [
      "9 guarded fetch",
      "guardFetch(bare), bytes only",
      input,
      formatOps(1000 / fetched.raw.guarded),
      "",
      `${fetched.raw.ratio.toFixed(3)}× speed`,
      `${fetched.raw.low.toFixed(3)}–${fetched.raw.high.toFixed(3)}`,
      "none (the guard's own cost)",
      `${(((fetched.raw.guarded - fetched.raw.bare) * 1000) / fetched.chunks).toFixed(2)} µs per chunk added`,
    ],
  );
  if (!ok)
    notes.push(
      `guarded fetch: ${fetched.sdk.ratio.toFixed(3)}× the bare fetch's throughput through the SDK${fetched.same ? "" : "; the clean stream's bytes changed"}`,
    );
}

// 10. Growth on hostile input, 64 KiB to 1 MiB, every repair and parser beside JSON.parse (tests count work instead).
if (runs(10)) {
  progress("growth: every repair and parser on hostile input, 64 KiB to 1 MiB");
  // In a child process with V8's --single-threaded (growth-child.mjs says why): CPU time is the code's own work.
  const child = spawnSync(
    process.execPath,
    ["--single-threaded", resolve(here, "growth-child.mjs"), String(QUICK ? 1 : 7)],
    { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 16 * 1024 * 1024 },
  );
  if (child.status !== 0) throw new Error(`the growth section failed (exit ${child.status ?? child.signal})`);
  const { results, floorTimes, floorExponent } = JSON.parse(child.stdout);
  const sizes = GROWTH_SIZES.map((n) => formatBytes(n)).join(" / ");
  rows.push([
    "10 growth",
    "JSON.parse, valid JSON (floor)",
    sizes,
    floorTimes.map((t) => `${t.toFixed(1)} ms`).join(" / "),
    "",
    "1.00×",
    `k = ${floorExponent.toFixed(2)}`,
    "floor",
    "",
  ]);
  for (const result of results) {
    const ok = result.exponent <= TARGET_EXPONENT;
    rows.push([
      "10 growth",
      result.name,
      `worst of ${result.families}: ${result.family}`,
      result.times.map((t) => `${t.toFixed(1)} ms`).join(" / "),
      "",
      result.ratios.map((r) => `${r.toFixed(r < 10 ? 2 : 0)}×`).join(" / "),
      `k = ${result.exponent.toFixed(2)} (wall ${result.wallExponent.toFixed(2)}, raw ${result.rawExponent.toFixed(2)})`,
      `k ≤ ${TARGET_EXPONENT}`,
      ok ? "ok" : "MISS",
    ]);
    if (!ok)
      notes.push(
        `growth: ${result.name} on ${result.family} grows as size^${result.exponent.toFixed(2)} (64 KiB to 1 MiB)`,
      );
  }
}

// 11. Output: the machine, then one table, then what was wrong.
const cpu = os.cpus()[0]?.model ?? "unknown CPU";
console.log("# @toolcall/bench\n");
console.log(
  `Node ${process.version} · ${cpu} (${os.cpus().length} logical cores) · ${new Date().toISOString()} · ` +
    `@toolcall/core ${versionOf("../../packages/core/package.json")} · tinybench ${versionOf("../node_modules/tinybench/package.json")} · ` +
    `jsonrepair ${versionOf("../node_modules/jsonrepair/package.json")} · ${ROUNDS} rounds, order rotated each round${QUICK ? " · QUICK" : ""}\n`,
);
console.log(
  markdownTable(
    [
      "section",
      "row",
      "input",
      "ops/s",
      "MB/s",
      "ratio vs floor (median)",
      "per-round IQR",
      "target",
      "result",
    ],
    rows,
  ),
);
console.log("");
for (const note of notes) console.log(`- ${note}`);
console.log(`\nTotal ${((performance.now() - started) / 1000).toFixed(1)} s.`);
