import { isPlainObject } from "../define-property.js";
import type { ConstraintCode } from "./provider-profile.js";

/**
 * What a check found, before it is worded as a provider's error: where (a path from the history), and the values
 * the provider's text names. `facts.index` is always the neutral message index; the renderer numbers it as the
 * provider does.
 */
export interface Finding {
  code: ConstraintCode;
  path: Array<string | number>;
  facts: Facts;
}

/** The values a constraint's text can name (see `ProviderConstraint.message`). */
export interface Facts {
  /** The neutral index of the message the provider names. */
  index: number;
  /** What the finding is about in that message: one of its calls (`call`), a tool result, or the message. */
  subject: "call" | "result" | "message";
  call?: number;
  id?: string;
  ids?: string[];
  name?: string;
  length?: number;
  role?: string;
  previous_role?: string;
  item_id?: string;
  reasoning_id?: string;
  json_error?: string;
}

/** One tool call as the checks read it: every field read once, a throwing getter read as absent. */
export interface CallView {
  plain: boolean;
  id: unknown;
  isFunction: boolean;
  name: unknown;
  arguments: unknown;
  thoughtSignature: unknown;
  itemId: unknown;
}

/** One message as the checks read it (never throws, whatever the input holds). */
export interface MessageView {
  plain: boolean;
  role: unknown;
  content: unknown;
  /** The calls of an assistant message whose `tool_calls` is a list; `[]` otherwise. */
  calls: CallView[];
  toolCallId: unknown;
  hasReasoningContent: boolean;
  reasoningContent: unknown;
  reasoningDetails: unknown;
}

/** `value[key]` for a plain object, `undefined` for anything else or when reading throws. */
export function read(value: unknown, key: string): unknown {
  if (!isPlainObject(value)) return undefined;
  try {
    return Object.hasOwn(value, key) ? value[key] : undefined;
  } catch {
    return undefined;
  }
}

function viewCall(call: unknown): CallView {
  const fn = read(call, "function");
  const type = read(call, "type");
  return {
    plain: isPlainObject(call),
    id: read(call, "id"),
    isFunction: type === "function" || (type === undefined && isPlainObject(fn)),
    name: read(fn, "name"),
    arguments: read(fn, "arguments"),
    thoughtSignature: read(read(read(call, "extra_content"), "google"), "thought_signature"),
    itemId: read(read(read(call, "extra_content"), "openai"), "item_id"),
  };
}

/** `Array.isArray` that never throws (a revoked proxy is not a list). */
export function isList(value: unknown): value is unknown[] {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}

/** The entries of a list, or `[]` for anything else (a revoked or throwing proxy included). */
export function listOf(value: unknown): unknown[] {
  try {
    return Array.isArray(value) ? Array.from(value) : [];
  } catch {
    return [];
  }
}

/** Reads every message once into a {@link MessageView}. */
export function viewMessages(history: readonly unknown[]): MessageView[] {
  const messages = listOf(history);
  const views: MessageView[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    const role = read(message, "role");
    const toolCalls = role === "assistant" ? read(message, "tool_calls") : undefined;
    let hasReasoningContent = false;
    if (isPlainObject(message)) {
      try {
        hasReasoningContent = Object.hasOwn(message, "reasoning_content");
      } catch {
        hasReasoningContent = false;
      }
    }
    views.push({
      plain: isPlainObject(message),
      role,
      content: read(message, "content"),
      calls: listOf(toolCalls).map(viewCall),
      toolCallId: read(message, "tool_call_id"),
      hasReasoningContent,
      reasoningContent: read(message, "reasoning_content"),
      reasoningDetails: read(message, "reasoning_details"),
    });
  }
  return views;
}

/** A non-empty string, or `undefined`. */
export function nonEmptyString(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A role as providers print it. */
export function roleName(view: MessageView | undefined): string {
  if (view === undefined) return "undefined";
  return typeof view.role === "string" ? view.role : String(view.role);
}

/** True for the roles that leave the message list on APIs with a separate system prompt. */
export function isSystemRole(role: unknown): boolean {
  return role === "system" || role === "developer";
}

/** Entries of `reasoning_details` that are Responses API reasoning items (`format: "openai-responses-v1"`). */
export function responsesReasoning(view: MessageView): unknown[] {
  return listOf(view.reasoningDetails).filter((entry) => read(entry, "format") === "openai-responses-v1");
}
