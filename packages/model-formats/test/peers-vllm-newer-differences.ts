/**
 * Where we deliberately read a case of vLLM's newer parser tests (`vllm-newer-tool-parser-cases.json`: Step3, OLMo 3,
 * Nemotron Nano v2, Qwen3-Coder, Qwen3 XML, GigaChat 3, LongCat, FunctionGemma, Intern-S1) otherwise than the test states, held exactly as in
 * `peers-vllm-differences.ts`.
 */
import type { Difference } from "./peers-vllm-differences.js";

/** Why we differ: a short name and the reason, one line each. */
export const NEWER_REASONS = {
  NONFINITE: {
    name: "a number a double cannot hold",
    reason:
      "a pythonic number a double cannot hold (`1e999`) stays its text, so the arguments stay JSON (docs/decisions.md, the typing rule; vector r10-llama-pythonic-non-finite); vLLM drops the call",
  },
  PAIRGLUED: {
    name: "pairs without a comma",
    reason:
      "FunctionGemma pairs written without the comma between them (`city:<escape>NYC<escape>unit:<escape>celsius<escape>`) are read by Gemma 4's value reader, where an `<escape>` not followed by a comma or the object's end is part of the string, so the first value holds the rest; and an escaped string is a string (`<escape>10<escape>` is the text `10`): no type is guessed; vLLM reads two pairs and types `10` as a number",
  },
  PARAMFIRST: {
    name: "a parameter before its function",
    reason:
      "a `<tool_call>` whose parameter comes before its `<function=…>` tag stays in content as written, the calls before it read (vector r10-mimo-parameter-before-function: no template writes that order, so which call the parameter belongs to is a guess); vLLM's MiMo parser reads the function",
  },
  DOUBLEENC: {
    name: "a Python dict inside a JSON string",
    reason:
      "a JSON string holding a Python dict, given for an object parameter, stays that string: two decodings, one of them Python's, are no unique reading; vLLM decodes both",
  },
} as const;

/** The cases we read otherwise than vLLM's newer tests state, by case id. */
export const NEWER_DIFFERENCES: Record<string, Difference> = {
  "nemotron-nano-v2-think-as-content": {
    kind: "REASONING",
    fields: ["content"],
    ours: { calls: ["get_weather"], content: null, reasoning: "I need the weather for Tokyo." },
  },
  "olmo3-tool-parser-non-finite": {
    kind: "NONFINITE",
    fields: ["calls.count", "calls[0].name", "calls[0].arguments"],
    ours: { calls: ["calc", "get_weather"], content: null, reasoning: null },
  },
  "qwen3-shared-double-encoded-object": {
    kind: "DOUBLEENC",
    fields: ["calls[0].arguments"],
    ours: { calls: ["process"], content: null, reasoning: null },
  },
  "functiongemma-stream-pairs-without-comma": {
    kind: "PAIRGLUED",
    fields: ["calls[0].arguments"],
    ours: { calls: ["get_weather"], content: null, reasoning: null },
  },
  "functiongemma-stream-three-keys": {
    kind: "PAIRGLUED",
    fields: ["calls[0].arguments"],
    ours: { calls: ["search"], content: null, reasoning: null },
  },
  "mimov2-two-calls-parameter-before-function": {
    kind: "PARAMFIRST",
    fields: ["calls.count"],
    ours: {
      calls: ["execute_bash"],
      content:
        "Here is the result:\n<tool_call>\n<parameter=command>ls -la</parameter>\n<function=list_files>\n</function>\n</tool_call>",
      reasoning: null,
    },
  },
};
