/**
 * Realistic tool-call argument texts, generated deterministically from a seed.
 *
 * Kinds (what models actually send as `function.arguments`):
 * - weather: a few short fields (`{"location":"Paris, FR","unit":"celsius"}`);
 * - search: a query string and a few options;
 * - file-edit: a path and a long code string with newlines, both quote kinds, backslashes, tabs and unicode;
 * - records: a list of row objects (500 of them is about 50 KB);
 * - config: nested configuration objects of mixed value types;
 * - numbers: numbers-heavy arrays (floats, integers, a small matrix).
 *
 * Each text is written in one of three styles models emit: compact (`JSON.stringify`), Python's `json.dumps`
 * spacing (`", "`, `": "`), or indented.
 */
import { createRng } from "./prng.mjs";

const CITIES = [
  "Paris, FR",
  "London, UK",
  "São Paulo, BR",
  "Zürich, CH",
  "東京, JP",
  "New York, NY",
  "Kraków, PL",
  "Reykjavík, IS",
  "Cape Town, ZA",
  "Montréal, CA",
];
const WORDS = [
  "latest",
  "rust",
  "async",
  "runtime",
  "benchmarks",
  "weather",
  "flight",
  "prices",
  "python",
  "json",
  "schema",
  "migration",
  "postgres",
  "index",
  "café",
  "naïve",
  "résumé",
  "kubernetes",
  "ingress",
  "timeout",
  "llm",
  "tool",
  "calling",
  "vllm",
  "qwen",
  "gemma",
];
const NAMES = ["Ada", "Grace", "Linus", "Margaret", "José", "Zoë", "Ünal", "Ngozi", "Wei", "Søren", "Aiko"];
const TAGS = ["admin", "beta", "trial", "enterprise", "eu", "us", "apac", "legacy", "vip"];
const CODE_LINES = [
  'import { readFile } from "node:fs/promises";',
  "const message = 'it\\'s done';",
  'export async function load(path) {\n\tconst text = await readFile(path, "utf8");\n\treturn JSON.parse(text);\n}',
  'if (value === "") throw new Error("empty value at \\"" + key + "\\"");',
  'def greet(name: str) -> str:\n    return f"Hello, {name}! Ça va? ✓"',
  'const re = /\\d+(?:\\.\\d+)?/g; // matches "1.5" and 42',
  "# TODO(zoë): handle the naïve case — see https://example.com/issue?id=42&x=1",
  'printf("%s\\t%d\\n", label, count);',
  "const emoji = \"🚀 deploy ✅\"; const cjk = '日本語のテキスト';",
  "for (let i = 0; i < rows.length; i++) {\n  total += rows[i].price * rows[i].qty;\n}",
  "SELECT id, name FROM users WHERE email LIKE '%@example.com' AND active = 1;",
  'path = "C:\\\\Users\\\\zoe\\\\Documents\\\\report.txt"',
];

function words(rng, min, max) {
  const n = rng.int(min, max);
  const out = [];
  for (let i = 0; i < n; i++) out.push(rng.pick(WORDS));
  return out.join(" ");
}

function weather(rng) {
  const value = { location: rng.pick(CITIES), unit: rng.pick(["celsius", "fahrenheit"]) };
  if (rng.chance(0.6)) value.days = rng.int(1, 7);
  if (rng.chance(0.6)) value.include_hourly = rng.chance(0.5);
  if (rng.chance(0.6)) value.lang = rng.pick(["en", "fr", "de", "ja", "pt-BR"]);
  return value;
}

function search(rng, target) {
  const value = { query: words(rng, 2, Math.max(3, Math.round(target / 12))), max_results: rng.int(3, 20) };
  if (rng.chance(0.5)) value.lang = rng.pick(["en", "fr", "de", "ja"]);
  if (rng.chance(0.3)) value.safe_search = rng.chance(0.5);
  return value;
}

function code(rng, target) {
  const lines = [];
  let length = 0;
  while (length < target) {
    const line = `${"  ".repeat(rng.int(0, 3))}${rng.pick(CODE_LINES)}`;
    lines.push(line);
    length += line.length + 1;
  }
  return lines.join("\n");
}

function fileEdit(rng, target) {
  const path = `src/${rng.pick(["api", "lib", "utils", "models"])}/${rng.pick(WORDS)}_${rng.int(1, 99)}.${rng.pick(["ts", "py", "rs", "sql"])}`;
  // The escaped form is ~10% longer than the code itself.
  const budget = Math.max(10, Math.round(target * 0.85) - 60);
  if (rng.chance(0.5)) return { path, content: code(rng, budget) };
  return {
    path,
    old_string: code(rng, Math.round(budget * 0.4)),
    new_string: code(rng, Math.round(budget * 0.6)),
  };
}

function record(rng, id) {
  const name = rng.pick(NAMES);
  return {
    id,
    name: `${name} ${rng.pick(NAMES)}son`,
    email: `${name.toLowerCase()}.${id}@example.com`,
    active: rng.chance(0.7),
    score: Math.round(rng.float(0, 100) * 100) / 100,
    tags: Array.from({ length: rng.int(0, 3) }, () => rng.pick(TAGS)),
    created_at: `2026-${String(rng.int(1, 12)).padStart(2, "0")}-${String(rng.int(1, 28)).padStart(2, "0")}T12:00:00Z`,
    manager_id: rng.chance(0.2) ? null : rng.int(1, 500),
  };
}

function records(rng, target) {
  // about 100 bytes per row; 500 rows is about 50 KB
  const n = Math.max(1, Math.round((target - 40) / 100));
  return {
    table: "users",
    mode: rng.pick(["insert", "upsert"]),
    rows: Array.from({ length: n }, (_, i) => record(rng, i + 1)),
  };
}

function configValue(rng, depth, budget) {
  if (depth < 5 && budget.left > 60 && rng.chance(0.35)) return configObject(rng, depth + 1, budget);
  const kind = rng.int(0, 5);
  let value;
  if (kind === 0) value = rng.int(0, 65535);
  else if (kind === 1) value = rng.chance(0.5);
  else if (kind === 2) value = words(rng, 1, 4);
  else if (kind === 3) value = Math.round(rng.float(0, 10) * 1000) / 1000;
  else if (kind === 4) value = Array.from({ length: rng.int(1, 4) }, () => rng.pick(WORDS));
  else value = null;
  budget.left -= 12;
  return value;
}

function configObject(rng, depth, budget) {
  const object = {};
  const n = rng.int(2, 6);
  for (let i = 0; i < n && budget.left > 0; i++) {
    const key = `${rng.pick(WORDS)}_${rng.pick(["enabled", "timeout", "level", "options", "name", "limits"])}`;
    budget.left -= key.length + 4;
    object[key] = configValue(rng, depth, budget);
  }
  return object;
}

function config(rng, target) {
  const budget = { left: target * 0.85 };
  const value = { service: rng.pick(WORDS), version: rng.int(1, 9) };
  while (budget.left > 0) Object.assign(value, configObject(rng, 1, budget));
  return value;
}

function numbers(rng, target) {
  const count = Math.max(2, Math.round(target / 9));
  const floats = Array.from(
    { length: Math.ceil(count * 0.6) },
    () => Math.round(rng.float(-1000, 1000) * 1e4) / 1e4,
  );
  const ints = Array.from({ length: Math.ceil(count * 0.3) }, () => rng.int(0, 1_000_000));
  const side = Math.max(1, Math.round(Math.sqrt(count * 0.1)));
  const matrix = Array.from({ length: side }, () => Array.from({ length: side }, () => rng.int(-9, 9)));
  return { series: floats, ids: ints, matrix };
}

export const KINDS = { weather, search, fileEdit, records, config, numbers };

/** Python `json.dumps` spacing: `", "` and `": "`, non-ASCII kept. */
function spaced(value) {
  if (Array.isArray(value)) return `[${value.map(spaced).join(", ")}]`;
  if (value !== null && typeof value === "object") {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${spaced(v)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(value);
}

/** Serialises a value in one of the styles models emit (compact, Python-spaced, or indented). */
export function serialize(rng, value, style = rng.pick(["compact", "compact", "spaced", "indented"])) {
  if (style === "compact") return JSON.stringify(value);
  if (style === "spaced") return spaced(value);
  return JSON.stringify(value, null, 2);
}

export const BUCKETS = [
  {
    label: "~100 B",
    min: 60,
    max: 200,
    count: 48,
    kinds: ["weather", "search", "fileEdit", "config", "numbers", "records"],
  },
  { label: "~1 KB", min: 600, max: 1600, count: 48, kinds: ["fileEdit", "records", "config", "numbers"] },
  { label: "~10 KB", min: 6000, max: 16000, count: 24, kinds: ["fileEdit", "records", "config", "numbers"] },
  { label: "~50 KB", min: 35000, max: 70000, count: 12, kinds: ["fileEdit", "records", "config", "numbers"] },
];

/** The texts of one size bucket, kinds taken in turn, each within the bucket's byte range. */
export function bucketCorpus(bucket, seed) {
  const rng = createRng(seed);
  const center = Math.sqrt(bucket.min * bucket.max);
  const texts = [];
  for (let i = 0; texts.length < bucket.count; i++) {
    if (i > bucket.count * 200) throw new Error(`cannot fill bucket ${bucket.label}`);
    const kind = bucket.kinds[texts.length % bucket.kinds.length];
    const target = center * rng.float(0.7, 1.3);
    const text = serialize(rng, KINDS[kind](rng, target));
    const bytes = Buffer.byteLength(text);
    if (bytes >= bucket.min && bytes <= bucket.max) texts.push(text);
  }
  return texts;
}
