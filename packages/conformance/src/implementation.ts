/** An issue as the suite compares it (RULES.md R3). */
export interface ConformanceIssue {
  code: string;
  severity: string;
  path?: Array<string | number>;
  /** A provider's issue: the literal error text it would answer with. */
  message?: string;
  /** A provider's issue: the HTTP status it would answer with. */
  status?: number;
}

/** Which providers reject a history, and why (core's `providerVerdict`). */
export interface ConformanceVerdict {
  rejectedBy: readonly string[];
  acceptedBy: readonly string[];
  findings: ReadonlyArray<{ code: string; path: Array<string | number>; rejectedBy: readonly string[] }>;
}

/** A decode outcome as the suite compares it (RULES.md R1). */
export interface ConformanceDecodeResult {
  arguments: unknown;
  status: string;
  repairs?: readonly string[];
  raw?: unknown;
  /** The repairs not tried for the work budget (R6), in order; absent when none were left out. */
  budget?: readonly string[];
}

import type { ConformanceLevel } from "./levels.js";

/** What a parse of model text found (R10), as the suite compares it. */
export interface ConformanceParseResult {
  toolCalls: readonly { id?: string; function: { name: string; arguments: string } }[];
  content: string | null;
  reasoning?: string | null;
  issues: readonly { code: string }[];
}

/**
 * What a `render` vector gives the implementation (RULES.md R8): a chat template and what transformers'
 * `apply_chat_template` passes it. `template` is the source itself (a vector naming a shared template file has it
 * read and checked by the runner first); values are what Python sees (a `FloatValue` is a float).
 */
export interface ConformanceRenderInput {
  template: string;
  messages: unknown[];
  tools: unknown[] | null;
  addGenerationPrompt: boolean;
  /** Every other template variable (`bos_token`, `enable_thinking`, …). */
  variables: Record<string, unknown>;
  /** The clock `strftime_now` reads, local time, `YYYY-MM-DDTHH:MM:SS`. */
  now: string;
}

/** A render's outcome: the exact text, or the Python exception a template raises (`TypeError`, its message). */
export type ConformanceRenderResult = { text: string } | { error: { type: string; message: string } };

/** A value, or a promise of it: an implementation may answer asynchronously. */
export type MaybePromise<T> = T | Promise<T>;

/** Options as the vectors give them, with `repairs` already mapped through {@link ConformanceImplementation.resolveRepairs}. */
export type ConformanceOptions = Record<string, unknown>;

/**
 * What an implementation under test provides. Every operation is optional: tests of a missing operation are
 * reported as skipped, never as passed.
 *
 * `level` declares what its results hold. `full` (the default): result objects with this suite's vocabulary
 * (`decode` → `{ arguments, status, repairs, raw? }`, `sanitize` → `{ messages, changes }`, issues with codes).
 * `mapping`: what any stack returns (`decode` → the decoded mapping itself, `sanitize` → the message list); it is
 * scored on the mapping-level checks. `operations` lists the operations it answers (default: the functions present).
 *
 * @example
 * import * as core from "@toolcall/core";
 * const implementation: ConformanceImplementation = {
 *   name: "@toolcall/core",
 *   decode: (input, options) => core.decodeArguments(input, options),
 *   encode: (input, options) => core.encodeArguments(input, options),
 *   resolveRepairs: (ids) => ids.flatMap((id) => (id === "core" ? core.coreRepairs : core.coreRepairs.filter((r) => r.id === id))),
 * };
 */
export interface ConformanceImplementation {
  /** A name for reports. */
  name?: string;
  /** What its results hold: `mapping` or `full` (default). */
  level?: ConformanceLevel;
  /** The operations it answers (default: every operation it has a function for). */
  operations?: readonly ConformanceOperation[];
  /** Full level: the result object. Mapping level: the decoded mapping itself. */
  decode?(
    input: unknown,
    options: ConformanceOptions,
  ): MaybePromise<ConformanceDecodeResult | Record<string, unknown>>;
  encode?(input: unknown, options: ConformanceOptions): MaybePromise<string>;
  validate?(call: unknown, options: ConformanceOptions): MaybePromise<readonly ConformanceIssue[]>;
  validateHistory?(messages: unknown, options: ConformanceOptions): MaybePromise<readonly ConformanceIssue[]>;
  /** Full level: `{ messages, changes }`. Mapping level: the message list. */
  sanitize?(
    messages: unknown,
    options: ConformanceOptions,
  ): MaybePromise<{ messages: unknown; changes: readonly { rule: string }[] } | readonly unknown[]>;
  prepareForTemplate?(messages: unknown, options: ConformanceOptions): unknown;
  /** Feeds `deltas` in order and finishes with `finishReason`. */
  accumulate?(
    input: { deltas: unknown[]; finishReason?: string | null },
    options: ConformanceOptions,
  ): MaybePromise<
    readonly {
      index?: number;
      id?: unknown;
      name?: unknown;
      arguments?: unknown;
      status?: string;
      decoded?: unknown;
    }[]
  >;
  /**
   * Feeds `deltas` (pieces of tool calls) through a stream's decider and finishes with `finishReason` (R9): one
   * entry per call, in the order calls began, with the text its client holds at the end (`text`), whether a tool can
   * run on it (`usable`), its decode `status`, and `opened`: the position in `deltas` of the delta after which the
   * call's header first reached the client, or `"finish"`.
   */
  decideStream?(
    input: { deltas: unknown[]; finishReason?: string | null },
    options: ConformanceOptions,
  ): MaybePromise<
    readonly {
      index?: number;
      id?: unknown;
      name?: unknown;
      text?: string;
      usable?: boolean;
      status?: string;
      opened?: number | "finish";
    }[]
  >;
  /** Renders a chat template as transformers does (R8). */
  render?(input: ConformanceRenderInput, options: ConformanceOptions): MaybePromise<ConformanceRenderResult>;
  /**
   * Reads model text in a tool-call syntax (R10): `options.syntax` names it (`hermes`, `glm45`, …), `options.tools`
   * types values, `options.startInReasoning` says the prompt opened the reasoning block.
   */
  parseToolCalls?(input: string, options: ConformanceOptions): MaybePromise<ConformanceParseResult>;
  /** The same, fed to a stream in `chunks`: the runner checks several splits of each text (`streamSplits`). */
  streamToolCalls?(
    chunks: readonly string[],
    options: ConformanceOptions,
  ): MaybePromise<ConformanceParseResult>;
  /** Writes calls (`{ id?, name, arguments }`) in a syntax as its chat template renders them (R10). */
  encodeToolCalls?(
    calls: readonly { id?: string; name: string; arguments: string }[],
    options: ConformanceOptions,
  ): MaybePromise<string>;
  /**
   * Reads the JSON calls a model wrote in Markdown fences of its content (R10, `readFencedJsonCalls`): `options.tools`
   * are the advertised tools. The result has the shape of a parse (`toolCalls`, `content`, `issues`).
   */
  readFencedJsonCalls?(input: string, options: ConformanceOptions): MaybePromise<ConformanceParseResult>;
  /**
   * Reads the call a Gemini candidate that ended with `MALFORMED_FUNCTION_CALL` left in its `finishMessage` (R10):
   * the candidate as returned (with a `functionCall` part where the call was read), a `status` (`read`,
   * `unreadable`, `unchanged`) and the issues.
   */
  readMalformedFunctionCall?(
    input: unknown,
    options: ConformanceOptions,
  ): MaybePromise<{ candidate: unknown; status?: string; issues?: readonly { code: string }[] }>;
  /**
   * `validateHistory(messages, { provider })`: the issues that provider would raise, in its words. Mapping level:
   * any list, one entry per rejection (empty when the provider accepts the history).
   */
  validateProvider?(messages: unknown, options: ConformanceOptions): MaybePromise<readonly unknown[]>;
  /**
   * `sanitizeHistory(messages, { provider, … })`: a history that provider accepts. Full level:
   * `{ messages, changes }`. Mapping level: the message list.
   */
  sanitizeProvider?(
    messages: unknown,
    options: ConformanceOptions,
  ): MaybePromise<{ messages: unknown; changes: readonly { rule: string }[] } | readonly unknown[]>;
  /** Which provider profiles reject a history (`{ providers? }`): `{ rejectedBy, acceptedBy, findings }`. */
  providerVerdict?(messages: unknown, options: ConformanceOptions): MaybePromise<ConformanceVerdict>;
  /**
   * The arguments a tool call gets in a fresh answer (a response or stream coming back): `text` as the call carries
   * it, the decode `status`, whether it `changed` and whether a tool can run on it (`usable`).
   */
  normalizeAnswer?(
    input: unknown,
    options: ConformanceOptions,
  ): MaybePromise<{
    text: unknown;
    status: string;
    changed: boolean;
    usable: boolean;
    repairs?: readonly string[];
  }>;
  /** Maps repair ids from the vectors (`"core"` means every core repair) to the implementation's repair rules; `undefined` when one is unknown. */
  resolveRepairs?(ids: readonly string[]): unknown[] | undefined;
}

/** The operations the vectors exercise. */
export type ConformanceOperation =
  | "decode"
  | "encode"
  | "validate"
  | "validateHistory"
  | "sanitize"
  | "prepareForTemplate"
  | "accumulate"
  | "decideStream"
  | "validateProvider"
  | "sanitizeProvider"
  | "providerVerdict"
  | "parseToolCalls"
  | "encodeToolCalls"
  | "readFencedJsonCalls"
  | "readMalformedFunctionCall"
  | "normalizeAnswer"
  | "render";

/** Every operation a vector can exercise, in the order the suite reports them. */
export const OPERATIONS: readonly ConformanceOperation[] = [
  "decode",
  "encode",
  "validate",
  "validateHistory",
  "sanitize",
  "prepareForTemplate",
  "accumulate",
  "decideStream",
  "validateProvider",
  "sanitizeProvider",
  "providerVerdict",
  "parseToolCalls",
  "encodeToolCalls",
  "readFencedJsonCalls",
  "readMalformedFunctionCall",
  "normalizeAnswer",
  "render",
];

/**
 * What is wrong with an implementation's declaration: an unknown level, an unknown operation, or a declared
 * operation without its function. A runner refuses such an implementation: a mistyped name is never a silent skip.
 *
 * @example
 * checkImplementation({ level: "mapping", operations: ["decode"] }); // ["operation decode is declared but has no function"]
 */
export function checkImplementation(implementation: ConformanceImplementation): string[] {
  const problems: string[] = [];
  if (typeof implementation !== "object" || implementation === null)
    return ["the implementation is not an object"];
  const level = implementation.level as unknown;
  if (level !== undefined && level !== "mapping" && level !== "full")
    problems.push(`level ${JSON.stringify(level)} is not "mapping" or "full"`);
  const declared = implementation.operations as unknown;
  if (declared !== undefined && !Array.isArray(declared)) problems.push("operations is not a list");
  for (const operation of Array.isArray(declared) ? (declared as unknown[]) : []) {
    if (!(OPERATIONS as readonly unknown[]).includes(operation))
      problems.push(`operation ${JSON.stringify(operation)} is not one of ${OPERATIONS.join(", ")}`);
    else if (typeof implementation[operation as ConformanceOperation] !== "function")
      problems.push(`operation ${String(operation)} is declared but has no function`);
  }
  return problems;
}
