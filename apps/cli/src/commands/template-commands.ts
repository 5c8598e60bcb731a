// The commands on chat templates (render, probe, roundtrip): their options, read and checked, handed to the command.
import { parseJson } from "@toolcall/core";
import { parse, usage } from "../input/usage.js";
import { PROBE_HELP, RENDER_HELP, ROUNDTRIP_HELP } from "./help.js";
import { runRender } from "./render.js";

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
      value: parsed.success ? parsed.value : text,
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

export async function render(args: string[]): Promise<number> {
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

export async function probe(args: string[]): Promise<number> {
  const { values, positionals } = parse("probe", args, probeOptions);
  if (values.help) {
    process.stdout.write(PROBE_HELP);
    return 0;
  }
  if (positionals.length > 0) usage("probe", `unexpected argument ${positionals[0]}`);
  if (values.template === undefined) usage("probe", "give --template FILE");
  // Loaded when asked for: the syntaxes of every model family are no part of check's or repair's start.
  const { runProbe } = await import("./probe.js");
  return runProbe({
    template: values.template,
    ...(values["template-name"] !== undefined ? { templateName: values["template-name"] } : {}),
    json: values.json === true,
  });
}

export async function roundtrip(args: string[]): Promise<number> {
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
  const { runRoundTrip } = await import("./roundtrip.js");
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
