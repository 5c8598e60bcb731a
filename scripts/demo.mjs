#!/usr/bin/env node
// The short demo of @toolcall/core on a bundled poisoned session: diagnose every reason a strict provider rejects
// it, repair it without losing anything the model emitted, and show that the repaired history validates clean.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { coreRepairs, sanitizeHistory, validateHistory } from "@toolcall/core";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
// `pnpm demo -- FILE` passes the `--` through.
const file = process.argv.slice(2).find((a) => a !== "--") ?? join(root, "examples", "poisoned-session.json");
const session = JSON.parse(readFileSync(file, "utf8"));
const messages = Array.isArray(session) ? session : session.messages;
const tools = Array.isArray(session) ? undefined : session.tools;

const bold = (s) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const where = (path) =>
  `messages[${path[0]}]${path
    .slice(1)
    .map((p) => (typeof p === "number" ? `[${p}]` : `.${p}`))
    .join("")}`;

console.log(bold(`Checking ${file}`));
const issues = validateHistory(messages, { tools });
for (const issue of issues)
  console.log(
    `  ${issue.severity.padEnd(7)} ${issue.code.padEnd(24)} ${where(issue.path)}  ${issue.message}`,
  );
const errors = issues.filter((i) => i.severity === "error").length;
console.log(
  `  ${issues.length} issues, ${errors} errors: ${errors > 0 ? "a strict provider rejects this history (HTTP 400)" : "a strict provider accepts it"}\n`,
);

console.log(bold("Repairing (policy preserve, core repairs enabled)"));
const { messages: repaired, changes } = sanitizeHistory(messages, { repairs: coreRepairs });
for (const change of changes) {
  const before =
    typeof change.before === "string"
      ? JSON.stringify(change.before)
      : change.before === undefined
        ? ""
        : "(message)";
  const after =
    typeof change.after === "string"
      ? JSON.stringify(change.after)
      : change.after === undefined
        ? ""
        : "(message)";
  console.log(
    `  ${change.rule.padEnd(26)} messages[${change.messageIndex}] ${change.toolCallId ?? ""}  ${before}${after ? ` -> ${after}` : ""}`,
  );
}
const after = validateHistory(repaired, { tools }).filter((i) => i.severity === "error");
console.log(`  ${changes.length} changes; errors left: ${after.length}\n`);

const out = join(root, "examples", "repaired-session.json");
writeFileSync(
  out,
  `${JSON.stringify({ ...(Array.isArray(session) ? {} : session), messages: repaired }, null, 2)}\n`,
);
console.log(bold(`Repaired session written to ${out}`));
const again = sanitizeHistory(repaired, { repairs: coreRepairs });
console.log(
  `Sanitizing it again changes nothing: ${again.changes.length === 0 && again.messages === repaired}`,
);
process.exitCode = after.length === 0 ? 0 : 1;
