import { type RenderChatTemplateOptions, renderChatTemplate } from "@toolcall/jinja";

/**
 * The special tokens transformers passes to a Qwen template (from Qwen's tokenizer configuration).
 *
 * @example
 * QWEN_SPECIAL_TOKENS.eos_token; // "<|im_end|>"
 */
export const QWEN_SPECIAL_TOKENS: Readonly<Record<string, string>> = Object.freeze({
  eos_token: "<|im_end|>",
  pad_token: "<|endoftext|>",
});

/** {@link renderQwenChatTemplate}'s options: the generic ones, with Qwen's defaults. */
export interface RenderQwenChatTemplateOptions extends RenderChatTemplateOptions {
  /** Qwen3 / Qwen3.5 `enable_thinking`; left to the template when not given. */
  enableThinking?: boolean;
}

/**
 * Renders a Qwen chat template (Qwen2.5, QwQ, Qwen3, Qwen3-Coder, Qwen3.5) exactly as transformers does, with
 * Qwen's defaults: its special tokens, the generation prompt on, `enable_thinking` passed through. Wire-form
 * arguments are decoded losslessly into the mapping the Qwen templates iterate.
 *
 * @example
 * renderQwenChatTemplate({ template: qwen3CoderSource, messages, tools });
 * // "<|im_start|>system\n…<tools>…</tools>…<|im_start|>assistant\n"
 */
export function renderQwenChatTemplate(options: RenderQwenChatTemplateOptions): string {
  const { enableThinking, ...rest } = options;
  const variables: Record<string, unknown> = { ...QWEN_SPECIAL_TOKENS };
  if (enableThinking !== undefined) variables.enable_thinking = enableThinking;
  return renderChatTemplate({
    ...rest,
    addGenerationPrompt: options.addGenerationPrompt ?? true,
    variables: { ...variables, ...options.variables },
  });
}
