/** An issue as the suite compares it (RULES.md R3). */
export interface ConformanceIssue {
  code: string;
  severity: string;
  path?: Array<string | number>;
}

/** A decode outcome as the suite compares it (RULES.md R1). */
export interface ConformanceDecodeResult {
  arguments: unknown;
  status: string;
  repairs?: readonly string[];
  raw?: unknown;
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
  decode?(input: unknown, options: ConformanceOptions): MaybePromise<ConformanceDecodeResult>;
  encode?(input: unknown, options: ConformanceOptions): MaybePromise<string>;
  validate?(call: unknown, options: ConformanceOptions): MaybePromise<readonly ConformanceIssue[]>;
  validateHistory?(messages: unknown, options: ConformanceOptions): MaybePromise<readonly ConformanceIssue[]>;
  sanitize?(
    messages: unknown,
    options: ConformanceOptions,
  ): MaybePromise<{ messages: unknown; changes: readonly { rule: string }[] }>;
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
  /** Renders a chat template as transformers does (R8). */
  render?(input: ConformanceRenderInput, options: ConformanceOptions): MaybePromise<ConformanceRenderResult>;
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
  | "render";

export const OPERATIONS: readonly ConformanceOperation[] = [
  "decode",
  "encode",
  "validate",
  "validateHistory",
  "sanitize",
  "prepareForTemplate",
  "accumulate",
  "render",
];
