import type { ProviderOption } from "./providers/provider-profiles.js";
import type { RepairRule } from "./repairs/repair-rule.js";
import type { SanitizeOptions } from "./sanitize-options.js";
import type { ToolCallSyntax } from "./tool-call-syntax.js";
import type { ToolcallReport } from "./toolcall-report.js";

/**
 * Which model syntaxes a door reads calls from when a server left them in `content`: syntax objects (from
 * `@toolcall/model-formats`' registry, `@toolcall/gemma-recovery`'s `gemma4`, or any core `ToolCallSyntax`), or
 * `"auto"` with the model's `chatTemplate`: the syntax that template writes (model-formats' detection), refused with
 * an error at construction when detection is not sure.
 *
 * @example
 * import type { ContentCallsOption } from "@toolcall/core";
 * const option: ContentCallsOption = "auto";
 */
export type ContentCallsOption = readonly ToolCallSyntax[] | "auto";

/**
 * The options every adapter takes, with the same names and meanings at every door (`guardFetch`, `guardOpenAI`, the
 * AI SDK middleware, `withSafeToolCalls`, `guardAnthropic`): an adapter may add its own, never rename or retype
 * these.
 *
 * @example
 * import { coreRepairs, type ToolcallOptions } from "@toolcall/core";
 *
 * const options: ToolcallOptions = { repairs: coreRepairs, provider: "anthropic", sanitize: { policy: "drop" } };
 */
export interface ToolcallOptions {
  /** The R6 repairs tried on argument text that is not JSON (none unless given). */
  repairs?: readonly RepairRule[];
  /** The strict provider whose constraints outgoing histories must meet (R4 with its profile). */
  provider?: ProviderOption;
  /** Sanitize outgoing histories (R4): `true` (the default) or R4's options, or `false` to send them as they are. */
  sanitize?: boolean | Omit<SanitizeOptions, "repairs" | "provider">;
  /** Model syntaxes whose calls, left in content by a server, are read into tool calls (R10); default none. */
  contentCalls?: ContentCallsOption;
  /** The model's chat template (Jinja source), for `contentCalls: "auto"`. */
  chatTemplate?: string;
  /**
   * Answers: a call whose arguments hold several distinct complete objects (`{"a":1}{"b":2}`) becomes one call per
   * object, with fresh ids (core's `splitMergedArguments`), whole answers and streams alike. Default `false`.
   */
  splitMergedCalls?: boolean;
  /** Called once per exchange that repaired, sanitized or recovered something, with its report. */
  onReport?: (report: ToolcallReport) => void;
}
