import type { Issue } from "@toolcall/core";

/**
 * One issue, placed in its record as the record's format names places: core's one issue shape, its `path` leading
 * through the neutral view (message index first), or through the record for an issue of the record's own shape.
 */
export interface PlacedIssue extends Issue<string> {
  /** Where in the record (`messages[3].tool_calls[0]`, `conversations[4]`, `record 12 (payload)`). */
  place?: string;
  /** Which conversation of the record (`choices[1]`), for records that hold several. */
  label?: string;
  callId?: string;
  /**
   * The provider profiles that reject a history with this issue (errors, when provider profiles were checked; empty
   * when none of those checked does).
   */
  refusedBy?: readonly string[];
  /** For an issue a provider profile found: each rejecting profile's answer, HTTP status and literal text. */
  answers?: ReadonlyArray<{ provider: string; status: number; message: string }>;
}
