import { readFileSync } from "node:fs";
import type { SyntaxParseResult } from "@toolcall/core/kit";

/** One call as a vLLM test states it: the name, and the arguments in whichever form the test checks them. */
export interface VllmExpectedCall {
  name: string;
  /** The whole arguments object. */
  arguments?: Record<string, unknown>;
  /** The exact argument text the test compares (read here as a JSON value; not always JSON: a truncated call). */
  argumentsText?: string;
  /** Keys the arguments must hold with these values (`args.get(key) == value`). */
  argumentsInclude?: Record<string, unknown>;
  /** Keys the arguments must hold with a value of this Python type. */
  argumentTypes?: Record<string, "string" | "integer" | "float" | "boolean" | "null" | "array" | "object">;
  /** The arguments must hold at least one key. */
  argumentsNonEmpty?: boolean;
  /** Keys the arguments must hold, whatever their values (a test of a parser that leaves values untyped). */
  argumentKeys?: string[];
  /** The call id the test expects. */
  id?: string;
}

/** What a vLLM test states about one model output. Absent fields are not checked by the test. */
export interface VllmExpected {
  calls?: VllmExpectedCall[];
  atLeastCalls?: number;
  content?: string | null;
  contentTrimmed?: string;
  contentIncludes?: string[];
  contentExcludes?: string[];
  reasoning?: string | null;
  /** Text the reasoning must hold, and must not hold (SGLang's reasoning tests check parts). */
  reasoningIncludes?: string[];
  reasoningExcludes?: string[];
}

/** One case of `__fixtures__/peers/vllm-tool-parser-cases.json`. */
export interface VllmCase {
  id: string;
  syntax: string;
  vllmParser: string;
  file: string;
  commit: string;
  test: string;
  mode: "streaming" | "non-streaming" | "both";
  text: string;
  tools?: unknown[];
  expected: VllmExpected;
  /** The content the streaming variant of the test expects, where it differs from the whole parse's. */
  contentStreaming?: string;
  /** vLLM's streaming test checks only the first call. */
  firstCallOnly?: boolean;
  vllmXfail?: string;
  vllmSkipped?: string;
}

/**
 * The fixture files: every family's cases, Hunyuan Hy3 / Hy4's (hy_v3, hy_v4) and LFM2's in files of their own, and
 * the newer tests (Step3, OLMo 3, Nemotron Nano v2, Qwen3-Coder, Qwen3 XML).
 */
export const VLLM_CASE_FILES = [
  "vllm-tool-parser-cases.json",
  "vllm-hy-tool-parser-cases.json",
  "vllm-lfm2-tool-parser-cases.json",
  "vllm-newer-tool-parser-cases.json",
] as const;

/** The cases, read from the fixtures. */
export function loadVllmCases(): VllmCase[] {
  return VLLM_CASE_FILES.flatMap((file) => {
    const url = new URL(`./__fixtures__/peers/${file}`, import.meta.url);
    return (JSON.parse(readFileSync(url, "utf8")) as { cases: VllmCase[] }).cases;
  });
}

/**
 * Content as the comparison reads it: whitespace at its ends is the separator a template writes around calls and
 * reasoning (docs/decisions.md, "separators are syntax"), which vLLM's parsers keep in some families and strip in
 * others; text that is only whitespace is no content (`null`, as ours reports it and as vLLM's `""` means).
 */
export function normalContent(content: string | null | undefined): string | null {
  if (content === null || content === undefined) return null;
  const trimmed = content.trim();
  return trimmed === "" ? null : trimmed;
}

/** Structural equality of JSON values (object key order does not matter). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, index) => sameJson(item, b[index]));
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  return (
    keys.length === Object.keys(right).length &&
    keys.every((key) => key in right && sameJson(left[key], right[key]))
  );
}

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function hasType(value: unknown, type: NonNullable<VllmExpectedCall["argumentTypes"]>[string]): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return Number.isInteger(value);
    case "float":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    default:
      return false;
  }
}

/** Whether one of our calls meets what the test states about it. */
function callMismatches(
  actual: SyntaxParseResult["toolCalls"][number],
  expected: VllmExpectedCall,
  index: number,
): string[] {
  const out: string[] = [];
  if (actual.function.name !== expected.name) out.push(`calls[${index}].name`);
  if (expected.id !== undefined && actual.id !== expected.id) out.push(`calls[${index}].id`);
  const args = parsed(actual.function.arguments);
  const value = args.ok ? (args.value as Record<string, unknown>) : {};
  let argumentsOk = args.ok;
  if (expected.arguments !== undefined) argumentsOk &&= sameJson(value, expected.arguments);
  if (expected.argumentsText !== undefined) {
    const wanted = parsed(expected.argumentsText);
    argumentsOk &&= wanted.ok && sameJson(value, wanted.value);
  }
  if (expected.argumentsInclude !== undefined)
    for (const [key, wanted] of Object.entries(expected.argumentsInclude))
      argumentsOk &&= key in value && sameJson(value[key], wanted);
  if (expected.argumentTypes !== undefined)
    for (const [key, type] of Object.entries(expected.argumentTypes))
      argumentsOk &&= key in value && hasType(value[key], type);
  if (expected.argumentsNonEmpty) argumentsOk &&= Object.keys(value).length > 0;
  for (const key of expected.argumentKeys ?? []) argumentsOk &&= key in value;
  if (!argumentsOk) out.push(`calls[${index}].arguments`);
  return out;
}

/**
 * Where our result departs from what the vLLM test states, as stable field names (`calls.count`, `calls[0].name`,
 * `calls[0].arguments`, `calls[0].id`, `content`, `reasoning`). Empty: we agree.
 */
export function mismatches(c: VllmCase, result: SyntaxParseResult): string[] {
  const out: string[] = [];
  const { expected } = c;
  const calls = result.toolCalls;
  if (expected.calls !== undefined) {
    const wanted = c.firstCallOnly ? expected.calls.slice(0, 1) : expected.calls;
    const countOk =
      expected.atLeastCalls !== undefined
        ? calls.length >= expected.atLeastCalls
        : c.firstCallOnly
          ? calls.length >= 1
          : calls.length === wanted.length;
    if (!countOk) out.push("calls.count");
    wanted.forEach((call, index) => {
      const actual = calls[index];
      if (actual !== undefined) out.push(...callMismatches(actual, call, index));
    });
  } else if (expected.atLeastCalls !== undefined && calls.length < expected.atLeastCalls)
    out.push("calls.count");
  const content = normalContent(result.content);
  let contentOk = true;
  if ("content" in expected) contentOk &&= content === normalContent(expected.content);
  if (c.contentStreaming !== undefined) contentOk &&= content === normalContent(c.contentStreaming);
  if (expected.contentTrimmed !== undefined) contentOk &&= content === normalContent(expected.contentTrimmed);
  for (const part of expected.contentIncludes ?? []) contentOk &&= (result.content ?? "").includes(part);
  for (const part of expected.contentExcludes ?? []) contentOk &&= !(result.content ?? "").includes(part);
  if (!contentOk) out.push("content");
  let reasoningOk =
    !("reasoning" in expected) || normalContent(result.reasoning) === normalContent(expected.reasoning);
  for (const part of expected.reasoningIncludes ?? [])
    reasoningOk &&= (result.reasoning ?? "").includes(part);
  for (const part of expected.reasoningExcludes ?? [])
    reasoningOk &&= !(result.reasoning ?? "").includes(part);
  if (!reasoningOk) out.push("reasoning");
  return out;
}

/** A small seeded generator (mulberry32): the same cuts on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` sets of cut points in a text of `length` characters, each of up to 12 cuts, from `seed`. */
export function seededCuts(length: number, seed: number, count = 6): number[][] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () =>
    Array.from(
      { length: 1 + Math.floor(random() * 12) },
      () => 1 + Math.floor(random() * Math.max(1, length - 1)),
    ),
  );
}
