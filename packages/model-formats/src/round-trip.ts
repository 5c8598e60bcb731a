import type { SyntaxParseResult, ToolCallSyntax } from "@toolcall/core/kit";
import {
  getCompiledTemplate,
  probeChatTemplate,
  safeRenderChatTemplate,
  type Template,
} from "@toolcall/jinja";
import { detectToolCallSyntax, opensReasoning } from "./detect-tool-call-syntax.js";
import { syntaxById } from "./registry.js";
import { turnEndings, withoutStopText } from "./turn-endings.js";

/** What {@link roundTrip} takes. */
export interface RoundTripOptions {
  /** The chat template (Jinja source or compiled). */
  template: string | Template;
  /** The model's raw text: what it generated after the prompt. */
  output: string;
  /** The conversation before the assistant turn (OpenAI messages, wire form). */
  messages: readonly unknown[];
  /** The tools of the request: they type values and are rendered into the prompt. */
  tools?: readonly unknown[] | null;
  /** The family's syntax (default: detected from the template with `detectToolCallSyntax`, among this package's). */
  syntax?: ToolCallSyntax;
  /** Template variables (`bos_token`, `eos_token`, `enable_thinking`, …). */
  variables?: Record<string, unknown>;
  /** The text starts inside a reasoning block (default: when the generation prompt ends with `<think>`). */
  startInReasoning?: boolean;
  /**
   * The clock `strftime_now` reads (Hunyuan's template prints the date and time). Default: the time `roundTrip`
   * starts, read once, so that every render it compares shows the same time.
   */
  now?: Date;
}

/** What {@link roundTrip} found. */
export interface RoundTripResult {
  /** The rendered assistant turn is the generation prompt followed by the output, byte for byte. */
  ok: boolean;
  /** Where the rendered turn first differs from the output (an index into `output`); -1 when identical. */
  firstDifference: number;
  /** The difference lies in the generation prompt, before the output starts (the template renders a past turn's header otherwise). */
  inPrompt: boolean;
  /** The syntax used (`null` when none was given or found). */
  syntax: string | null;
  parsed: SyntaxParseResult | null;
  /** The assistant message built from the parse (with the `content` that rendered). */
  message: Record<string, unknown> | null;
  /** How the calls' arguments reached the template: the mapping it iterates, or the wire text. */
  argumentsForm?: "mapping" | "string";
  /** What the template appends for a prompt (`add_generation_prompt`). */
  generationPrompt: string;
  /** What the template renders for the assistant turn, from the end of the conversation. */
  rendered: string;
  /** Why the check could not run (the template raised, no syntax). */
  error?: string;
}

const NEEDLE = "\u0000roundtrip-needle\u0000";

function render(
  template: Template,
  messages: readonly unknown[],
  options: RoundTripOptions & { now: Date },
  addGenerationPrompt: boolean,
  argumentsForm?: "mapping" | "string",
): { ok: true; text: string } | { ok: false; error: string } {
  const result = safeRenderChatTemplate({
    template,
    messages,
    tools: options.tools ?? null,
    addGenerationPrompt,
    variables: { bos_token: "<s>", eos_token: "</s>", ...options.variables },
    now: options.now,
    ...(argumentsForm === undefined ? {} : { argumentsForm }),
  });
  return result.ok ? result : { ok: false, error: result.error.pythonText };
}

/**
 * `rendered` is `expected` followed by the last part of `ending`, from a marker on: a template's end of turn may be
 * several tokens, and a server strips only the stop token among them (Command R7B's answer ends with
 * `<|END_RESPONSE|>` and then `<|END_OF_TURN_TOKEN|>`, the token the model stops on). What is missing starts as the
 * ending starts (a marker, not the middle of one).
 */
function endsWithPartOf(rendered: string, expected: string, ending: string): boolean {
  if (!rendered.startsWith(expected)) return false;
  const rest = rendered.slice(expected.length);
  if (rest.trim() === "" || !ending.endsWith(rest)) return false;
  return rest.trimStart().charCodeAt(0) === ending.trimStart().charCodeAt(0);
}

function firstDifference(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) return i;
  return a.length === b.length ? -1 : n;
}

/** The assistant message a parse stands for, as an OpenAI-compatible server returns it. */
export function assistantMessage(parsed: SyntaxParseResult): Record<string, unknown> {
  const message: Record<string, unknown> = { role: "assistant" };
  const calls = parsed.toolCalls;
  message.content = parsed.content ?? (calls.length > 0 ? null : "");
  if (calls.length > 0) message.tool_calls = calls;
  if (parsed.reasoning !== null) {
    // Qwen, GLM, Kimi and DeepSeek templates read `reasoning_content`; gpt-oss reads `thinking`.
    message.reasoning_content = parsed.reasoning;
    message.thinking = parsed.reasoning;
  }
  return message;
}

/**
 * The round trip RL rollouts depend on: parse the model's raw output with its family's syntax, render the parsed
 * assistant message with the chat template (through `@toolcall/jinja`, as transformers renders it), and check that
 * the rendered turn is the generation prompt followed by the output, byte for byte. A template that drops or
 * rewrites what the model wrote (reasoning of past turns, content beside calls, re-serialised arguments) shows up
 * as a difference, at its first offset. The end-of-turn text the template appends (`<|im_end|>\n`, an EOS token) may
 * be missing from the output: servers strip stop tokens.
 *
 * @example
 * roundTrip({ template: qwen3Template, syntax: hermes, messages: [{ role: "user", content: "Weather in Paris?" }],
 *   tools, output: '<think>\nLet me look.\n</think>\n\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>' });
 * // { ok: true, firstDifference: -1, … }
 */
export function roundTrip(given: RoundTripOptions): RoundTripResult {
  // One clock for every render (a template that prints the time must print the same time in each).
  const options = { ...given, now: given.now instanceof Date ? given.now : new Date() };
  const failed = (error: string, extra: Partial<RoundTripResult> = {}): RoundTripResult => ({
    ok: false,
    firstDifference: 0,
    inPrompt: false,
    syntax: options.syntax?.id ?? null,
    parsed: null,
    message: null,
    generationPrompt: "",
    rendered: "",
    error,
    ...extra,
  });
  let template: Template;
  try {
    template = getCompiledTemplate(options.template);
  } catch (error) {
    return failed(`the template does not compile: ${error instanceof Error ? error.message : String(error)}`);
  }
  let syntax = options.syntax;
  if (syntax === undefined) {
    const detected = detectToolCallSyntax(options.template);
    syntax = detected.id === null ? undefined : syntaxById(detected.id);
    if (syntax === undefined)
      return failed(
        detected.id === null
          ? "no known tool-call syntax found in the template: pass `syntax`"
          : `the template writes ${detected.id}, which ${detected.module} implements: pass it as \`syntax\``,
      );
  }
  const output = typeof options.output === "string" ? options.output : "";
  const base = render(template, options.messages, options, false);
  const prompt = render(template, options.messages, options, true);
  if (!base.ok) return failed(base.error);
  if (!prompt.ok) return failed(prompt.error);
  const generationPrompt = prompt.text.startsWith(base.text) ? prompt.text.slice(base.text.length) : "";
  const startInReasoning = options.startInReasoning ?? opensReasoning(generationPrompt);
  const plain = render(
    template,
    [...options.messages, { role: "assistant", content: NEEDLE }],
    options,
    false,
  );
  const endOfTurn = plain.ok ? plain.text.slice(plain.text.indexOf(NEEDLE) + NEEDLE.length) : "";
  // An output that keeps the stop token it ended on (`<|im_end|>`, the end of turn's visible part) is parsed without it.
  const body = withoutStopText(output, endOfTurn);
  const parsed = syntax.parse(body, { tools: options.tools ?? null, startInReasoning });
  // A server returns `content: null` beside calls; some templates want "" there (Qwen3-0.6B raises on null, GLM
  // prints "None"), others null (DeepSeek V3 renders calls only then). And a call's arguments reach a template as
  // the mapping it iterates (what the probe finds) or as the wire text a caller passes on (Qwen3 and Hermes write
  // a string as it is, so compact JSON survives). The first of these that renders the output back wins.
  const message = assistantMessage(parsed);
  const contents = message.content === null ? [null, ""] : [message.content];
  const probed = probeChatTemplate(template).argumentsForm;
  const forms = [probed, probed === "mapping" ? "string" : "mapping"] as const;
  let chosen: { message: Record<string, unknown>; text: string; form: "mapping" | "string" } | undefined;
  let firstError: string | undefined;
  search: for (const form of forms) {
    for (const content of contents) {
      const candidate = { ...message, content };
      const full = render(template, [...options.messages, candidate], options, false, form);
      if (!full.ok) {
        firstError ??= full.error;
        continue;
      }
      chosen ??= { message: candidate, text: full.text, form };
      if (full.text.includes(body)) {
        chosen = { message: candidate, text: full.text, form };
        break search;
      }
    }
  }
  if (chosen === undefined)
    return failed(firstError ?? "the template did not render", {
      syntax: syntax.id,
      parsed,
      message,
      generationPrompt,
    });
  const prefix = firstDifference(base.text, chosen.text);
  const rendered = chosen.text.slice(prefix === -1 ? base.text.length : Math.min(prefix, base.text.length));
  const expected = generationPrompt + output;
  // The output may lack the end-of-turn text (a stop token the server stripped), or hold only its visible part.
  const candidates = [rendered];
  const endings = turnEndings({ rendered, endOfTurn, syntax, calls: parsed.toolCalls });
  for (const ending of endings) {
    const without = rendered.slice(0, rendered.length - ending.length);
    candidates.push(without, without + ending.trimEnd());
  }
  const ok =
    candidates.includes(expected) || endings.some((ending) => endsWithPartOf(rendered, expected, ending));
  const difference = ok ? -1 : Math.max(...candidates.map((c) => firstDifference(c, expected)));
  return {
    ok,
    firstDifference: ok ? -1 : Math.max(0, difference - generationPrompt.length),
    inPrompt: !ok && difference < generationPrompt.length,
    syntax: syntax.id,
    parsed,
    message: chosen.message,
    argumentsForm: chosen.form,
    generationPrompt,
    rendered,
  };
}
