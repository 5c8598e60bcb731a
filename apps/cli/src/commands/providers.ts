import { getProviderProfile, listProviderProfiles } from "@toolcall/core";
import type { ProviderProfile } from "@toolcall/core/kit";

/** A profile's line in the list: id, name, what it was checked against and when, how many constraints. */
function summaryLine(profile: ProviderProfile, width: number): string {
  const checked = profile.checkedAgainst;
  const count = profile.constraints.length;
  return `${profile.id.padEnd(width)}  ${profile.name}: ${count} constraint${count === 1 ? "" : "s"} (${checked.api}; checked ${checked.date})`;
}

/** One profile in full: each constraint's code, status, literal text, fix and evidence. */
function details(profile: ProviderProfile): string {
  const checked = profile.checkedAgainst;
  const lines = [
    `${profile.id}  ${profile.name}`,
    `  checked against ${checked.api} (${checked.models.join(", ")}) on ${checked.date}`,
  ];
  if (profile.note !== undefined) lines.push(`  note: ${profile.note}`);
  const width = Math.max(...profile.constraints.map((constraint) => constraint.code.length));
  for (const constraint of profile.constraints) {
    lines.push(
      `  ${constraint.code.padEnd(width)}  ${constraint.status}  ${JSON.stringify(constraint.message)}`,
      `  ${" ".repeat(width)}       ${constraint.summary} Fix: ${constraint.fix} (${constraint.evidence}: ${constraint.sources.join(", ")})`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/**
 * `toolcall providers [ID…]`: the provider profiles of `@toolcall/core` that `check --provider` and
 * `repair --provider` use, each with what it rejects; with ids, those profiles in full; `--json` for machines.
 * Exit 2 when an id names no profile.
 *
 * @example
 * runProviders({ ids: [], json: false }); // one line per profile
 * runProviders({ ids: ["mistral"], json: false }); // Mistral's constraints with their literal error texts
 */
export function runProviders(options: {
  ids: readonly string[];
  json: boolean;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}): number {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const all = listProviderProfiles();
  const chosen: ProviderProfile[] = [];
  for (const id of options.ids) {
    const profile = getProviderProfile(id);
    if (profile === undefined) {
      stderr.write(
        `toolcall providers: no provider profile ${JSON.stringify(id)}; the profiles are ${all.map((p) => p.id).join(", ")}\n`,
      );
      return 2;
    }
    chosen.push(profile);
  }
  if (options.json) {
    const providers = chosen.length > 0 ? chosen : all;
    stdout.write(`${JSON.stringify({ command: "providers", providers })}\n`);
    return 0;
  }
  if (chosen.length > 0) {
    stdout.write(chosen.map(details).join("\n"));
    return 0;
  }
  const width = Math.max(...all.map((profile) => profile.id.length));
  stdout.write(`${all.map((profile) => summaryLine(profile, width)).join("\n")}\n`);
  return 0;
}
