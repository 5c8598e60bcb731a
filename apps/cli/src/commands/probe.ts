import {
  type ChatTemplateCapabilities,
  getCompiledTemplate,
  probeChatTemplate,
  TemplateError,
} from "@toolcall/jinja";
import { type DetectedSyntax, detectToolCallSyntax, syntaxById } from "@toolcall/model-formats";
import { readChatTemplate } from "../input/chat-template-file.js";
import { readText } from "../input/read-text.js";
import { createPainter, type Painter, type Style } from "../report/colors.js";

/** What `toolcall probe` takes: its flags, and the standard streams (tests pass their own). */
export interface ProbeOptions {
  /** The template file: a raw Jinja template, or a JSON config with `chat_template`; `-` for standard input. */
  template: string;
  /** The named template to take from a config's list of templates (default: `tool_use`, else `default`). */
  templateName?: string;
  json: boolean;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/** The rows of the table, in order: what each capability means. */
const ROWS: readonly {
  key: Exclude<keyof ChatTemplateCapabilities, "argumentsForm">;
  label: string;
  meaning: string;
}[] = [
  {
    key: "toolCalls",
    label: "tool calls",
    meaning: "an assistant message's tool call appears in the prompt",
  },
  {
    key: "parallelToolCalls",
    label: "parallel calls",
    meaning: "two calls in one assistant message both appear",
  },
  { key: "toolCallIds", label: "call ids", meaning: "a call's id appears (in the call or in its result)" },
  { key: "toolResponses", label: "tool responses", meaning: "a tool message's content appears" },
  { key: "systemRole", label: "system role", meaning: "a system message's content appears" },
  {
    key: "nullContent",
    label: "null content",
    meaning: "a tool-calling assistant message with content null renders",
  },
  { key: "tools", label: "tools", meaning: "the tool list given in tools appears" },
];

const FORM_MEANING = {
  mapping: "arguments reach the template as an object (render decodes their JSON text)",
  string: "arguments reach the template as JSON text (render passes the wire text unchanged)",
} as const;

/** The tool-call syntax a template writes, as `probe` reports it (`--json`'s `syntax`). */
export interface ProbedSyntax {
  /** The syntax id (`hermes`, `glm47`, `qwen3-coder`, …), or `null` when the template writes none known. */
  id: string | null;
  /** The family, in words. */
  family: string | null;
  /** The package entry point that parses it. */
  module: string | null;
  /** The texts that start a call in this syntax. */
  markers: string[];
  /** The generation prompt opens a reasoning block: the model's text starts inside it. */
  startInReasoning: boolean;
  /** Two calls in one message render. */
  parallelCalls: boolean;
  /** `render`: differential rendering; `signature`: the template's source holds the family's markers; `none`. */
  method: DetectedSyntax["method"];
  /** What the template wrote for one probe call (`null` unless found by rendering). */
  callText: string | null;
  /** Every syntax whose writing the render holds. */
  candidates: string[];
}

const METHOD_WORDS = {
  render: "found by differential rendering",
  signature: "found by the template's signature (rendering told nothing)",
  none: "neither rendering nor the template's source shows a known syntax",
} as const;

/** The detected syntax, with what its implementation says of itself. */
export function probeSyntax(source: string): ProbedSyntax {
  const detected = detectToolCallSyntax(source);
  const syntax = detected.id === null ? undefined : syntaxById(detected.id);
  return {
    id: detected.id,
    family: syntax?.name ?? null,
    module: detected.module,
    markers: syntax === undefined ? [] : [...syntax.startMarkers],
    startInReasoning: detected.startInReasoning,
    parallelCalls: detected.parallelCalls,
    method: detected.method,
    callText: detected.callText,
    candidates: detected.candidates,
  };
}

function syntaxRows(syntax: ProbedSyntax, width: number, paint: Painter): string[] {
  const row = (label: string, value: string, color: Style, meaning: string) =>
    `  ${label.padEnd(width)}  ${paint(color, value.padEnd(7))}  ${meaning}`;
  if (syntax.id === null) return [row("syntax", "none", "yellow", METHOD_WORDS[syntax.method])];
  return [
    row("syntax", syntax.id, "cyan", `${syntax.family ?? ""}, ${METHOD_WORDS[syntax.method]}`),
    row(
      "markers",
      syntax.markers.map((marker) => JSON.stringify(marker)).join(" "),
      "cyan",
      "a call starts here",
    ),
    row(
      "in reasoning",
      syntax.startInReasoning ? "yes" : "no",
      syntax.startInReasoning ? "green" : "yellow",
      "the generation prompt opens a reasoning block: the model's text starts inside it",
    ),
    row("parser", syntax.module ?? "", "cyan", "the package that parses, streams and encodes it"),
  ];
}

function table(
  file: string,
  name: string | undefined,
  capabilities: ChatTemplateCapabilities,
  syntax: ProbedSyntax,
  paint: Painter,
): string {
  const width = Math.max("arguments form".length, ...ROWS.map((row) => row.label.length));
  const lines = [paint("bold", name === undefined ? file : `${file} (template ${JSON.stringify(name)})`)];
  const form = capabilities.argumentsForm;
  lines.push(`  ${"arguments form".padEnd(width)}  ${paint("cyan", form.padEnd(7))}  ${FORM_MEANING[form]}`);
  for (const row of ROWS) {
    const value = capabilities[row.key];
    lines.push(
      `  ${row.label.padEnd(width)}  ${paint(value ? "green" : "yellow", (value ? "yes" : "no").padEnd(7))}  ${row.meaning}`,
    );
  }
  lines.push(...syntaxRows(syntax, width, paint));
  return `${lines.join("\n")}\n`;
}

/**
 * `toolcall probe`: what a chat template can render, learned by rendering small conversations with needles in
 * them (`@toolcall/jinja`'s `probeChatTemplate`, never by model name): the argument form (mapping or string), tool
 * calls, parallel calls, call ids, tool responses, the system role, `content: null` on a tool-calling turn, and the
 * tool list; and the tool-call syntax it writes (`@toolcall/model-formats`' `detectToolCallSyntax`: its id, family,
 * markers, whether calls start in reasoning, and how it was found). A table, or JSON with `--json`. Exit 0 probed, 1 the template does not compile, 2 unreadable input.
 *
 * @example
 * const code = await runProbe({ template: "chat_template.jinja", json: true });
 */
export async function runProbe(options: ProbeOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const read = await readText({ path: options.template, ...(options.stdin ? { stdin: options.stdin } : {}) });
  const file = options.template;
  if (!read.ok) {
    stderr.write(`toolcall probe: ${file}: ${read.message}\n`);
    return 2;
  }
  // The template transformers would use for a conversation with tools: the probe asks about tool calling.
  const template = readChatTemplate(read.text, {
    path: file,
    ...(options.templateName !== undefined ? { templateName: options.templateName } : {}),
    withTools: true,
  });
  if (!template.ok) {
    stderr.write(`toolcall probe: ${file}: ${template.message}\n`);
    return 2;
  }
  let capabilities: ChatTemplateCapabilities;
  try {
    capabilities = probeChatTemplate(getCompiledTemplate(template.template.source));
  } catch (error) {
    if (!TemplateError.isInstance(error)) throw error;
    stderr.write(`${error.pythonText}\n`);
    return 1;
  }
  const name = template.template.name;
  const syntax = probeSyntax(template.template.source);
  if (options.json) {
    stdout.write(
      `${JSON.stringify({ command: "probe", template: file, ...(name !== undefined ? { templateName: name } : {}), capabilities, syntax }, null, 2)}\n`,
    );
  } else {
    stdout.write(
      table(file, name, capabilities, syntax, createPainter({ stream: stdout as NodeJS.WriteStream })),
    );
  }
  return 0;
}
