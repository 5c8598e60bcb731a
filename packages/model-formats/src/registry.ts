import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { apertus } from "./families/apertus.js";
import { commandA } from "./families/command-a.js";
import { commandR7b } from "./families/command-r7b.js";
import { deepseekV3, deepseekV31 } from "./families/deepseek.js";
import { deepseekV32 } from "./families/deepseek-dsml.js";
import { exaone4 } from "./families/exaone4.js";
import { functionaryV31, functionaryV32 } from "./families/functionary.js";
import { functionGemma } from "./families/functiongemma.js";
import { gemma4 } from "./families/gemma4.js";
import { gigaChat3 } from "./families/gigachat3.js";
import { glm45, glm47 } from "./families/glm.js";
import { granite } from "./families/granite.js";
import { harmony, harmonyStripped } from "./families/harmony.js";
import { hermes } from "./families/hermes.js";
import { hyV3, hyV4 } from "./families/hy.js";
import { internS1 } from "./families/interns1.js";
import { kimiK2 } from "./families/kimi.js";
import { kimiK3 } from "./families/kimi3.js";
import { lfm2 } from "./families/lfm2.js";
import { llama3Json, llamaPythonic } from "./families/llama.js";
import { longcat } from "./families/longcat.js";
import { mimo } from "./families/mimo.js";
import { minimaxM2 } from "./families/minimax.js";
import { minimaxM3 } from "./families/minimax-m3.js";
import { mistralArgs, mistralCallIdSyntax, mistralList } from "./families/mistral.js";
import { nemotronNanoV2 } from "./families/nemotron-nano-v2.js";
import { olmo3 } from "./families/olmo3.js";
import { phi4Mini } from "./families/phi4-mini.js";
import { qwen3Coder, qwen36 } from "./families/qwen3-coder.js";
import { seedOss } from "./families/seed-oss.js";
import { step3 } from "./families/step3.js";
import { step35 } from "./families/step3p5.js";
import { hunyuan, jamba } from "./families/tool-calls-list.js";
import { xlam } from "./families/xlam.js";

/** A syntax known to detection: where it lives, how its template writes a call, what its template's source holds. */
export interface SyntaxDescriptor {
  id: string;
  name: string;
  /** The entry point that implements it. */
  module: string;
  /** The calls as the family's template writes them (detection looks for this text in a render). */
  encode(calls: readonly EncodableToolCall[]): string;
  /**
   * Substrings of a template's source that mark the family (the fallback when rendering tells nothing), checked
   * in the order of {@link SYNTAX_DESCRIPTORS}: every string of one of the lists must be present.
   */
  signatures: readonly (readonly string[])[];
  /**
   * The syntax whose reader this one shares, differing only in how its template writes (EXAONE 4 reads as Hermes,
   * Qwen3.6 as Qwen3-Coder): detection from a model's output alone names that reader instead, since nothing in the
   * output tells the two apart.
   */
  readsAs?: string;
}

/** The syntaxes this package implements, by id. */
export const SYNTAXES: Readonly<Record<string, ToolCallSyntax>> = Object.freeze({
  hermes,
  glm45,
  glm47,
  "kimi-k2": kimiK2,
  "deepseek-v3": deepseekV3,
  "deepseek-v31": deepseekV31,
  "deepseek-v32": deepseekV32,
  "mistral-list": mistralList,
  "mistral-args": mistralArgs,
  "mistral-call-id": mistralCallIdSyntax,
  "llama3-json": llama3Json,
  "llama-pythonic": llamaPythonic,
  harmony,
  "harmony-stripped": harmonyStripped,
  "minimax-m2": minimaxM2,
  "seed-oss": seedOss,
  "qwen3-coder": qwen3Coder,
  granite,
  "phi4-mini": phi4Mini,
  "command-r7b": commandR7b,
  "command-a": commandA,
  "functionary-v31": functionaryV31,
  "functionary-v32": functionaryV32,
  hunyuan,
  jamba,
  xlam,
  apertus,
  "hy-v3": hyV3,
  "hy-v4": hyV4,
  "nemotron-nano-v2": nemotronNanoV2,
  "minimax-m3": minimaxM3,
  lfm2,
  gemma4,
  exaone4,
  qwen36,
  gigachat3: gigaChat3,
  interns1: internS1,
  functiongemma: functionGemma,
  mimo,
  step3p5: step35,
  longcat,
  olmo3,
  step3,
  "kimi-k3": kimiK3,
});

/**
 * A syntax of this package by id (`undefined` for ids it does not implement).
 *
 * @example
 * syntaxById("glm47")?.name; // "GLM-4.7 / GLM-5 (<arg_key>/<arg_value>, no newlines)"
 */
export function syntaxById(id: string): ToolCallSyntax | undefined {
  return Object.hasOwn(SYNTAXES, id) ? SYNTAXES[id] : undefined;
}

const own = (syntax: ToolCallSyntax, module: string, signatures: string[][]): SyntaxDescriptor => ({
  id: syntax.id,
  name: syntax.name,
  module: `@toolcall/model-formats/${module}`,
  encode: syntax.encode,
  signatures,
});

/**
 * Every syntax detection knows, in the order the source signatures are tried (the more specific first, as
 * llama.cpp orders its checks: GLM and Qwen3-Coder before Hermes, which shares `<tool_call>`).
 */
export const SYNTAX_DESCRIPTORS: readonly SyntaxDescriptor[] = [
  own(deepseekV31, "deepseek", [["message['prefix'] is defined and message['prefix'] and thinking"]]),
  own(deepseekV3, "deepseek", [["<｜tool▁calls▁begin｜>", "```json"]]),
  own(deepseekV32, "deepseek", [["<｜DSML｜"]]),
  // Command A's template reads a `tool_plan`; both write `<|START_ACTION|>`.
  own(commandA, "command-a", [["<|START_ACTION|>", "tool_plan"]]),
  own(commandR7b, "command-r7b", [["<|END_THINKING|><|START_ACTION|>"], ["<|START_ACTION|>"]]),
  own(seedOss, "seed-oss", [["<seed:tool_call>"], ["<seed:think>"]]),
  // MiniMax M3 keeps `]~!b[` and `]~b]` of M2's template: its namespace token comes first.
  own(minimaxM3, "minimax-m3", [["]<]minimax[>["]]),
  own(minimaxM2, "minimax", [["<minimax:tool_call>"], ["]~!b[", "]~b]"]]),
  own(apertus, "apertus", [["<|tools_prefix|>"]]),
  own(gigaChat3, "gigachat3", [["function call", "<|role_sep|>"]]),
  own(internS1, "interns1", [["<|action_start|>", "<|plugin|>"]]),
  // LFM2 (24B) writes no call in its template; its tool list's preamble names the family.
  own(lfm2, "lfm2", [["<|tool_call_start|>"], ["List of tools: ["]]),
  own(functionaryV32, "functionary", [[">>>all"]]),
  own(functionaryV31, "functionary", [["<|start_header_id|>", "<function="]]),
  own(granite, "granite", [["<|tool_call|>"]]),
  own(phi4Mini, "phi4-mini", [["functools["], ["<|tool|>", "<|/tool|>"]]),
  // Hy3's and Hy4's templates build their tags with `.format(suffix)`: the source holds `<tool_sep{}>` (Hy3 only).
  own(hyV3, "hy", [["<tool_sep{}>"], ["<tool_sep"]]),
  own(hyV4, "hy", [["<arg_key{}>"], ["<tool_calls", "<arg_key"]]),
  own(hunyuan, "hunyuan", [["<tool_calls>", "<|extra_0|>"]]),
  own(nemotronNanoV2, "nemotron-nano-v2", [["<TOOLCALL>"]]),
  own(jamba, "jamba", [["<tool_calls>"]]),
  own(glm47, "glm", [["</arg_key><arg_value>"]]),
  own(glm45, "glm", [["<arg_key>", "<arg_value>"]]),
  // MiMo writes each value as it is, no newline around it: its render tells it apart.
  { ...own(mimo, "mimo", []), readsAs: qwen3Coder.id },
  // Step-3.5 writes Qwen3-Coder's calls back to back: two calls tell it apart (see detectToolCallSyntax).
  { ...own(step35, "step3", []), readsAs: qwen3Coder.id },
  own(qwen3Coder, "qwen3-coder", [["<function=", "<parameter="]]),
  // Qwen3.6 / 3.8 / Coder-Next write Qwen3-Coder's calls with `tojson` values: rendering a boolean tells them apart.
  { ...own(qwen36, "qwen3-coder", []), readsAs: qwen3Coder.id },
  // EXAONE 4 writes Hermes' call without the newlines inside the tags.
  { ...own(exaone4, "exaone4", [["[|endofturn|]", "<tool_call>"]]), readsAs: hermes.id },
  own(longcat, "longcat", [["<longcat_tool_call>"]]),
  own(olmo3, "olmo3", [["<function_calls>", "tojson"]]),
  own(step3, "step3", [["<steptml:invoke"]]),
  own(hermes, "hermes", [["<tool_call>"]]),
  own(harmony, "gpt-oss", [["<|channel|>"]]),
  own(kimiK2, "kimi", [["<|tool_calls_section_begin|>"]]),
  own(kimiK3, "kimi", [["<|open|>tools<|sep|>"], ["<|open|>call"]]),
  own(gemma4, "gemma4", [["<|tool_call>", "<tool_call|>"]]),
  own(functionGemma, "functiongemma", [["<start_function_call>"]]),
  own(mistralCallIdSyntax, "mistral", [["[TOOL_CALLS]", "[CALL_ID]"]]),
  own(mistralArgs, "mistral", [["[TOOL_CALLS]", "[ARGS]"]]),
  own(mistralList, "mistral", [["[TOOL_CALLS]"]]),
  own(llama3Json, "llama", [["<|start_header_id|>ipython<|end_header_id|>"], ['"parameters": ']]),
  own(llamaPythonic, "llama", [["<|python_start|>"]]),
  // A bare JSON list: every marked list above holds it, so it comes last.
  own(xlam, "xlam", [["xLAM"]]),
];

/**
 * Every id of `SYNTAXES`, in the order detection knows them (the more specific first), then those detection does
 * not look for: the one list a command's help, its error messages and a picker show.
 *
 * @example
 * SYNTAX_IDS.includes("gemma4"); // true
 */
export const SYNTAX_IDS: readonly string[] = Object.freeze([
  ...new Set([
    ...SYNTAX_DESCRIPTORS.map((descriptor) => descriptor.id).filter((id) => Object.hasOwn(SYNTAXES, id)),
    ...Object.keys(SYNTAXES),
  ]),
]);
