// Tool (a): a chat template, messages, tools and variables → the exact prompt transformers would render, the
// template's capabilities (the probe), its tool-call syntax (detection), or the error Python would raise. No DOM
// here: the page and the tests call the same function.
import {
  type ArgumentNote,
  type ChatTemplateCapabilities,
  getCompiledTemplate,
  probeChatTemplate,
  renderArgumentNotes,
  safeRenderChatTemplate,
} from "@toolcall/jinja";
import { type DetectedSyntax, detectToolCallSyntax } from "@toolcall/model-formats";

export interface TemplateInputs {
  source: string;
  /** JSON text: a list of messages in wire form. */
  messages: string;
  /** JSON text: a list of tools, or `null` / empty for none. */
  tools: string;
  /** JSON text: an object of template variables (`bos_token`, `enable_thinking`, …). */
  variables: string;
  addGenerationPrompt: boolean;
  /** `YYYY-MM-DD HH:MM:SS`, the clock `strftime_now` reads. */
  now: string;
}

/** A template error as Python raises it. */
export interface PythonError {
  /** The exception's class name (`TemplateError`, `TypeError`, `UndefinedError`, …). */
  type: string;
  message: string;
  /** `Type: message`, as the reference renderer prints it. */
  pythonText: string;
  /** The last line of Python's traceback: jinja2's own exceptions are named by their module. */
  tracebackLine: string;
}

/** The inputs, read: each field's value, or why it could not be read. */
export interface ReadInputs {
  messages?: unknown[];
  tools?: unknown[] | null;
  variables?: Record<string, unknown>;
  now?: Date;
  /** One line per field that is not what it should be (`messages: Unexpected token …`). */
  errors: string[];
}

export interface TemplateReport {
  inputs: ReadInputs;
  render?: { ok: true; text: string } | { ok: false; error: PythonError };
  capabilities?: ChatTemplateCapabilities;
  /** The calls whose arguments the template gets otherwise than as their JSON (what the command line's render notes). */
  argumentNotes: ArgumentNote[];
  detected?: DetectedSyntax;
  /** The template's own special tokens from the variables (`bos_token`, `eos_token`), for display. */
  tokens: string[];
}

// jinja2.exceptions' classes; anything else (TypeError, ValueError, …) is a built-in.
const JINJA_EXCEPTIONS = new Set([
  "TemplateError",
  "TemplateSyntaxError",
  "TemplateRuntimeError",
  "UndefinedError",
  "SecurityError",
  "TemplateAssertionError",
]);

/**
 * An error as Python shows it.
 *
 * @example
 * pythonError("TemplateError", "bad turn").tracebackLine; // "jinja2.exceptions.TemplateError: bad turn"
 */
export function pythonError(type: string, message: string): PythonError {
  const pythonText = `${type}: ${message}`;
  return {
    type,
    message,
    pythonText,
    tracebackLine: JINJA_EXCEPTIONS.has(type) ? `jinja2.exceptions.${pythonText}` : pythonText,
  };
}

/**
 * `YYYY-MM-DD HH:MM:SS` as a local date (transformers' `strftime_now` formats local time), or `undefined`.
 *
 * @example
 * parseClock("2026-01-02 03:04:05")?.getHours(); // 3
 */
export function parseClock(text: string): Date | undefined {
  const match = /^\s*(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})\s*$/.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, hh, mm, ss] = match.map(Number) as number[];
  const date = new Date(y ?? 0, (mo ?? 1) - 1, d, hh, mm, ss);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function parseJson(
  label: string,
  text: string,
  errors: string[],
): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    errors.push(`${label}: ${(error as Error).message}`);
    return { ok: false };
  }
}

/**
 * Reads the JSON fields of the inputs, saying what is wrong with each.
 *
 * @example
 * readInputs({ ...inputs, messages: "[" }).errors; // ["messages: Unexpected end of JSON input"]
 */
export function readInputs(inputs: Omit<TemplateInputs, "source" | "addGenerationPrompt">): ReadInputs {
  const errors: string[] = [];
  const read: ReadInputs = { errors };
  const messages = parseJson("messages", inputs.messages, errors);
  if (messages.ok) {
    if (Array.isArray(messages.value)) read.messages = messages.value;
    else errors.push("messages: not a list");
  }
  if (inputs.tools.trim() === "") read.tools = null;
  else {
    const tools = parseJson("tools", inputs.tools, errors);
    if (tools.ok) {
      if (tools.value === null || Array.isArray(tools.value)) read.tools = tools.value as unknown[] | null;
      else errors.push("tools: not a list (or null)");
    }
  }
  if (inputs.variables.trim() === "") read.variables = {};
  else {
    const variables = parseJson("variables", inputs.variables, errors);
    if (variables.ok) {
      const value = variables.value;
      if (typeof value === "object" && value !== null && !Array.isArray(value))
        read.variables = value as Record<string, unknown>;
      else errors.push("variables: not an object");
    }
  }
  const now = parseClock(inputs.now);
  if (now) read.now = now;
  else errors.push(`clock: ${JSON.stringify(inputs.now)} is not YYYY-MM-DD HH:MM:SS`);
  return read;
}

/**
 * Renders, probes and detects. The render is `safeRenderChatTemplate` of `@toolcall/jinja`: the prompt
 * transformers' `apply_chat_template(…, tokenize=False)` gives, or the error Python raises.
 *
 * @example
 * runTemplateTool({ source, messages: "[]", tools: "", variables: "{}", addGenerationPrompt: true, now: "2026-01-02 03:04:05" });
 */
export function runTemplateTool(inputs: TemplateInputs): TemplateReport {
  const read = readInputs(inputs);
  const variables = read.variables ?? {};
  const tokens = ["bos_token", "eos_token", "pad_token", "unk_token"]
    .map((key) => variables[key])
    .filter((value): value is string => typeof value === "string");
  const report: TemplateReport = { inputs: read, tokens, argumentNotes: [] };
  let compiled: ReturnType<typeof getCompiledTemplate>;
  try {
    compiled = getCompiledTemplate(inputs.source);
  } catch (error) {
    const { type, message } = error as { type?: string; message?: string };
    report.render = {
      ok: false,
      error: pythonError(type ?? "TemplateSyntaxError", message ?? String(error)),
    };
    return report;
  }
  try {
    report.capabilities = probeChatTemplate(compiled);
  } catch {
    // The probe renders small conversations; a template that raises on all of them has no capabilities to show.
  }
  report.detected = detectToolCallSyntax(compiled);
  if (read.messages === undefined || read.errors.some((line) => !line.startsWith("clock"))) return report;
  const result = safeRenderChatTemplate({
    template: compiled,
    messages: read.messages,
    tools: read.tools ?? null,
    addGenerationPrompt: inputs.addGenerationPrompt,
    variables,
    ...(read.now ? { now: read.now } : {}),
  });
  report.argumentNotes = renderArgumentNotes(read.messages, {
    argumentsForm: report.capabilities?.argumentsForm ?? "mapping",
  });
  report.render = result.ok
    ? { ok: true, text: result.text }
    : { ok: false, error: pythonError(result.error.type, result.error.message) };
  return report;
}
