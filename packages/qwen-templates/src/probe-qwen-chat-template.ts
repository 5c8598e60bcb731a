import {
  type ChatTemplateCapabilities,
  getCompiledTemplate,
  probeChatTemplate,
  type Template,
} from "@toolcall/jinja";
import { QWEN_SPECIAL_TOKENS } from "./render-qwen-chat-template.js";

/** A Qwen template's capabilities: the generic probe's, plus how it writes calls and whether thinking can be switched. */
export interface QwenTemplateCapabilities extends ChatTemplateCapabilities {
  /** `xml`: `<function=NAME><parameter=P>` (Qwen3-Coder, Qwen3.5); `json`: `{"name": …, "arguments": …}` (Qwen2.5, QwQ, Qwen3). */
  toolCallFormat: "xml" | "json" | "none";
  /** `enable_thinking=False` changes the generation prompt (Qwen3, Qwen3.5). */
  thinkingSwitch: boolean;
}

const cache = new WeakMap<Template, QwenTemplateCapabilities>();

function render(template: Template, variables: Record<string, unknown>): string | undefined {
  try {
    return template.render({ tools: null, documents: null, ...QWEN_SPECIAL_TOKENS, ...variables });
  } catch {
    return undefined;
  }
}

/**
 * Probes a Qwen template by rendering: the generic answers of `probeChatTemplate`, the call format it writes and
 * whether `enable_thinking` is honoured.
 *
 * @example
 * probeQwenChatTemplate(qwen3CoderSource); // { argumentsForm: "mapping", toolCallFormat: "xml", thinkingSwitch: false, … }
 */
export function probeQwenChatTemplate(template: string | Template): QwenTemplateCapabilities {
  const compiled = getCompiledTemplate(template);
  const cached = cache.get(compiled);
  if (cached !== undefined) return cached;
  const generic = probeChatTemplate(compiled);
  const call = render(compiled, {
    messages: [
      { role: "user", content: "q" },
      {
        role: "assistant",
        content: "",
        tool_calls: [
          {
            id: "call0Zq7X",
            type: "function",
            function: { name: "probe_fn", arguments: { probe_key: "v" } },
          },
        ],
      },
    ],
  });
  const toolCallFormat =
    call === undefined
      ? "none"
      : call.includes("<function=probe_fn>")
        ? "xml"
        : call.includes('"name": "probe_fn"')
          ? "json"
          : "none";
  const user = [{ role: "user", content: "q" }];
  const thinkingOn = render(compiled, { messages: user, add_generation_prompt: true, enable_thinking: true });
  const thinkingOff = render(compiled, {
    messages: user,
    add_generation_prompt: true,
    enable_thinking: false,
  });
  const capabilities: QwenTemplateCapabilities = {
    ...generic,
    toolCallFormat,
    thinkingSwitch: thinkingOn !== undefined && thinkingOff !== undefined && thinkingOn !== thinkingOff,
  };
  cache.set(compiled, capabilities);
  return capabilities;
}
