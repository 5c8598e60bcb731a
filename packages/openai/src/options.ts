import type { DecodeStatus, Issue, ProviderOption, SanitizeChange, SanitizeOptions } from "@toolcall/core";
import type { RepairRule } from "@toolcall/core/kit";

/** Where a change was made. */
export type RepairSource = "request" | "response" | "stream";

/** Which OpenAI API the change belongs to. */
export type OpenAIApi = "chat.completions" | "responses";

/** One tool call's arguments as a response or stream returned them, and what they became. */
export interface ArgumentsReport {
  kind: "arguments";
  api: OpenAIApi;
  source: Exclude<RepairSource, "request">;
  /** Chat Completions: the choice; Responses: the output item's index. */
  index: number;
  toolCallId: string | undefined;
  name: string | undefined;
  /** What decoding found (R1); `repaired` lists its repairs. */
  status: DecodeStatus;
  repairs: string[];
  /** R3 issues of the call as it arrived. */
  issues: Issue[];
  /**
   * Whether a tool can run on the call. A call that cannot (cut by a length stop, not JSON, not an object) keeps the
   * model's own text: a fresh answer never turns it into text that parses.
   */
  usable: boolean;
  /** Whether the arguments text changed. */
  changed: boolean;
  before: unknown;
  after: unknown;
  /**
   * Streams: how what the client received ends. `exact`: `after` byte for byte; `equivalent`: the same JSON value,
   * spaced as the fragments already sent were; `conflict`: fragments already sent could not begin the repaired
   * text, so the client got the model's text (the call is as unusable as it came).
   */
  fit?: "exact" | "equivalent" | "conflict";
  /**
   * Whole answers: the call's text held several calls merged (`{"a":1}{"b":2}`), and the answer now holds one call
   * per entry, with these ids (the first is the call's own). Core's `splitMergedArguments` decides.
   */
  split?: { id: string; arguments: string }[];
  /**
   * Streams: final frames that repeated the call's complete arguments (R9), as the server sent them. The client got
   * the arguments once, without these frames' text; the repairs end in `frame_repeated`.
   */
  repeats?: string[];
}

/** One change sanitizing a request's history made (R4). */
export interface HistoryReport {
  kind: "history";
  api: OpenAIApi;
  source: "request";
  change: SanitizeChange;
}

/** What `onRepair` receives: a report on one call's arguments, or on an outgoing history. */
export type RepairReport = ArgumentsReport | HistoryReport;

/** What every entry point of this package takes. */
export interface OpenAIRepairOptions {
  /** Repairs (R6) tried on arguments that fail strict JSON; e.g. `[...coreRepairs, gemmaQuoteMarkers]`. Default: none. */
  repairs?: readonly RepairRule[];
  /** Nesting limit for arguments text (default 1000); deeper text is `invalid`. */
  maxDepth?: number;
  /** Requests: sanitize the history (R4): `true` (the default) or R4's options, or `false` to send it as it is. */
  sanitize?: boolean | Omit<SanitizeOptions, "repairs" | "provider">;
  /**
   * Requests: the provider the history goes to (`"mistral"`, `"deepseek-v4-thinking"`, `"openai-responses"` …, or a
   * profile of your own): after R4, what that provider rejects is fixed too (core's `listProviderProfiles()`).
   */
  provider?: ProviderOption;
  /** Called for every change, and for every call whose arguments were not clean object text. */
  onRepair?: (report: RepairReport) => void;
  /**
   * Chat Completions answers, whole and streamed: a call whose arguments hold several calls merged
   * (`{"a":1}{"b":2}`) becomes one call per object, the first with its id, the others with `<id>_2`, `<id>_3`…
   * (core's `splitMergedArguments`, the stream's by core's `StreamDecider`; reported with `split`). Default `false`.
   * Histories: `sanitize.splitMergedCalls` (on by default).
   */
  splitMergedCalls?: boolean;
  /**
   * Answers: the tools the request advertised (`tools` of the request). Given, each call's arguments are typed by its
   * tool's JSON Schema, lossless conversions only (core's `schemaTypedArguments`; `repairs` lists `schema-types`).
   * Histories: `sanitize.tools`.
   */
  tools?: readonly unknown[];
}

/**
 * The options `sanitizeHistory` gets from this package's options: always the same eight fields, so every call hands
 * core an object of one shape.
 *
 * @example
 * sanitizeOptionsOf({ repairs: coreRepairs, sanitize: { policy: "drop" } });
 * // { policy: "drop", missingResult: undefined, pendingCalls: undefined, syntheticResult: undefined, splitMergedCalls: undefined, tools: undefined, repairs: coreRepairs, provider: undefined }
 */
export function sanitizeOptionsOf(options: OpenAIRepairOptions): SanitizeOptions {
  const sanitize = typeof options.sanitize === "object" ? options.sanitize : undefined;
  return {
    policy: sanitize?.policy,
    missingResult: sanitize?.missingResult,
    pendingCalls: sanitize?.pendingCalls,
    syntheticResult: sanitize?.syntheticResult,
    splitMergedCalls: sanitize?.splitMergedCalls,
    tools: sanitize?.tools,
    repairs: options.repairs ?? [],
    provider: options.provider,
  };
}
