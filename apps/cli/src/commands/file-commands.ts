// The commands on conversation files (check, repair, undo): their options, read and checked, handed to the command.

import { join } from "node:path";
import { expandInputs } from "@toolcall/files/parts";
import {
  formatOption,
  jobs,
  maxFindings,
  maxLineBytes,
  providerOption,
  repairs,
} from "../input/option-values.js";
import { parse, usage } from "../input/usage.js";
import { globOptions, isDirectory, JOURNAL_SUFFIX, treeRepair } from "../pipeline/tree-options.js";
import { runCheck } from "./check.js";
import { CHECK_HELP, REPAIR_HELP, UNDO_HELP } from "./help.js";
import { runRepair } from "./repair.js";
import { runUndo } from "./undo.js";
import { runUndoTree } from "./undo-tree.js";

const checkOptions = {
  jobs: { type: "string" },
  json: { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
  summary: { type: "boolean" },
  "max-findings": { type: "string" },
  format: { type: "string" },
  provider: { type: "string", multiple: true },
  repair: { type: "string", multiple: true },
  "max-line-bytes": { type: "string" },
  include: { type: "string", multiple: true },
  exclude: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const;

const repairOptions = {
  output: { type: "string", short: "o" },
  "in-place": { type: "boolean" },
  "backup-suffix": { type: "string" },
  policy: { type: "string" },
  "missing-result": { type: "string" },
  repair: { type: "string", multiple: true },
  "synthetic-result": { type: "string" },
  pending: { type: "string" },
  format: { type: "string" },
  provider: { type: "string" },
  journal: { type: "string" },
  jobs: { type: "string" },
  json: { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
  summary: { type: "boolean" },
  "max-findings": { type: "string" },
  "max-line-bytes": { type: "string" },
  include: { type: "string", multiple: true },
  exclude: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const;

const undoOptions = {
  journal: { type: "string" },
  output: { type: "string", short: "o" },
  "in-place": { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
  help: { type: "boolean", short: "h" },
} as const;

export async function check(args: string[]): Promise<number> {
  const { values, positionals } = parse("check", args, checkOptions);
  if (values.help) {
    process.stdout.write(CHECK_HELP);
    return 0;
  }
  if (positionals.length === 0) usage("check", "give at least one FILE (- for standard input)");
  if (positionals.filter((file) => file === "-").length > 1)
    usage("check", "standard input (-) can be read once");
  const resolved = await repairs("check", values.repair);
  const format = formatOption("check", values.format);
  const providers = providerOption("check", values.provider, false);
  const findings = maxFindings("check", values["max-findings"]);
  const expanded = await expandInputs({
    paths: positionals,
    ...globOptions("check", values),
  });
  const result = await runCheck({
    files: expanded.files,
    unreadable: expanded.unreadable,
    skipped: expanded.skipped,
    json: values.json === true,
    quiet: values.quiet === true,
    summaryOnly: values.summary === true,
    ...(findings !== undefined ? { maxFindings: findings } : {}),
    ...(format !== undefined ? { format } : {}),
    ...(providers !== undefined ? { providers } : {}),
    repairs: resolved.rules,
    repairNames: values.repair ?? ["core"],
    jobs: jobs("check", values.jobs),
    jobsGiven: values.jobs !== undefined,
    maxLineBytes: maxLineBytes("check", values["max-line-bytes"]),
  });
  return result.exitCode;
}

export async function repair(args: string[]): Promise<number> {
  const { values, positionals } = parse("repair", args, repairOptions);
  if (values.help) {
    process.stdout.write(REPAIR_HELP);
    return 0;
  }
  const inPlace = values["in-place"] === true;
  if (positionals.length === 0) usage("repair", "give a FILE (- for standard input)");
  if (inPlace && values.output !== undefined) usage("repair", "choose -o OUT or --in-place, not both");
  if (!inPlace && values.output === undefined) {
    usage("repair", "say where to write: -o OUT, -o - for standard output, or --in-place (keeps a backup)");
  }
  const tree = await treeRepair({ positionals, output: values.output, journal: values.journal, inPlace });
  if (!inPlace && positionals.length > 1) {
    usage(
      "repair",
      `one FILE with -o (got ${positionals.length}; several repairs are --repair a,b; several files need --in-place)`,
    );
  }
  if (inPlace && positionals.includes("-")) usage("repair", "standard input cannot be repaired in place");
  const policy = values.policy ?? "preserve";
  if (policy !== "preserve" && policy !== "drop" && policy !== "empty") {
    usage("repair", `--policy is preserve, drop or empty, not ${JSON.stringify(policy)}`);
  }
  const missingResult = values["missing-result"] ?? "synthesize";
  if (missingResult !== "synthesize" && missingResult !== "drop-call") {
    usage("repair", `--missing-result is synthesize or drop-call, not ${JSON.stringify(missingResult)}`);
  }
  const pending = values.pending ?? "keep";
  if (pending !== "keep" && pending !== "synthesize" && pending !== "drop-call") {
    usage("repair", `--pending is keep, synthesize or drop-call, not ${JSON.stringify(pending)}`);
  }
  const suffix = values["backup-suffix"] ?? ".bak";
  if (suffix === "" || suffix.includes("/"))
    usage("repair", "--backup-suffix must be non-empty and name no directory");
  if (values.journal !== undefined && positionals.length > 1) {
    usage("repair", "--journal FILE takes one input file (repair the others in their own runs)");
  }
  if (
    values.journal !== undefined &&
    (values.journal === values.output || positionals.includes(values.journal))
  ) {
    usage("repair", "--journal names a file of its own, neither the input nor the output");
  }
  const resolved = await repairs("repair", values.repair);
  const format = formatOption("repair", values.format);
  const provider = providerOption(
    "repair",
    values.provider === undefined ? undefined : [values.provider],
    true,
  )?.[0];
  const findings = maxFindings("repair", values["max-findings"]);
  const expanded = await expandInputs({
    paths: positionals,
    ...globOptions("repair", values),
    skip: [values.output, values.journal].filter((path): path is string => path !== undefined),
  });
  const targets = new Map<string, { output?: string; journal?: string }>();
  for (const [file, place] of expanded.trees) {
    targets.set(file, {
      ...(tree?.output !== undefined ? { output: join(tree.output, place.relative) } : {}),
      ...(tree?.journal !== undefined
        ? { journal: join(tree.journal, `${place.relative}${JOURNAL_SUFFIX}`) }
        : {}),
    });
  }
  const result = await runRepair({
    files: expanded.files,
    targets,
    unreadable: expanded.unreadable,
    skipped: expanded.skipped,
    ...(values.output !== undefined ? { output: values.output } : {}),
    inPlace,
    backupSuffix: suffix,
    policy,
    missingResult,
    pending,
    repairs: resolved.rules,
    repairNames: values.repair ?? ["core"],
    jobs: jobs("repair", values.jobs),
    jobsGiven: values.jobs !== undefined,
    ...(values["synthetic-result"] !== undefined ? { syntheticResult: values["synthetic-result"] } : {}),
    ...(format !== undefined ? { format } : {}),
    ...(provider !== undefined ? { provider } : {}),
    ...(values.journal !== undefined && tree === undefined ? { journal: values.journal } : {}),
    json: values.json === true,
    quiet: values.quiet === true,
    summaryOnly: values.summary === true,
    ...(findings !== undefined ? { maxFindings: findings } : {}),
    maxLineBytes: maxLineBytes("repair", values["max-line-bytes"]),
  });
  return result.exitCode;
}

export async function undo(args: string[]): Promise<number> {
  const { values, positionals } = parse("undo", args, undoOptions);
  if (values.help) {
    process.stdout.write(UNDO_HELP);
    return 0;
  }
  if (positionals.length !== 1) usage("undo", "give one repaired FILE or directory (- for standard input)");
  if (values.journal === undefined) usage("undo", "give --journal FILE (the journal repair --journal wrote)");
  const inPlace = values["in-place"] === true;
  if (inPlace === (values.output !== undefined))
    usage("undo", "say where to write: -o OUT (- for standard output) or --in-place");
  if (inPlace && positionals[0] === "-") usage("undo", "standard input cannot be restored in place");
  if (await isDirectory(positionals[0] as string)) {
    if (values.output === "-")
      usage("undo", "a directory is restored to a directory: -o DIR/, not standard output");
    return runUndoTree({
      directory: positionals[0] as string,
      journal: values.journal,
      ...(values.output !== undefined ? { output: values.output } : {}),
      inPlace,
      quiet: values.quiet === true,
    });
  }
  return runUndo({
    file: positionals[0] as string,
    journal: values.journal,
    ...(values.output !== undefined ? { output: values.output } : {}),
    inPlace,
    quiet: values.quiet === true,
  });
}
