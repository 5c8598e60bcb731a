import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import {
  defineFunctionCallSyntax,
  type FunctionCallFamily,
  functionCallEncoder,
} from "../engine/function-call-family.js";
import { BARE_THINK } from "../engine/text-loop.js";
import { QWEN3_CODER } from "./qwen3-coder.js";

/**
 * Xiaomi MiMo: Qwen3-Coder's `<tool_call>` / `<function=…>` / `<parameter=…>` grammar and value writing, with three
 * differences its template (XiaomiMiMo/MiMo-V2-Flash) makes: a value sits between its tags as it is (no newline each
 * side, and none is removed when read: "preserved exactly as-is, including newlines and spaces", its prompt says);
 * each call follows the content with nothing between, calls back to back; reasoning is `<think>…</think>` with no
 * newlines of its own.
 */
const MIMO: FunctionCallFamily = {
  ...QWEN3_CODER,
  id: "mimo",
  name: "Xiaomi MiMo (<tool_call><function=…><parameter=…>, values as written)",
  reasoning: BARE_THINK,
  valueOnLines: false,
  callLead: "",
};
const encode = functionCallEncoder(MIMO);

/**
 * Encodes calls as Xiaomi MiMo's template renders them: per call `<tool_call>\n<function=NAME>\n`, per argument
 * `<parameter=K>V</parameter>\n` (strings as they are, mappings and lists as `tojson`, anything else as Python's
 * `str()`), then `</function>\n</tool_call>`, calls back to back.
 *
 * @example
 * encodeMimo([{ function: { name: "execute_bash", arguments: '{"command": "pwd && ls", "timeout": 30}' } }]);
 * // "<tool_call>\n<function=execute_bash>\n<parameter=command>pwd && ls</parameter>\n<parameter=timeout>30</parameter>\n</function>\n</tool_call>"
 */
export function encodeMimo(calls: readonly EncodableToolCall[]): string {
  return encode(calls);
}

/**
 * Xiaomi MiMo (MiMo-V2-Flash): `<tool_call>\n<function=NAME>\n<parameter=K>V</parameter>\n</function>\n</tool_call>`,
 * reasoning in `<think>…</think>` (the generation prompt writes `<think></think>` when thinking is off; with thinking
 * on the model opens it). The reader is Qwen3-Coder's (`defineFunctionCallSyntax`), values kept exactly as written.
 *
 * Rules: each value is the text between its tags, as written (vLLM's MiMo-V2-Flash parser keeps it too), typed by the
 * tool's JSON Schema (core's `convertParameterValue`); without a schema it stays text. Several calls, a function with
 * no parameters (`{}`), a `<function=` at the very start with `<tool_call>` missing (`call_unopened`), a call cut
 * short (`call_truncated`, in content as written) and a whole call missing its closing tags (`call_unclosed`) behave
 * as in every `<function=…>` family. From output alone the text reads as Qwen3-Coder's (`detectOutputSyntax` names
 * `qwen3-coder`): nothing in it tells the two apart but a newline around a value.
 *
 * @example
 * mimo.parse("<think>The user wants the files.</think>Let me look.<tool_call>\n<function=execute_bash>\n<parameter=command>pwd && ls</parameter>\n</function>\n</tool_call>");
 * // { reasoning: "The user wants the files.", content: "Let me look.", toolCalls: [{ function: { name: "execute_bash", arguments: '{"command": "pwd && ls"}' }, … }], issues: [] }
 */
export const mimo: ToolCallSyntax = defineFunctionCallSyntax(MIMO);
