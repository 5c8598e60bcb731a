import type { ProviderProfile } from "../providers/provider-profile.js";
import { listProviderProfiles, resolveProviderProfile } from "../providers/provider-profiles.js";
import { type ProviderFinding, providerVerdict } from "../providers/provider-verdict.js";

/**
 * Which provider profiles a conversation is checked against. `errors`: every profile, for conversations core's rules
 * find errors in (each error then names the providers that reject it); `named`: the profiles named, for every
 * conversation (their own constraints become issues too).
 */
export type ProviderCheck = { mode: "errors" } | { mode: "named"; ids: readonly string[] };

/** An issue of core's, placed: the fields a provider finding is matched on. */
interface Located {
  code: string;
  severity: string;
  path: ReadonlyArray<string | number>;
}

let order: Map<string, number> | undefined;

/** A profile's place in core's listing (profiles are named in that order). */
function listed(id: string): number {
  order ??= new Map(listProviderProfiles().map((profile, i) => [profile.id, i]));
  return order.get(id) ?? order.size;
}

/** Arguments issues are one family: a provider refuses the arguments' text, whatever core calls what is wrong. */
function family(code: string): string {
  return code.startsWith("arguments_") ? "arguments" : code;
}

/** One path is a prefix of the other (a call and its arguments, a message and its calls), message index included. */
function overlaps(a: ReadonlyArray<string | number>, b: ReadonlyArray<string | number>): boolean {
  const n = Math.min(a.length, b.length);
  if (n === 0) return false;
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

const resolved = new Map<string, ProviderProfile>();

/**
 * Profiles by id, resolved once each (a worker resolves them again).
 *
 * @example
 * profilesOf(["mistral"])[0].id; // "mistral"
 */
export function profilesOf(ids: readonly string[]): ProviderProfile[] {
  return ids.map((id) => {
    let profile = resolved.get(id);
    if (profile === undefined) {
      profile = resolveProviderProfile(id);
      resolved.set(id, profile);
    }
    return profile;
  });
}

/**
 * The findings of the profiles a check names for one conversation (none when it asks for nothing).
 *
 * @example
 * providerFindings({ messages, issues, check: { mode: "named", ids: ["anthropic"] } });
 */
export function providerFindings(options: {
  messages: readonly unknown[];
  issues: readonly Located[];
  check: ProviderCheck | undefined;
}): ProviderFinding[] {
  const { messages, issues, check } = options;
  if (check === undefined) return [];
  if (check.mode === "errors") {
    if (!issues.some((found) => found.severity === "error")) return [];
    return providerVerdict(messages).findings;
  }
  return providerVerdict(messages, { providers: profilesOf(check.ids) }).findings;
}

/**
 * Matches provider findings to core's issues: each error gets the profiles that reject the same thing (same code, or
 * both about a call's arguments, at the same place or one inside the other); a call awaiting its result (a pending
 * warning) takes the providers' "missing result" with it, as no request sends it so (docs/decisions.md, "A call
 * awaiting its result"). Returns the profiles per issue (in the issues' order) and the findings no issue accounts for.
 *
 * @example
 * const { refusedBy, unmatched } = matchFindings({ issues, findings });
 * refusedBy[0]; // ["vllm", "llama.cpp", …] for an arguments_invalid_json error
 */
export function matchFindings(options: {
  issues: readonly Located[];
  findings: readonly ProviderFinding[];
}): { refusedBy: Array<string[] | undefined>; unmatched: ProviderFinding[] } {
  const { issues, findings } = options;
  const used = new Set<ProviderFinding>();
  const refusedBy = issues.map((found) => {
    if (found.code === "tool_result_pending") {
      for (const finding of findings)
        if (finding.code === "tool_result_missing" && overlaps(finding.path, found.path)) used.add(finding);
      return undefined;
    }
    if (found.severity !== "error") return undefined;
    const names: string[] = [];
    for (const finding of findings) {
      if (family(finding.code) !== family(found.code) || !overlaps(finding.path, found.path)) continue;
      used.add(finding);
      for (const name of finding.rejectedBy) if (!names.includes(name)) names.push(name);
    }
    return names.sort((a, b) => listed(a) - listed(b));
  });
  return { refusedBy, unmatched: findings.filter((finding) => !used.has(finding)) };
}

/**
 * A finding as an issue's message: who answers what, in the provider's own words (the first one's; the others are in
 * `answers`).
 *
 * @example
 * findingMessage(finding); // 'mistral 400, mistral-vllm 400: "Tool call id was call_w1 but must be a-z, A-Z, 0-9, with a length of 9."'
 */
export function findingMessage(finding: ProviderFinding): string {
  const who = finding.errors.map((error) => `${error.provider} ${error.status}`).join(", ");
  return `${who}: ${JSON.stringify(finding.errors[0]?.message ?? "")}`;
}
