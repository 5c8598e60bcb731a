import type { ConstraintCode } from "./provider-profile.js";
import { listProviderProfiles, type ProviderOption, resolveProviderProfile } from "./provider-profiles.js";
import { validateForProvider } from "./validate-for-provider.js";

/** One thing in a history that some providers reject: where, and who rejects it with which words. */
export interface ProviderFinding {
  code: ConstraintCode;
  path: Array<string | number>;
  /** The profiles that reject it, in listing order. */
  rejectedBy: string[];
  /** Each rejecting profile's answer: HTTP status and literal error text. */
  errors: Array<{ provider: string; status: number; message: string }>;
}

/** Which providers would reject a history, and why. */
export interface ProviderVerdict {
  /** Profiles that would reject the history (any finding). */
  rejectedBy: string[];
  /** Profiles that would accept it as it is. */
  acceptedBy: string[];
  /** Each finding once (same code, same path), with every profile that rejects it; in history order. */
  findings: ProviderFinding[];
}

/**
 * Checks a history against every provider profile (or the ones given) and says, for each thing in it that some
 * provider rejects, which ones do and in what words: the verdict a tool can print without knowing where the
 * history goes next. `validateHistory(messages, { provider })` gives one profile's issues in full.
 *
 * @example
 * const verdict = providerVerdict([
 *   { role: "user", content: "list files" },
 *   { role: "assistant", content: null, tool_calls: [{ id: "functions.Bash:0", type: "function", function: { name: "Bash", arguments: "{}" } }] },
 *   { role: "tool", tool_call_id: "functions.Bash:0", content: "a.txt" },
 * ]);
 * verdict.findings[0].rejectedBy; // ["anthropic", "bedrock-converse", "mistral", "mistral-vllm"]
 * verdict.acceptedBy.includes("openai-chat"); // true
 */
export function providerVerdict(
  messages: readonly unknown[],
  options: { providers?: readonly ProviderOption[] } = {},
): ProviderVerdict {
  const profiles = (options.providers ?? listProviderProfiles()).map(resolveProviderProfile);
  const byKey = new Map<string, ProviderFinding & { at: number }>();
  const rejectedBy: string[] = [];
  const acceptedBy: string[] = [];
  for (const profile of profiles) {
    const issues = validateForProvider(messages, { provider: profile });
    (issues.length > 0 ? rejectedBy : acceptedBy).push(profile.id);
    for (const issue of issues) {
      const key = `${issue.code} ${JSON.stringify(issue.path)}`;
      let finding = byKey.get(key);
      if (finding === undefined) {
        finding = {
          code: issue.code,
          path: issue.path,
          rejectedBy: [],
          errors: [],
          at: typeof issue.path[0] === "number" ? issue.path[0] : 0,
        };
        byKey.set(key, finding);
      }
      if (!finding.rejectedBy.includes(profile.id)) {
        finding.rejectedBy.push(profile.id);
        finding.errors.push({ provider: profile.id, status: issue.status, message: issue.message });
      }
    }
  }
  const findings = [...byKey.values()].sort((a, b) => a.at - b.at).map(({ at: _, ...finding }) => finding);
  return { rejectedBy, acceptedBy, findings };
}
