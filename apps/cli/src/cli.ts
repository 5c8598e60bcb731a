import { existsSync } from "node:fs";
import { removeTemporaryFiles } from "@toolcall/files/parts";
import packageJson from "../package.json";
import { runConformanceCommand } from "./commands/conformance.js";
import { runDefault } from "./commands/default-run.js";
import { check, repair, undo } from "./commands/file-commands.js";
import { runFormats } from "./commands/formats.js";
import { CONFORMANCE_HELP, FORMATS_HELP, MAIN_HELP, PROVIDERS_HELP } from "./commands/help.js";
import { runProviders } from "./commands/providers.js";
import { probe, render, roundtrip } from "./commands/template-commands.js";
import { DEFAULT_MAX_LINE_BYTES, DEFAULT_RUN_REPAIRS, repairs } from "./input/option-values.js";
import { parse, UsageError, usage } from "./input/usage.js";

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
