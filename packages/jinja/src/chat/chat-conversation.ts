import { prepareForTemplate } from "@toolcall/core";
import type { RepairRule } from "@toolcall/core/kit";
import type { RenderOptions, Template } from "../compiler/template.js";
import { getCompiledTemplate } from "../compiler/template-cache.js";
import { toPython } from "../runtime/python-values.js";
import { keepNativeArguments } from "./keep-native-arguments.js";
import { probeChatTemplate } from "./probe-chat-template.js";

/** What {@link createChatConversation} takes: what stays the same from one render of a conversation to the next. */
export interface ChatConversationOptions {
  /** The chat template: Jinja source, or a {@link Template} compiled once. */
  template: string | Template;
  /** Tool definitions, as the template expects them (OpenAI `{ type: "function", function: {…} }`). */
  tools?: readonly unknown[] | null;
  /** Every other template variable: `bos_token`, `eos_token`, `enable_thinking`, … */
  variables?: Record<string, unknown>;
  /** Documents for retrieval templates (transformers' `documents`). */
  documents?: readonly unknown[] | null;
  /** The form every call's arguments are rendered in; left out, the probe's form applies to wire text. */
  argumentsForm?: "mapping" | "string";
  /** Repairs (R6) tried on arguments that fail strict JSON before they are rendered. */
  repairs?: readonly RepairRule[];
}

/** What one render of a conversation takes. */
export interface ChatConversationRenderOptions {
  /** OpenAI-shaped messages in wire form: the conversation so far. */
  messages: readonly unknown[];
  /** Open an assistant turn at the end (transformers' `add_generation_prompt`). */
  addGenerationPrompt?: boolean;
  /** The clock `strftime_now` reads. Default: now. */
  now?: Date;
  /** The longest string the render may build (see {@link RenderOptions.maxOutputLength}). */
  maxOutputLength?: number;
  /** The work the render may do (see {@link RenderOptions.maxSteps}). */
  maxSteps?: number;
}

/**
 * A conversation rendered turn after turn with one template: the template is compiled and probed once, tools,
 * documents and variables are converted once, and each message object is decoded (RULES.md R5) and converted the
 * first time a render meets it, then reused. A message is read once: give a new object for a message that changed
 * (as chat state libraries do), not the same object edited in place.
 *
 * @example
 * const conversation = createChatConversation({ template: source, tools });
 * conversation.render({ messages, addGenerationPrompt: true }); // converts every message
 * messages = [...messages, answer, nextQuestion];
 * conversation.render({ messages, addGenerationPrompt: true }); // converts the two new ones only
 */
export class ChatConversation {
  private readonly template: Template;
  private readonly argumentsForm: "mapping" | "string";
  private readonly forced: boolean;
  private readonly repairs: readonly RepairRule[];
  private readonly fixed: Map<string, unknown>;
  private readonly converted = new WeakMap<object, unknown>();

  constructor(options: ChatConversationOptions) {
    this.template = getCompiledTemplate(options.template);
    this.forced = options.argumentsForm !== undefined;
    this.argumentsForm = options.argumentsForm ?? probeChatTemplate(this.template).argumentsForm;
    this.repairs = options.repairs ?? [];
    const fixed = new Map<string, unknown>();
    const variables = options.variables ?? {};
    for (const name of Object.keys(variables)) {
      const value = variables[name];
      if (value !== undefined) fixed.set(name, toPython(value));
    }
    fixed.set("tools", toPython(options.tools ?? null));
    fixed.set("documents", toPython(options.documents ?? null));
    this.fixed = fixed;
  }

  /**
   * Renders the conversation to the exact string transformers' `apply_chat_template(…, tokenize=False)` gives.
   * Throws a {@link TemplateError} where Python raises.
   */
  render(options: ChatConversationRenderOptions): string {
    const variables = new Map(this.fixed);
    variables.set("messages", this.convertMessages(options.messages));
    variables.set("add_generation_prompt", options.addGenerationPrompt ?? false);
    const renderOptions: RenderOptions = {};
    if (options.now !== undefined) renderOptions.now = options.now;
    if (options.maxOutputLength !== undefined) renderOptions.maxOutputLength = options.maxOutputLength;
    if (options.maxSteps !== undefined) renderOptions.maxSteps = options.maxSteps;
    return this.template.renderConverted(variables, renderOptions);
  }

  /** The engine's list of messages: cached conversions, and the new messages decoded and converted together. */
  private convertMessages(messages: readonly unknown[]): unknown[] {
    const out = new Array<unknown>(messages.length);
    const fresh: number[] = [];
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i];
      const hit = isKey(message) ? this.converted.get(message) : undefined;
      if (hit === undefined) fresh.push(i);
      else out[i] = hit;
    }
    if (fresh.length === 0) return out;
    const originals = fresh.map((i) => messages[i]);
    const prepared = prepareForTemplate(originals, {
      argumentsForm: this.argumentsForm,
      lossless: true,
      repairs: this.repairs,
    });
    // The probe's form is for wire text only: arguments the caller passes as a value render as given.
    const ready = this.forced ? prepared : keepNativeArguments(prepared, originals);
    fresh.forEach((at, j) => {
      const value = toPython(ready[j]);
      out[at] = value;
      const message = messages[at];
      if (isKey(message)) this.converted.set(message, value);
    });
    return out;
  }
}

function isKey(value: unknown): value is object {
  return typeof value === "object" && value !== null;
}

/**
 * A conversation that converts each message once, for a chat rendered turn after turn (see {@link ChatConversation}).
 *
 * @example
 * const conversation = createChatConversation({ template: source, tools, variables: { bos_token: "<s>" } });
 * conversation.render({ messages: [{ role: "user", content: "Weather in Paris?" }], addGenerationPrompt: true });
 */
export function createChatConversation(options: ChatConversationOptions): ChatConversation {
  return new ChatConversation(options);
}
