import type { RepairRule } from "@toolcall/core/kit";
import type { RenderOptions, Template } from "../compiler/template.js";
import { TemplateError } from "../runtime/template-error.js";
import { ChatConversation } from "./chat-conversation.js";
import { probeChatTemplate } from "./probe-chat-template.js";

/** What {@link renderChatTemplate} takes. */
export interface RenderChatTemplateOptions {
  /** The chat template: Jinja source, or a {@link Template} compiled once. */
  template: string | Template;
  /** OpenAI-shaped messages in wire form: `tool_calls[].function.arguments` as JSON text (mappings are accepted). */
  messages: readonly unknown[];
  /** Tool definitions, as the template expects them (OpenAI `{ type: "function", function: {…} }`). */
  tools?: readonly unknown[] | null;
  /** Open an assistant turn at the end (transformers' `add_generation_prompt`). */
  addGenerationPrompt?: boolean;
  /** Every other template variable: `bos_token`, `eos_token`, `enable_thinking`, … */
  variables?: Record<string, unknown>;
  /** Documents for retrieval templates (transformers' `documents`). */
  documents?: readonly unknown[] | null;
  /** The clock `strftime_now` reads. Default: now. */
  now?: Date;
  /**
   * The form every call's arguments are rendered in (`mapping` or `string`). Left out, the probe's form applies to
   * wire text (JSON strings) only: arguments given as a value render as given, as transformers renders them.
   */
  argumentsForm?: "mapping" | "string";
  /** Repairs (R6) tried on arguments that fail strict JSON before they are rendered. */
  repairs?: readonly RepairRule[];
  /** The longest string the render may build (see {@link RenderOptions.maxOutputLength}). Default 2^25. */
  maxOutputLength?: number;
  /** The work the render may do (see {@link RenderOptions.maxSteps}). Default 2^28. */
  maxSteps?: number;
}

/** The outcome of {@link safeRenderChatTemplate}. */
export type RenderChatTemplateResult = { ok: true; text: string } | { ok: false; error: TemplateError };

/**
 * Renders a chat template to the exact string transformers' `apply_chat_template(…, tokenize=False)` gives.
 * Messages arrive in wire form: each call's arguments given as JSON text are decoded losslessly (RULES.md R5) into
 * the form the template accepts, found by {@link probeChatTemplate}; arguments given as a value (a mapping) render
 * as given, since that value is what transformers would see. The caller's messages stay untouched. Throws a
 * {@link TemplateError} where Python raises (same exception name and message).
 *
 * @example
 * renderChatTemplate({
 *   template: source,
 *   messages: [{ role: "user", content: "Weather in Paris?" }],
 *   tools,
 *   addGenerationPrompt: true,
 *   variables: { bos_token: "<s>", eos_token: "</s>" },
 * }); // "<|im_start|>system\n…<|im_start|>assistant\n"
 */
export function renderChatTemplate(options: RenderChatTemplateOptions): string {
  return new ChatConversation(options).render(options);
}

/**
 * {@link renderChatTemplate} that returns the error instead of throwing it.
 *
 * @example
 * const result = safeRenderChatTemplate({ template: "{{ raise_exception('no') }}", messages: [] });
 * result.ok; // false
 * if (!result.ok) result.error.pythonText; // "TemplateError: no"
 */
export function safeRenderChatTemplate(options: RenderChatTemplateOptions): RenderChatTemplateResult {
  try {
    return { ok: true, text: renderChatTemplate(options) };
  } catch (error) {
    if (TemplateError.isInstance(error)) return { ok: false, error };
    const message = error instanceof Error ? error.message : String(error);
    const type = error instanceof RangeError ? "RecursionError" : "RuntimeError";
    return { ok: false, error: new TemplateError(type, message) };
  }
}
