import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { getProviderProfile, listProviderProfiles, parseJson } from "@toolcall/core";
import packageJson from "../package.json";
import { runCheck } from "./commands/check.js";
import { runConformanceCommand } from "./commands/conformance.js";
import { runDefault } from "./commands/default-run.js";
import { runFormats } from "./commands/formats.js";
import { runProviders } from "./commands/providers.js";
import { runRender } from "./commands/render.js";
import { runRepair } from "./commands/repair.js";
import { runUndo } from "./commands/undo.js";
import { ALL_FORMATS, formatById } from "./formats.js";
import {
  CHECK_HELP,
  CONFORMANCE_HELP,
  FORMATS_HELP,
  MAIN_HELP,
  PROBE_HELP,
  PROVIDERS_HELP,
  RENDER_HELP,
  REPAIR_HELP,
  ROUNDTRIP_HELP,
  UNDO_HELP,
} from "./help.js";
import { removeTemporaryFiles } from "./output-target.js";
import { resolveRepairs } from "./repair-registry.js";

/**
 * The default and the largest --max-line-bytes: 256 MiB, far beyond any real conversation. A line is held in memory a
 * few times over while it is read, checked, repaired and written; a longer one is streamed through unread
 * (`line_too_long`), so memory stays bounded whatever a file holds.
 */
const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;

class UsageError extends Error {}

function usage(command: string, message: string): never {
  throw new UsageError(`toolcall ${command}: ${message}\nSee: toolcall ${command} --help`);
}

function parse<T extends NonNullable<ParseArgsConfig["options"]>>(
  command: string,
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options, allowPositionals: true as const, strict: true as const });
  } catch (error) {
    return usage(command, error instanceof Error ? error.message : String(error));
  }
}

const UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  k: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
};

/** `600MB` (powers of 1000), `256MiB` or `256M` (powers of 1024), or plain bytes. */
function parseSize(value: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([a-zA-Z]*)$/.exec(value.trim());
  const unit = match ? UNITS[(match[2] as string).toLowerCase()] : undefined;
  if (!match || unit === undefined) return undefined;
  const bytes = Math.round(Number(match[1]) * unit);
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}

function maxLineBytes(command: string, value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_LINE_BYTES;
  const bytes = parseSize(value);
  if (bytes === undefined)
    usage(command, `--max-line-bytes wants a size (268435456, 100MB, 256MiB), got ${value}`);
  if (bytes > DEFAULT_MAX_LINE_BYTES) {
    usage(
      command,
      `--max-line-bytes is at most 256 MiB (268435456 bytes), got ${value}: a line is held in memory a few times over while it is read and rewritten; longer lines are passed through unread (line_too_long), in bounded memory`,
    );
  }
  return bytes;
}

function maxFindings(command: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!Number.isSafeInteger(count) || count < 0) usage(command, `--max-findings wants a count, got ${value}`);
  return count;
}

/** `--jobs N`: worker threads for JSONL; default one per core the machine offers (at most 8). */
function jobs(command: string, value: string | undefined): number {
  if (value === undefined) return Math.min(8, availableParallelism());
  const count = Number(value);
  if (!Number.isSafeInteger(count) || count < 1 || count > 64)
    usage(command, `--jobs wants 1 to 64, got ${value}`);
  return count;
}

/**
 * `--provider ID` (repeatable, or `a,b`; `all` for every profile): the provider profiles named, checked to exist.
 * `single`: one profile at most (a repair makes a history one provider accepts).
 */
function providerOption(command: string, values: readonly string[] | undefined, single: boolean) {
  if (values === undefined) return undefined;
  const ids = values.flatMap((value) => value.split(",")).map((id) => id.trim());
  const every = listProviderProfiles().map((profile) => profile.id);
  const named = ids.includes("all") ? every : ids;
  for (const id of named) {
    if (getProviderProfile(id) === undefined)
      usage(
        command,
        `--provider is one of ${every.join(", ")}${single ? "" : " (or all)"}; not ${JSON.stringify(id)}`,
      );
  }
  if (single && named.length !== 1)
    usage(command, "--provider names one profile here (a history is made for one provider at a time)");
  return [...new Set(named)];
}

function formatOption(command: string, value: string | undefined) {
  if (value === undefined) return undefined;
  const format = formatById(value);
  if (format === undefined) {
    usage(
      command,
      `--format is one of ${ALL_FORMATS.map((f) => f.id).join(", ")}; not ${JSON.stringify(value)}`,
    );
  }
  return format;
}

/** What `toolcall` run without a command repairs with (it shows the names in the commands it suggests). */
const DEFAULT_RUN_REPAIRS = ["core", "gemma-quote-markers"];

async function repairs(command: string, names: readonly string[] | undefined) {
  const resolved = await resolveRepairs(names === undefined || names.length === 0 ? ["core"] : names);
  if (!resolved.ok) usage(command, resolved.error);
  return resolved;
}

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
  help: { type: "boolean", short: "h" },
} as const;

const undoOptions = {
  journal: { type: "string" },
  output: { type: "string", short: "o" },
  "in-place": { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
  help: { type: "boolean", short: "h" },
} as const;

const providersOptions = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const formatsOptions = {
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const conformanceOptions = {
  implementation: { type: "string" },
  export: { type: "string" },
  skip: { type: "string", multiple: true },
  rules: { type: "string" },
  level: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const renderOptions = {
  template: { type: "string" },
  "template-name": { type: "string" },
  messages: { type: "string" },
  tools: { type: "string" },
  "add-generation-prompt": { type: "boolean" },
  var: { type: "string", multiple: true },
  "bos-token": { type: "string" },
  "eos-token": { type: "string" },
  now: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const probeOptions = {
  template: { type: "string" },
  "template-name": { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const roundtripOptions = {
  template: { type: "string" },
  "template-name": { type: "string" },
  output: { type: "string" },
  messages: { type: "string" },
  tools: { type: "string" },
  syntax: { type: "string" },
  var: { type: "string", multiple: true },
  "bos-token": { type: "string" },
  "eos-token": { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Names the command sets itself (flags), which --var must not shadow. */
const RENDER_OWN_VARIABLES: Record<string, string> = {
  messages: "--messages",
  tools: "--tools",
  add_generation_prompt: "--add-generation-prompt",
};

/** `--var NAME=VALUE`: VALUE is JSON when it parses as JSON (numbers kept exact), else the text itself. */
function templateVariables(
  values: readonly string[] | undefined,
  command = "render",
): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const entry of values ?? []) {
    const equals = entry.indexOf("=");
    const name = equals === -1 ? entry : entry.slice(0, equals);
    if (equals === -1 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      usage(command, `--var wants NAME=VALUE with NAME an identifier, got ${JSON.stringify(entry)}`);
    const own =
      command === "roundtrip" && name === "add_generation_prompt"
        ? "the round trip itself"
        : RENDER_OWN_VARIABLES[name];
    if (own !== undefined) usage(command, `${name} is set by ${own}, not --var`);
    const text = entry.slice(equals + 1);
    const parsed = parseJson(text, { lossless: true });
    Object.defineProperty(variables, name, {
      value: parsed.ok ? parsed.value : text,
      writable: true,
      enumerable: true,
      configurable: true,
    });
  }
  return variables;
}

/** `--now`: an ISO 8601 date or date and time; without an offset it is local time, as Python's datetime.now(). */
function clock(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const iso = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/.exec(
    value,
  );
  // A date alone is local midnight (JavaScript would read it as UTC).
  const date = iso ? new Date(`${iso[1]}T${iso[2] ?? "00:00"}${iso[3] ?? ""}`) : undefined;
  if (date === undefined || Number.isNaN(date.getTime()))
    usage(
      "render",
      `--now wants an ISO 8601 date or time (2026-01-02T03:04:05), got ${JSON.stringify(value)}`,
    );
  return date;
}

async function render(args: string[]): Promise<number> {
  const { values, positionals } = parse("render", args, renderOptions);
  if (values.help) {
    process.stdout.write(RENDER_HELP);
    return 0;
  }
  if (positionals.length > 0) usage("render", `unexpected argument ${positionals[0]}`);
  if (values.template === undefined) usage("render", "give --template FILE");
  if (values.messages === undefined) usage("render", "give --messages FILE (- for standard input)");
  if ([values.template, values.messages, values.tools].filter((file) => file === "-").length > 1)
    usage("render", "standard input (-) can be read once");
  const now = clock(values.now);
  return runRender({
    template: values.template,
    messages: values.messages,
    ...(values.tools !== undefined ? { tools: values.tools } : {}),
    ...(values["template-name"] !== undefined ? { templateName: values["template-name"] } : {}),
    addGenerationPrompt: values["add-generation-prompt"] === true,
    ...(values["bos-token"] !== undefined ? { bosToken: values["bos-token"] } : {}),
    ...(values["eos-token"] !== undefined ? { eosToken: values["eos-token"] } : {}),
    variables: templateVariables(values.var),
    ...(now !== undefined ? { now } : {}),
  });
}

async function probe(args: string[]): Promise<number> {
  const { values, positionals } = parse("probe", args, probeOptions);
  if (values.help) {
    process.stdout.write(PROBE_HELP);
    return 0;
  }
  if (positionals.length > 0) usage("probe", `unexpected argument ${positionals[0]}`);
  if (values.template === undefined) usage("probe", "give --template FILE");
  // Loaded when asked for: the syntaxes of every model family are no part of check's or repair's start.
  const { runProbe } = await import("./commands/probe.js");
  return runProbe({
    template: values.template,
    ...(values["template-name"] !== undefined ? { templateName: values["template-name"] } : {}),
    json: values.json === true,
  });
}

async function roundtrip(args: string[]): Promise<number> {
  const { values, positionals } = parse("roundtrip", args, roundtripOptions);
  if (values.help) {
    process.stdout.write(ROUNDTRIP_HELP);
    return 0;
  }
  if (positionals.length > 0) usage("roundtrip", `unexpected argument ${positionals[0]}`);
  if (values.template === undefined) usage("roundtrip", "give --template FILE");
  if (values.output === undefined)
    usage("roundtrip", "give --output RAW (the model's raw text; - for standard input)");
  if (
    [values.template, values.output, values.messages, values.tools].filter((file) => file === "-").length > 1
  )
    usage("roundtrip", "standard input (-) can be read once");
  if (values.syntax === "") usage("roundtrip", "--syntax wants an id (toolcall probe tells a template's)");
  const { runRoundTrip } = await import("./commands/roundtrip.js");
  return runRoundTrip({
    template: values.template,
    output: values.output,
    ...(values.messages !== undefined ? { messages: values.messages } : {}),
    ...(values.tools !== undefined ? { tools: values.tools } : {}),
    ...(values.syntax !== undefined ? { syntax: values.syntax } : {}),
    ...(values["template-name"] !== undefined ? { templateName: values["template-name"] } : {}),
    ...(values["bos-token"] !== undefined ? { bosToken: values["bos-token"] } : {}),
    ...(values["eos-token"] !== undefined ? { eosToken: values["eos-token"] } : {}),
    variables: templateVariables(values.var, "roundtrip"),
    json: values.json === true,
  });
}

async function check(args: string[]): Promise<number> {
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
  const result = await runCheck({
    files: positionals,
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

async function repair(args: string[]): Promise<number> {
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
  const result = await runRepair({
    files: positionals,
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
    ...(values.journal !== undefined ? { journal: values.journal } : {}),
    json: values.json === true,
    quiet: values.quiet === true,
    summaryOnly: values.summary === true,
    ...(findings !== undefined ? { maxFindings: findings } : {}),
    maxLineBytes: maxLineBytes("repair", values["max-line-bytes"]),
  });
  return result.exitCode;
}

async function undo(args: string[]): Promise<number> {
  const { values, positionals } = parse("undo", args, undoOptions);
  if (values.help) {
    process.stdout.write(UNDO_HELP);
    return 0;
  }
  if (positionals.length !== 1) usage("undo", "give one repaired FILE (- for standard input)");
  if (values.journal === undefined) usage("undo", "give --journal FILE (the journal repair --journal wrote)");
  const inPlace = values["in-place"] === true;
  if (inPlace === (values.output !== undefined))
    usage("undo", "say where to write: -o OUT (- for standard output) or --in-place");
  if (inPlace && positionals[0] === "-") usage("undo", "standard input cannot be restored in place");
  return runUndo({
    file: positionals[0] as string,
    journal: values.journal,
    ...(values.output !== undefined ? { output: values.output } : {}),
    inPlace,
    quiet: values.quiet === true,
  });
}

function formats(args: string[]): number {
  const { values, positionals } = parse("formats", args, formatsOptions);
  if (values.help) {
    process.stdout.write(FORMATS_HELP);
    return 0;
  }
  if (positionals.length > 0) usage("formats", `unexpected argument ${positionals[0]}`);
  return runFormats({ json: values.json === true });
}

function providers(args: string[]): number {
  const { values, positionals } = parse("providers", args, providersOptions);
  if (values.help) {
    process.stdout.write(PROVIDERS_HELP);
    return 0;
  }
  return runProviders({ ids: positionals, json: values.json === true });
}

async function conformance(args: string[]): Promise<number> {
  const { values, positionals } = parse("conformance", args, conformanceOptions);
  if (values.help) {
    process.stdout.write(CONFORMANCE_HELP);
    return 0;
  }
  if (values.implementation === undefined) usage("conformance", "give --implementation MODULE");
  if (positionals.length > 0) usage("conformance", `unexpected argument ${positionals[0]}`);
  if (values.level !== undefined && values.level !== "mapping" && values.level !== "full")
    usage("conformance", `--level is mapping or full, not ${values.level}`);
  return runConformanceCommand({
    ...(values.level !== undefined ? { level: values.level as "mapping" | "full" } : {}),
    implementation: values.implementation,
    ...(values.export !== undefined ? { exportName: values.export } : {}),
    skip: values.skip ?? [],
    ...(values.rules !== undefined ? { rules: values.rules.split(",").map((rule) => rule.trim()) } : {}),
    json: values.json === true,
  });
}

async function main(args: string[]): Promise<number> {
  // `pnpm start -- check FILE` hands the "--" on: it ends no option list here, so it is dropped.
  const argv = args[0] === "--" ? args.slice(1) : args;
  const [command, ...rest] = argv;
  switch (command) {
    case undefined: {
      const resolved = await repairs("", DEFAULT_RUN_REPAIRS);
      return runDefault({
        repairs: resolved.rules,
        repairNames: DEFAULT_RUN_REPAIRS,
        maxLineBytes: DEFAULT_MAX_LINE_BYTES,
      });
    }
    case "-h":
    case "--help":
    case "help":
      process.stdout.write(MAIN_HELP);
      return 0;
    case "-V":
    case "--version":
      process.stdout.write(`${packageJson.version}\n`);
      return 0;
    case "check":
      return check(rest);
    case "repair":
      return repair(rest);
    case "undo":
      return undo(rest);
    case "formats":
      return formats(rest);
    case "providers":
      return providers(rest);
    case "conformance":
      return conformance(rest);
    case "render":
      return render(rest);
    case "probe":
      return probe(rest);
    case "roundtrip":
      return roundtrip(rest);
    default:
      if (!command.startsWith("-") && rest.length === 0 && existsSync(command)) {
        const resolved = await repairs("", DEFAULT_RUN_REPAIRS);
        return runDefault({
          file: command,
          repairs: resolved.rules,
          repairNames: DEFAULT_RUN_REPAIRS,
          maxLineBytes: DEFAULT_MAX_LINE_BYTES,
        });
      }
      process.stderr.write(
        `toolcall: unknown command ${JSON.stringify(command)}${command.startsWith("-") ? "" : " (and no such file)"}\nSee: toolcall --help\n`,
      );
      return 2;
  }
}

// An interrupted repair removes its temporary file; the destination is untouched (it is only ever renamed into).
for (const [signal, number] of [
  ["SIGINT", 2],
  ["SIGTERM", 15],
  ["SIGHUP", 1],
] as const) {
  process.once(signal, () => {
    removeTemporaryFiles();
    process.exit(128 + number);
  });
}

// The reader of standard output went away (`| head`): stop quietly, as a process killed by SIGPIPE would, whichever
// command was writing.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  removeTemporaryFiles();
  process.exit(141);
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.message}\n`);
    } else if ((error as { code?: string })?.code === "EPIPE") {
      // The reader of a pipe went away (`| head`): stop quietly, as a process killed by SIGPIPE would.
      process.exitCode = 141;
      return;
    } else {
      process.stderr.write(`toolcall: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    process.exitCode = 2;
  },
);
