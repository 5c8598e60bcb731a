import type { SyntaxParseResult, ToolCallSyntax } from "@toolcall/core/kit";
import { getCompiledTemplate, TemplateError } from "@toolcall/jinja";
import {
  detectToolCallSyntax,
  type RoundTripDifference,
  type RoundTripResult,
  roundTrip,
  roundTripDifference,
  SYNTAX_IDS,
  syntaxById,
} from "@toolcall/model-formats";
import { readChatTemplate } from "../input/chat-template-file.js";
import { readText } from "../input/read-text.js";
import { createPainter, type Painter } from "../report/colors.js";
import { plural } from "../report/human-counts.js";
import { parseConversation, parseTools } from "./render.js";

/** What `toolcall roundtrip` takes: its flags, and the standard streams (tests pass their own). */
export interface RoundTripCommandOptions {
  /** The template file: a raw Jinja template, or a JSON config with `chat_template`; `-` for standard input. */
  template: string;
  /** The model's raw output (what it generated after the prompt); `-` for standard input. */
  output: string;
  /** The conversation before the turn (default: one user message); `-` for standard input. */
  messages?: string;
  /** A tool list used instead of the conversation's. */
  tools?: string;
  /** The syntax id (default: detected from the template). */
  syntax?: string;
  /** The named template to take from a config's list of templates. */
  templateName?: string;
  bosToken?: string;
  eosToken?: string;
  /** `--var NAME=VALUE`, over everything else. */
  variables: Record<string, unknown>;
  json: boolean;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/** The most read of each input: a model's turn, a template and a conversation are far smaller. */
export const ROUND_TRIP_MAX_BYTES = 16 * 1024 * 1024;

/** The conversation before the turn when none is given. */
const DEFAULT_MESSAGES = [{ role: "user", content: "Hello." }];

const METHODS = {
  option: "named with --syntax",
  render: "detected by differential rendering",
  signature: "detected by the template's signature",
} as const;

/** Text on one line: newlines, tabs and other control characters as escapes, a backslash doubled. */
function visible(text: string): string {
  return text.replace(/[\\\u0000-\u001f\u007f-\u009f]/g, (c) => {
    if (c === "\\") return "\\\\";
    if (c === "\n") return "\\n";
    if (c === "\t") return "\\t";
    if (c === "\r") return "\\r";
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

function summary(parsed: SyntaxParseResult | null): string {
  if (parsed === null) return "nothing parsed";
  const calls = parsed.toolCalls;
  const names = calls.length > 0 ? ` (${calls.map((call) => call.function.name).join(", ")})` : "";
  const text = (label: string, value: string | null) =>
    value === null ? `no ${label}` : `${label} ${plural([...value].length, "character")}`;
  return `${plural(calls.length, "call")}${names}, ${text("content", parsed.content)}, ${text("reasoning", parsed.reasoning)}`;
}

/** A trailing newline the model did not write (a file saved by an editor, `echo`). */
function hintFor(output: string, difference: RoundTripDifference | null): string | undefined {
  if (difference === null || difference.inPrompt) return undefined;
  if (/^\r?\n$/.test(output.slice(difference.offset)))
    return "the output ends with a newline where the rendering ends: a newline the file was saved with? (printf '%s' writes none)";
  return undefined;
}

function humanReport(
  file: string,
  result: RoundTripResult,
  difference: RoundTripDifference | null,
  how: string,
  hint: string | undefined,
  paint: Painter,
): string {
  const lines: string[] = [];
  const syntax = `syntax ${result.syntax}, ${how}`;
  if (result.ok) {
    lines.push(`${paint("bold", file)}: ${paint("green", "round trip byte-identical")} (${syntax})`);
    lines.push(
      `  the template renders the parsed message back as the model wrote it: ${summary(result.parsed)}`,
    );
  } else if (difference === null) {
    lines.push(`${paint("bold", file)}: ${paint("red", "no round trip")} (${syntax})`);
    lines.push(`  the template could not render the parsed message: ${result.error ?? "unknown error"}`);
    lines.push(`  parsed: ${summary(result.parsed)}`);
  } else {
    const where = difference.inPrompt
      ? "before the output begins: the template renders the turn's start otherwise than its generation prompt"
      : `at byte ${difference.byteOffset} (line ${difference.line}, column ${difference.column})`;
    lines.push(`${paint("bold", file)}: ${paint("red", "differs")} ${where}; ${syntax}`);
    const before = visible(difference.before);
    lines.push(
      `  output    ${before}${paint("green", visible(difference.output))}${difference.output === "" ? paint("dim", "(end)") : ""}`,
    );
    lines.push(
      `  rendered  ${before}${paint("red", visible(difference.rendered))}${difference.rendered === "" ? paint("dim", "(end)") : ""}`,
    );
    lines.push(`  ${" ".repeat(10 + [...before].length)}^`);
    lines.push(`  parsed: ${summary(result.parsed)}`);
  }
  for (const issue of result.parsed?.issues ?? [])
    lines.push(
      `  ${paint(issue.severity === "error" ? "red" : "yellow", issue.severity.padEnd(7))}  ${issue.code}  ${issue.message}`,
    );
  if (hint !== undefined) lines.push(`  hint: ${hint}`);
  return `${lines.join("\n")}\n`;
}

/**
 * `toolcall roundtrip`: parses a model's raw output with its family's tool-call syntax (detected from the template,
 * or `--syntax ID`), renders the parsed assistant message with the chat template (`@toolcall/model-formats`'
 * `roundTrip`, through `@toolcall/jinja`), and reports whether the rendering is the output byte for byte, or where
 * it first differs (byte offset, line and column, with the text around it). Exit 0 identical, 1 different (or the
 * template raised on the parsed message), 2 unreadable input, an unknown syntax, no syntax found, or bad usage.
 *
 * @example
 * const code = await runRoundTrip({ template: "chat_template.jinja", output: "raw.txt", variables: {}, json: false });
 */
export async function runRoundTrip(options: RoundTripCommandOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const stdin = options.stdin ? { stdin: options.stdin } : {};
  const fail = (message: string) => {
    stderr.write(`toolcall roundtrip: ${message}\n`);
    return 2;
  };
  const read = (path: string, refuseNul = false) =>
    readText({ path, ...stdin, maxBytes: ROUND_TRIP_MAX_BYTES, refuseNul });

  // A model's text holds no NUL; a file that does is not one (and is never parsed as one).
  const outputText = await read(options.output, true);
  if (!outputText.ok) return fail(`${options.output}: ${outputText.message}`);

  let messages: readonly unknown[] = DEFAULT_MESSAGES;
  let tools: readonly unknown[] | null = null;
  if (options.messages !== undefined) {
    const text = await read(options.messages);
    if (!text.ok) return fail(`${options.messages}: ${text.message}`);
    const conversation = parseConversation(text.text, options.messages);
    if (!conversation.ok) return fail(`${options.messages}: ${conversation.message}`);
    messages = conversation.value.messages;
    tools = conversation.value.tools ?? null;
  }
  if (options.tools !== undefined) {
    const text = await read(options.tools);
    if (!text.ok) return fail(`${options.tools}: ${text.message}`);
    const parsed = parseTools(text.text);
    if (!parsed.ok) return fail(`${options.tools}: ${parsed.message}`);
    tools = parsed.value;
  }

  const templateText = await read(options.template);
  if (!templateText.ok) return fail(`${options.template}: ${templateText.message}`);
  const template = readChatTemplate(templateText.text, {
    path: options.template,
    ...(options.templateName !== undefined ? { templateName: options.templateName } : {}),
    withTools: tools !== null,
  });
  if (!template.ok) return fail(`${options.template}: ${template.message}`);
  const source = template.template.source;
  try {
    getCompiledTemplate(source);
  } catch (error) {
    if (!TemplateError.isInstance(error)) throw error;
    stderr.write(`${error.pythonText}\n`);
    return 1;
  }

  let syntax: ToolCallSyntax | undefined;
  let method: keyof typeof METHODS = "option";
  if (options.syntax !== undefined) {
    syntax = syntaxById(options.syntax);
    if (syntax === undefined)
      return fail(`unknown syntax ${JSON.stringify(options.syntax)} (known: ${SYNTAX_IDS.join(", ")})`);
  } else {
    const detected = detectToolCallSyntax(source);
    syntax = detected.id === null ? undefined : syntaxById(detected.id);
    if (syntax === undefined || detected.method === "none")
      return fail(
        `${options.template}: no known tool-call syntax found in the template; name one with --syntax ID (${SYNTAX_IDS.join(", ")})`,
      );
    method = detected.method;
  }

  const variables: Record<string, unknown> = {
    ...template.template.specialTokens,
    ...(options.bosToken !== undefined ? { bos_token: options.bosToken } : {}),
    ...(options.eosToken !== undefined ? { eos_token: options.eosToken } : {}),
    ...options.variables,
  };
  const output = outputText.text;
  const result = roundTrip({ template: source, output, messages, tools, syntax, variables });
  const difference = roundTripDifference(result, output);
  const hint = hintFor(output, difference);
  if (options.json) {
    const name = template.template.name;
    const report = {
      command: "roundtrip",
      template: options.template,
      ...(name !== undefined ? { templateName: name } : {}),
      output: options.output,
      bytes: Buffer.byteLength(output, "utf8"),
      syntax: { id: syntax.id, family: syntax.name, method },
      ok: result.ok,
      difference,
      ...(result.error !== undefined ? { error: result.error } : {}),
      ...(hint !== undefined ? { hint } : {}),
      parsed: result.parsed,
      message: result.message,
      ...(result.argumentsForm !== undefined ? { argumentsForm: result.argumentsForm } : {}),
      generationPrompt: result.generationPrompt,
      rendered: result.rendered,
    };
    stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } else {
    const paint = createPainter({ stream: stdout as NodeJS.WriteStream });
    stdout.write(humanReport(options.output, result, difference, METHODS[method], hint, paint));
  }
  return result.ok ? 0 : 1;
}
