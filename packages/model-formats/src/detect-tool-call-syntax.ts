import type { EncodableToolCall } from "@toolcall/core/kit";
import { getCompiledTemplate, type Template } from "@toolcall/jinja";
import { SYNTAX_DESCRIPTORS, type SyntaxDescriptor } from "./registry.js";

/**
 * Whether a generation prompt ends by opening a reasoning block: `<think>`, or a checkpoint's suffixed spelling of it
 * (Hunyuan Hy3 / Hy4: `<think:opensource>`), or Kimi K3's think channel (`<|open|>think<|sep|>`), then whitespace.
 *
 * @example
 * opensReasoning("<｜hy_Assistant:opensource｜><think:opensource>"); // true
 */
export function opensReasoning(generationPrompt: string): boolean {
  return /(?:<think(?::[^\s<>]+)?>|<\|open\|>think<\|sep\|>)\s*$/.test(generationPrompt);
}

/** What {@link detectToolCallSyntax} found. */
export interface DetectedSyntax {
  /** The syntax id (`hermes`, `glm47`, `qwen3-coder`, …), or `null` when the template writes no known syntax. */
  id: string | null;
  /** The entry point that implements it (`@toolcall/model-formats/glm`, `@toolcall/qwen-templates`, …). */
  module: string | null;
  /**
   * `render`: the template's rendering of probe calls holds exactly what the syntax writes; `signature`: rendering
   * told nothing (the template raised, or rendered calls no syntax writes), the template's source holds the
   * family's markers; `none`: neither.
   */
  method: "render" | "signature" | "none";
  /** The text the template renders for one probe call: the markers, read off the difference with the turn without it. */
  callText: string | null;
  /** Two calls in one message render (some templates render only the first, or raise). */
  parallelCalls: boolean;
  /** The generation prompt opens a reasoning block (`<think>`): parse with `startInReasoning`. */
  startInReasoning: boolean;
  /** Every syntax whose writing was found in the render (more than one only for a template that writes several). */
  candidates: string[];
}

const TOOLS = [
  {
    type: "function",
    function: {
      name: "probe_fn_alpha",
      description: "probe",
      parameters: {
        type: "object",
        properties: { probe_key: { type: "string" }, probe_num: { type: "integer" } },
        required: ["probe_key"],
      },
    },
  },
];
/** The same tools without OpenAI's `{ type, function }` envelope: some templates (Apertus) read `tool.name`. */
const FLAT_TOOLS = TOOLS.map((tool) => tool.function);
const USER = { role: "user", content: "probe question" };
const VARIABLES = { bos_token: "<s>", eos_token: "</s>" };

function call(id: string, name: string, args: Record<string, unknown>): EncodableToolCall & { type: string } {
  return { id, type: "function", function: { name, arguments: JSON.stringify(args) } };
}

function render(template: Template, messages: unknown[], generationPrompt = false): string | undefined {
  for (const tools of [TOOLS, FLAT_TOOLS]) {
    try {
      return template.render({
        ...VARIABLES,
        messages,
        tools,
        documents: null,
        add_generation_prompt: generationPrompt,
      });
    } catch {
      // The next form of the tools, or nothing.
    }
  }
  return undefined;
}

const TURN_FORMS: readonly { content: string | null; plan?: string }[] = [
  { content: null },
  { content: "" },
  { content: null, plan: "probe plan" },
];

/** What the template writes for an assistant turn with `calls`, after the conversation up to the user's question. */
function turnText(template: Template, calls: EncodableToolCall[]): string | undefined {
  const base = render(template, [USER]);
  if (base === undefined) return undefined;
  // Templates disagree on `content: null` beside calls (DeepSeek V3 renders calls only then; Qwen3-0.6B raises) and
  // on the arguments' form (most iterate a mapping; DeepSeek concatenates the text). Command A's template raises on a
  // call turn that has neither a `tool_plan` nor thinking: the last form gives it a plan.
  for (const form of ["mapping", "string"] as const) {
    for (const { content, plan } of TURN_FORMS) {
      const prepared = calls.map((c) => ({
        ...c,
        function: {
          ...c.function,
          arguments: form === "string" ? c.function.arguments : JSON.parse(String(c.function.arguments)),
        },
      }));
      const message: Record<string, unknown> = { role: "assistant", content, tool_calls: prepared };
      if (plan !== undefined) message.tool_plan = plan;
      const full = render(template, [USER, message]);
      if (full === undefined) continue;
      let i = 0;
      while (i < base.length && i < full.length && base.charCodeAt(i) === full.charCodeAt(i)) i++;
      const turn = full.slice(i);
      if (turn.includes("probe_value")) return turn;
    }
  }
  return undefined;
}

function encodes(descriptor: SyntaxDescriptor, calls: EncodableToolCall[]): string | undefined {
  try {
    return descriptor.encode(calls);
  } catch {
    return undefined;
  }
}

const squeeze = (text: string) => text.replace(/\s+/g, "");

/** A probe call with a boolean value, which writers that agree on strings and numbers write apart (`True`, `true`). */
const flagged = (id: string) => call(id, "probe_fn_alpha", { probe_key: "probe_value", probe_flag: true });

/**
 * Keeps, of several syntaxes whose writing was found (Qwen3-Coder and Qwen3.6 write a string and a number alike), those
 * whose writing of a call with a boolean value the template's render also holds (`holds`, asked once per syntax); all
 * of them when none or every one does.
 */
function settle(matches: SyntaxDescriptor[], holds: (descriptor: SyntaxDescriptor) => boolean): void {
  const kept = matches.filter(holds);
  if (kept.length > 0 && kept.length < matches.length) matches.splice(0, matches.length, ...kept);
}

/**
 * Finds which tool-call syntax a chat template writes, by differential rendering: the template renders a
 * conversation with and without a probe call (one call, then two; a string and a number value; a Mistral-style
 * 9-character id, then Kimi's `functions.NAME:IDX`), and each known syntax's encoder is looked for in the
 * difference, exactly, then ignoring whitespace. When rendering tells nothing (the template raises on the probes,
 * or writes what no syntax writes), the template's source (when given as text) is searched for each family's
 * markers, in llama.cpp's order. Never throws.
 *
 * @example
 * detectToolCallSyntax(glm47Template);
 * // { id: "glm47", module: "@toolcall/model-formats/glm", method: "render", startInReasoning: true, … }
 */
export function detectToolCallSyntax(template: string | Template): DetectedSyntax {
  const none: DetectedSyntax = {
    id: null,
    module: null,
    method: "none",
    callText: null,
    parallelCalls: false,
    startInReasoning: false,
    candidates: [],
  };
  let compiled: Template;
  try {
    compiled = getCompiledTemplate(template);
  } catch {
    return none;
  }
  const prompt = render(compiled, [USER], true) ?? "";
  const base = render(compiled, [USER]) ?? "";
  const generationPrompt = prompt.startsWith(base) ? prompt.slice(base.length) : "";
  const startInReasoning = opensReasoning(generationPrompt);
  const args = { probe_key: "probe_value", probe_num: 42 };
  const second = { probe_key: "probe_value_two" };
  let found:
    | { descriptor: SyntaxDescriptor; text: string; parallel: boolean; candidates: string[] }
    | undefined;
  for (const ids of [
    ["call0Zq7X", "call1Wv8Y"],
    ["functions.probe_fn_alpha:0", "functions.probe_fn_beta:1"],
  ] as const) {
    const one = [call(ids[0], "probe_fn_alpha", args)];
    const two = [...one, call(ids[1], "probe_fn_beta", second)];
    const text = turnText(compiled, one);
    const twoText = turnText(compiled, two);
    if (text === undefined && twoText === undefined) continue;
    for (const loose of [false, true]) {
      const holds = (rendered: string | undefined, written: string | undefined) =>
        rendered !== undefined &&
        written !== undefined &&
        (loose ? squeeze(rendered).includes(squeeze(written)) : rendered.includes(written));
      // One call, or two (DeepSeek V3's template closes the section only after a second call).
      const matches = SYNTAX_DESCRIPTORS.filter(
        (descriptor) => holds(text, encodes(descriptor, one)) || holds(twoText, encodes(descriptor, two)),
      );
      if (matches.length === 0) continue;
      if (matches.length > 1) {
        const probe = [flagged(ids[0])];
        const rendered = turnText(compiled, probe);
        settle(matches, (descriptor) => holds(rendered, encodes(descriptor, probe)));
      }
      // Writers that differ only in the white space between calls (Step-3.5 writes Qwen3-Coder's calls back to
      // back): the two calls as the render holds them, exactly.
      if (matches.length > 1 && twoText !== undefined)
        settle(matches, (descriptor) => {
          const written = encodes(descriptor, two);
          return written !== undefined && twoText.includes(written);
        });
      const descriptor = matches[0] as SyntaxDescriptor;
      const candidate = {
        descriptor,
        text: text ?? twoText ?? "",
        // Two calls written back to back, or on lines of their own: white space between calls is the template's.
        parallel: (() => {
          const written = encodes(descriptor, two);
          return (
            twoText !== undefined && written !== undefined && squeeze(twoText).includes(squeeze(written))
          );
        })(),
        candidates: matches.map((m) => m.id),
      };
      // Kimi's templates write the id, not the name: with an OpenAI-style id the name is lost, so a round whose
      // text shows the name is preferred.
      if (found === undefined || candidate.text.includes("probe_fn_alpha")) found = candidate;
      break;
    }
    if (found?.text.includes("probe_fn_alpha")) break;
  }
  if (found !== undefined) {
    return {
      id: found.descriptor.id,
      module: found.descriptor.module,
      method: "render",
      callText: found.text,
      parallelCalls: found.parallel,
      startInReasoning,
      candidates: found.candidates,
    };
  }
  // A compiled template keeps no source: signatures need the text.
  const source = typeof template === "string" ? template : "";
  const bySignature = SYNTAX_DESCRIPTORS.find((descriptor) =>
    descriptor.signatures.some((all) => all.every((needle) => source.includes(needle))),
  );
  if (bySignature === undefined) return { ...none, startInReasoning };
  return {
    ...none,
    id: bySignature.id,
    module: bySignature.module,
    method: "signature",
    startInReasoning,
    candidates: [bySignature.id],
  };
}
