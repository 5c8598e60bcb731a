import type { ProviderCheck } from "@toolcall/core/kit";

export type { ProviderCheck } from "@toolcall/core/kit";

/**
 * The check a command makes: the profiles named (`--provider`) for every conversation; else every profile for the
 * conversations with errors, unless the command prints nothing (`--quiet`: the exit code needs no verdict).
 *
 * @example
 * providerCheckOf(["mistral"], false); // { mode: "named", ids: ["mistral"] }
 * providerCheckOf(undefined, true); // undefined
 */
export function providerCheckOf(
  named: readonly string[] | undefined,
  quiet: boolean,
): ProviderCheck | undefined {
  if (named !== undefined && named.length > 0) return { mode: "named", ids: named };
  return quiet ? undefined : { mode: "errors" };
}
