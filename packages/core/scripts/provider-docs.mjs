#!/usr/bin/env node
// Writes what core's provider profiles say, in the two places other readers need it: docs/providers.md (the table
// provider → constraint → error text → fix) and @toolcall/conformance's provider-profiles.json (the same data for
// implementations in other languages). `node packages/core/scripts/provider-docs.mjs` after `pnpm build`; a test
// in core fails when either file is not what the profiles give.

import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
export const DOCS_PATH = join(here, "../../../docs/providers.md");
export const JSON_PATH = join(here, "../../conformance/provider-profiles.json");

/** Text in a Markdown code span that holds it whatever backticks it contains. */
function code(text) {
  const runs = text.match(/`+/g) ?? [];
  const fence = "`".repeat(Math.max(0, ...runs.map((run) => run.length)) + 1);
  const pad = text.startsWith("`") || text.endsWith("`") ? " " : "";
  return `${fence}${pad}${text}${pad}${fence}`.replace(/\|/g, "\\|");
}

function cell(text) {
  return String(text).replace(/\|/g, "\\|").replace(/\n/g, " ");
}

function sourceLink(source) {
  const issue = /^([\w.-]+\/[\w.-]+)#(\d+)$/.exec(source);
  if (issue) return `[${source}](https://github.com/${issue[1]}/issues/${issue[2]})`;
  if (/^https?:\/\//.test(source)) return `<${source}>`;
  return source;
}

/** docs/providers.md for these profiles. */
export function renderProviderTable(profiles) {
  const lines = [
    "# What each provider rejects in a history",
    "",
    "Generated from the provider profiles of `@toolcall/core` (`listProviderProfiles()`) by",
    "`packages/core/scripts/provider-docs.mjs`; do not edit by hand. `validateHistory(messages, { provider })` reports",
    "these with the provider's own words filled in; `sanitizeHistory(messages, { provider })` applies the fix.",
    "",
    "Evidence: **documented** (the provider's docs or source code say so), **reported** (the literal text was seen in",
    "the public reports named), **inferred** (could not be checked: our reading of related evidence). Placeholders in",
    "braces are filled from the history (`{index}` numbered as the provider numbers messages); `…` where the history",
    "cannot tell.",
    "",
    "| profile | provider | checked against | rejects |",
    "| --- | --- | --- | --- |",
  ];
  for (const profile of profiles) {
    const checked = `${profile.checkedAgainst.models.join(", ")} (${profile.checkedAgainst.date})`;
    const codes = profile.constraints.map((c) => `\`${c.code}\``).join(", ");
    lines.push(
      `| [\`${profile.id}\`](#${profile.id.replace(/\./g, "")}) | ${cell(profile.name)} | ${cell(checked)} | ${codes} |`,
    );
  }
  for (const profile of profiles) {
    lines.push("", `## ${profile.id}`, "", `${profile.name}: ${code(profile.checkedAgainst.api)}.`);
    lines.push(`Checked ${profile.checkedAgainst.date} against ${profile.checkedAgainst.models.join(", ")}.`);
    if (profile.note) lines.push("", cell(profile.note));
    lines.push(
      "",
      "| constraint | rejects | status | error text | fix | evidence |",
      "| --- | --- | --- | --- | --- | --- |",
    );
    for (const c of profile.constraints) {
      const evidence = [
        `**${c.evidence}**`,
        c.sources.map(sourceLink).join(", "),
        c.note ? cell(c.note) : "",
        ...(c.variants ?? []).map((variant) => `also seen: ${code(variant)}`),
      ]
        .filter(Boolean)
        .join("<br>");
      lines.push(
        `| \`${c.code}\` | ${cell(c.summary)} | ${c.status} | ${code(c.message)} | ${cell(c.fix)} | ${evidence} |`,
      );
    }
  }
  return `${lines.join("\n")}\n`;
}

/** provider-profiles.json for these profiles. */
export function renderProfilesJson(profiles) {
  const data = {
    $comment:
      "Generated from @toolcall/core's provider profiles by packages/core/scripts/provider-docs.mjs; do not edit. The meaning of each field and check is in VECTORS.md (Provider profiles).",
    version: 1,
    profiles,
  };
  return `${JSON.stringify(data, null, 2)}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const core = await import("../dist/index.js");
  const profiles = core.listProviderProfiles();
  writeFileSync(DOCS_PATH, renderProviderTable(profiles));
  writeFileSync(JSON_PATH, renderProfilesJson(profiles));
  console.log(`wrote ${DOCS_PATH} and ${JSON_PATH}`);
}
