import { existsSync } from "node:fs";
import { type ParseArgsConfig, parseArgs } from "node:util";
import { parseJson } from "@toolcall/core";
import packageJson from "../package.json";
import { runCheck } from "./commands/check.js";
import { runConformanceCommand } from "./commands/conformance.js";
import { runDefault } from "./commands/default-run.js";
import { runProbe } from "./commands/probe.js";
import { runRender } from "./commands/render.js";
import { runRepair } from "./commands/repair.js";
import { CHECK_HELP, CONFORMANCE_HELP, MAIN_HELP, PROBE_HELP, RENDER_HELP, REPAIR_HELP } from "./help.js";
import { removeTemporaryFiles } from "./output-target.js";
import { resolveRepairs } from "./repair-registry.js";

/** The default for --max-line-bytes: 256 MiB, far beyond any real conversation, well within one V8 string. */
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

function maxLineBytes(command: string, value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_LINE_BYTES;
  const bytes = Number(value);
  if (!Number.isSafeInteger(bytes) || bytes <= 0)
    usage(command, `--max-line-bytes wants a positive integer, got ${value}`);
  return bytes;
}

/** What `toolcall` run without a command repairs with (it shows the names in the commands it suggests). */
const DEFAULT_RUN_REPAIRS = ["core", "gemma-quote-markers"];

async function repairs(command: string, names: readonly string[] | undefined) {
  const resolved = await resolveRepairs(names === undefined || names.length === 0 ? ["core"] : names);
  if (!resolved.ok) usage(command, resolved.error);
  return resolved;
}

const checkOptions = {
  json: { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
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
  json: { type: "boolean" },
  quiet: { type: "boolean", short: "q" },
  "max-line-bytes": { type: "string" },
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

/** Names the command sets itself (flags), which --var must not shadow. */
const RENDER_OWN_VARIABLES: Record<string, string> = {
  messages: "--messages",
  tools: "--tools",
  add_generation_prompt: "--add-generation-prompt",
};

/** `--var NAME=VALUE`: VALUE is JSON when it parses as JSON (numbers kept exact), else the text itself. */
function templateVariables(values: readonly string[] | undefined): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const entry of values ?? []) {
    const equals = entry.indexOf("=");
    const name = equals === -1 ? entry : entry.slice(0, equals);
    if (equals === -1 || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      usage("render", `--var wants NAME=VALUE with NAME an identifier, got ${JSON.stringify(entry)}`);
    const own = RENDER_OWN_VARIABLES[name];
    if (own !== undefined) usage("render", `${name} is set by ${own}, not --var`);
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
  return runProbe({
    template: values.template,
    ...(values["template-name"] !== undefined ? { templateName: values["template-name"] } : {}),
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
  const result = await runCheck({
    files: positionals,
    json: values.json === true,
    quiet: values.quiet === true,
    repairs: resolved.rules,
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
  const suffix = values["backup-suffix"] ?? ".bak";
  if (suffix === "" || suffix.includes("/"))
    usage("repair", "--backup-suffix must be non-empty and name no directory");
  const resolved = await repairs("repair", values.repair);
  const result = await runRepair({
    files: positionals,
    ...(values.output !== undefined ? { output: values.output } : {}),
    inPlace,
    backupSuffix: suffix,
    policy,
    missingResult,
    repairs: resolved.rules,
    ...(values["synthetic-result"] !== undefined ? { syntheticResult: values["synthetic-result"] } : {}),
    json: values.json === true,
    quiet: values.quiet === true,
    maxLineBytes: maxLineBytes("repair", values["max-line-bytes"]),
  });
  return result.exitCode;
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

async function main(argv: string[]): Promise<number> {
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
    case "conformance":
      return conformance(rest);
    case "render":
      return render(rest);
    case "probe":
      return probe(rest);
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
