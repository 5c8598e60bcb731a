import { parseJson } from "@toolcall/core";
import { isPlainObject } from "@toolcall/core/kit";
import { streamTarget } from "@toolcall/files/parts";
import { probeChatTemplate, renderArgumentNotes, safeRenderChatTemplate } from "@toolcall/jinja";
import { readChatTemplate } from "../input/chat-template-file.js";
import { type Conversation, isConversationList, toConversation } from "../input/conversation.js";
import { readText, withoutBom } from "../input/read-text.js";

/** What `toolcall render` takes: its flags, and the standard streams (tests pass their own). */
export interface RenderOptions {
  /** The template file: a raw Jinja template, or a JSON config with `chat_template`; `-` for standard input. */
  template: string;
  /** The conversation: a JSON list of messages, or an object with `messages` (and `tools`); `-` for standard input. */
  messages: string;
  /** A tool list (a JSON array, or an object with `tools`) used instead of the conversation's. */
  tools?: string;
  /** The named template to take from a config's list of templates. */
  templateName?: string;
  /** Open an assistant turn at the end (transformers' `add_generation_prompt`). */
  addGenerationPrompt: boolean;
  /** `--bos-token`, over the config's. */
  bosToken?: string;
  /** `--eos-token`, over the config's. */
  eosToken?: string;
  /** `--var NAME=VALUE`, over everything else (`documents` goes to transformers' `documents`). */
  variables: Record<string, unknown>;
  /** The clock `strftime_now` reads; default: now. */
  now?: Date;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

export type Read<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * A conversation as `check` reads one: a JSON list of messages or an object with `messages` (numbers kept exact).
 *
 * @example
 * parseConversation('[{"role": "user", "content": "Hi"}]', "chat.json"); // { ok: true, value: { messages: [...] } }
 */
export function parseConversation(text: string, path: string): Read<Conversation> {
  const body = withoutBom(text);
  const parsed = parseJson(body, { lossless: true });
  if (parsed.success) {
    if (isConversationList(parsed.value)) {
      const count = (parsed.value as unknown[]).length;
      return {
        ok: false,
        message: `is a JSON array of ${count} conversations; render takes one (jq '.[0]' ${path} | toolcall render --messages - …)`,
      };
    }
    const conversation = toConversation(parsed.value);
    if (conversation === undefined)
      return {
        ok: false,
        message: 'is not a conversation: give a JSON list of messages or an object with "messages"',
      };
    return { ok: true, value: conversation };
  }
  const lines = body.split(/\r?\n/).filter((line) => line.trim() !== "");
  if (lines.length > 1 && parseJson(lines[0] as string).success)
    return {
      ok: false,
      message: `is JSONL with ${lines.length} lines; render takes one conversation (sed -n 1p ${path} | toolcall render --messages - …)`,
    };
  return { ok: false, message: `is not JSON: ${parsed.error}` };
}

/**
 * A tool list: a JSON array of tool definitions, or an object with a `tools` array (a request body).
 *
 * @example
 * parseTools('{"tools": []}'); // { ok: true, value: [] }
 */
export function parseTools(text: string): Read<unknown[]> {
  const parsed = parseJson(withoutBom(text), { lossless: true });
  if (!parsed.success) return { ok: false, message: `is not JSON: ${parsed.error}` };
  if (Array.isArray(parsed.value)) return { ok: true, value: parsed.value };
  if (isPlainObject(parsed.value) && Array.isArray(parsed.value.tools))
    return { ok: true, value: parsed.value.tools };
  return { ok: false, message: 'is not a tool list: give a JSON array of tools or an object with "tools"' };
}

/**
 * `toolcall render`: the exact prompt a chat template renders for a conversation, byte for byte what transformers'
 * `apply_chat_template(…, tokenize=False)` gives, on standard output with nothing added. Tool-call arguments in wire
 * form (JSON text) are decoded into the form the template takes (`@toolcall/jinja`'s probe). Exit 0 rendered, 1 the
 * template raised (Python's `Type: message` on standard error, as transformers would raise it), 2 unreadable input.
 *
 * @example
 * const code = await runRender({ template: "tokenizer_config.json", messages: "session.json", addGenerationPrompt: true, variables: {} });
 */
export async function runRender(options: RenderOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const stdin = options.stdin ? { stdin: options.stdin } : {};
  const unreadable = (file: string, message: string) => {
    stderr.write(`toolcall render: ${file}: ${message}\n`);
    return 2;
  };

  const messagesText = await readText({ path: options.messages, ...stdin });
  if (!messagesText.ok) return unreadable(options.messages, messagesText.message);
  const conversation = parseConversation(messagesText.text, options.messages);
  if (!conversation.ok) return unreadable(options.messages, conversation.message);

  let tools: readonly unknown[] | null = conversation.value.tools ?? null;
  if (options.tools !== undefined) {
    const toolsText = await readText({ path: options.tools, ...stdin });
    if (!toolsText.ok) return unreadable(options.tools, toolsText.message);
    const parsed = parseTools(toolsText.text);
    if (!parsed.ok) return unreadable(options.tools, parsed.message);
    tools = parsed.value;
  }

  const templateText = await readText({ path: options.template, ...stdin });
  if (!templateText.ok) return unreadable(options.template, templateText.message);
  const template = readChatTemplate(templateText.text, {
    path: options.template,
    ...(options.templateName !== undefined ? { templateName: options.templateName } : {}),
    withTools: tools !== null,
  });
  if (!template.ok) return unreadable(options.template, template.message);

  // transformers: the tokenizer's special tokens, then the caller's keyword arguments over them.
  const { documents, ...variables }: Record<string, unknown> = {
    ...template.template.specialTokens,
    ...(options.bosToken !== undefined ? { bos_token: options.bosToken } : {}),
    ...(options.eosToken !== undefined ? { eos_token: options.eosToken } : {}),
    ...options.variables,
  };
  const messages = conversation.value.messages;
  const result = safeRenderChatTemplate({
    template: template.template.source,
    messages,
    tools,
    addGenerationPrompt: options.addGenerationPrompt,
    variables,
    ...(documents !== undefined ? { documents: documents as unknown[] | null } : {}),
    ...(options.now !== undefined ? { now: options.now } : {}),
  });
  if (!result.ok) {
    stderr.write(`${result.error.pythonText}\n`);
    return 1;
  }
  const { argumentsForm } = probeChatTemplate(template.template.source);
  for (const note of renderArgumentNotes(messages, { argumentsForm }))
    stderr.write(`toolcall render: note: ${note.place} ${note.message}\n`);
  const output = streamTarget(stdout);
  output.write(result.text);
  await output.commit();
  return 0;
}
