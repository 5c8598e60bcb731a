import type { ProviderOption } from "./providers/provider-profiles.js";
import type { RepairRule } from "./repairs/repair-rule.js";
import type { SanitizeOptions } from "./sanitize-options.js";
import type { ToolCallSyntax } from "./tool-call-syntax.js";

/**
 * The options every adapter takes, with the same names and meanings at every door (`guardFetch`, `guardOpenAI`, the
 * AI SDK middleware, `withSafeToolCalls`…): an adapter may add its own, never rename or retype these.
 * `Report` is what the adapter hands to `onReport` (its report of each exchange).
 *
 * @example
 * import { coreRepairs, type ToolcallOptions } from "@toolcall/core";
 *
 * const options: ToolcallOptions = { repairs: coreRepairs, provider: "anthropic", sanitize: { policy: "drop" } };
 */
export interface ToolcallOptions<Report = unknown> {
  /** The R6 repairs tried on argument text that is not JSON (none unless given). */
  repairs?: readonly RepairRule[];
  /** The strict provider whose constraints outgoing histories must meet (R4 with its profile). */
  provider?: ProviderOption;
  /** Sanitize outgoing histories: on (`true`, or the options of R4), or off (`false`). */
  sanitize?: boolean | Omit<SanitizeOptions, "repairs" | "provider">;
  /** Model syntaxes whose calls, left in content by a server, are read into tool calls (R7, R8, R10). */
  contentCalls?: readonly ToolCallSyntax[];
  /** Called with what was repaired, sanitized or recovered. */
  onReport?: (report: Report) => void;
}
