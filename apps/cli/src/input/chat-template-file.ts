import { isPlainObject } from "@toolcall/core/kit";
import { withoutBom } from "./read-text.js";

/**
 * The special tokens transformers gives every template (its `special_tokens_map`: each one that is set, as text),
 * in its order. `additional_special_tokens` is a list.
 */
const SPECIAL_TOKENS = [
  "bos_token",
  "eos_token",
  "unk_token",
  "sep_token",
  "pad_token",
  "cls_token",
  "mask_token",
  "additional_special_tokens",
] as const;

/** A chat template read from a file, with what the file says about the variables it gets. */
export interface ChatTemplateFile {
  /** The Jinja source. */
  source: string;
  /** `jinja`: the file is the template. `config`: the `chat_template` field of a JSON file. */
  kind: "jinja" | "config";
  /** The name of the template taken from a list of named templates (`default`, `tool_use`, `--template-name`). */
  name?: string;
  /** The names of every template in such a list. */
  names?: string[];
  /** The special tokens the config sets (`bos_token`, `eos_token`, …), as text. */
  specialTokens: Record<string, string | string[]>;
}

/** The template read from a file, or why it could not be (the command exits 2). */
export type ChatTemplateFileResult =
  | { ok: true; template: ChatTemplateFile }
  | { ok: false; message: string };

/** A token as tokenizer_config.json writes it: a string, or an AddedToken object `{ content, … }`. */
function tokenText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (isPlainObject(value) && typeof value.content === "string") return value.content;
  return undefined;
}

function specialTokensOf(config: Record<string, unknown>): Record<string, string | string[]> {
  const tokens: Record<string, string | string[]> = {};
  for (const key of SPECIAL_TOKENS) {
    const value = config[key];
    if (key === "additional_special_tokens") {
      if (!Array.isArray(value)) continue;
      const list = value.map(tokenText).filter((text): text is string => text !== undefined);
      // transformers leaves out a token that is not set: an empty list, like an empty string, is not set.
      if (list.length > 0) tokens[key] = list;
      continue;
    }
    const text = tokenText(value);
    if (text !== undefined && text !== "") tokens[key] = text;
  }
  return tokens;
}

/** `chat_template` as a list of `{ name, template }` (or a `{ name: template }` object): the templates by name. */
function namedTemplates(field: unknown): Map<string, string> | undefined {
  const named = new Map<string, string>();
  if (Array.isArray(field)) {
    for (const item of field) {
      if (!isPlainObject(item) || typeof item.name !== "string" || typeof item.template !== "string")
        return undefined;
      named.set(item.name, item.template);
    }
    return named;
  }
  if (isPlainObject(field)) {
    for (const [name, template] of Object.entries(field)) {
      if (typeof template !== "string") return undefined;
      named.set(name, template);
    }
    return named;
  }
  return undefined;
}

/**
 * Reads a chat template from a file's text: a raw Jinja template (`chat_template.jinja`), or a JSON file with a
 * `chat_template` field (`tokenizer_config.json`, `chat_template.json`), whose special tokens come along. A field
 * holding a list of named templates is resolved as transformers' `get_chat_template` does: the name asked for,
 * else `tool_use` when the conversation has tools, else `default`.
 *
 * A file is read as JSON when its name ends in `.json`, or when its text is a JSON object with a `chat_template`
 * field; anything else is the template itself, byte for byte.
 *
 * @example
 * readChatTemplate('{"chat_template": "{{ bos_token }}", "bos_token": "<s>"}', { path: "tokenizer_config.json", withTools: false });
 * // { ok: true, template: { source: "{{ bos_token }}", kind: "config", specialTokens: { bos_token: "<s>" } } }
 */
export function readChatTemplate(
  text: string,
  options: { path: string; templateName?: string; withTools: boolean },
): ChatTemplateFileResult {
  const isJsonName = /\.json$/i.test(options.path);
  let config: unknown;
  let parsed = false;
  if (isJsonName || withoutBom(text).trimStart().startsWith("{")) {
    try {
      config = JSON.parse(withoutBom(text));
      parsed = true;
    } catch (error) {
      if (isJsonName)
        return {
          ok: false,
          message: `is not JSON: ${error instanceof Error ? error.message : String(error)}`,
        };
    }
  }
  const isConfig = parsed && isPlainObject(config) && (isJsonName || "chat_template" in config);
  if (!isConfig) {
    if (isJsonName) return { ok: false, message: "is JSON but not an object with a chat_template field" };
    if (options.templateName !== undefined)
      return {
        ok: false,
        message: "is one template: --template-name picks from a list of named templates in a JSON config",
      };
    return { ok: true, template: { source: text, kind: "jinja", specialTokens: {} } };
  }
  const object = config as Record<string, unknown>;
  const specialTokens = specialTokensOf(object);
  const field = object.chat_template;
  if (field === undefined || field === null)
    return {
      ok: false,
      message:
        "has no chat_template field (newer models ship the template as chat_template.jinja beside tokenizer_config.json: pass that file)",
    };
  if (typeof field === "string") {
    if (options.templateName !== undefined)
      return {
        ok: false,
        message: "holds one template: --template-name picks from a list of named templates",
      };
    return { ok: true, template: { source: field, kind: "config", specialTokens } };
  }
  const named = namedTemplates(field);
  if (named === undefined)
    return {
      ok: false,
      message: 'chat_template is neither a string nor a list of { "name", "template" } objects',
    };
  const names = [...named.keys()].sort();
  const listed = names.map((name) => JSON.stringify(name)).join(", ");
  let name: string;
  if (options.templateName !== undefined) {
    if (!named.has(options.templateName))
      return {
        ok: false,
        message: `has no template named ${JSON.stringify(options.templateName)} (it has ${listed})`,
      };
    name = options.templateName;
  } else if (options.withTools && named.has("tool_use")) {
    name = "tool_use";
  } else if (named.has("default")) {
    name = "default";
  } else {
    return {
      ok: false,
      message: `has several templates and none is named "default": choose one with --template-name (${listed})`,
    };
  }
  return {
    ok: true,
    template: { source: named.get(name) as string, kind: "config", name, names, specialTokens },
  };
}
