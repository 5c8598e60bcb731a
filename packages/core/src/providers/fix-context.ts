import { isPlainObject } from "../define-property.js";
import type { ChatMessage } from "../types.js";
import type { ProviderConstraint } from "./provider-profile.js";

/** Stable names of the changes a provider's fixes make (beside core's R4 rules). */
export type ProviderChangeRule =
  | "call_id_remapped"
  | "name_renamed"
  | "thought_signature_added"
  | "item_id_removed"
  | "reasoning_filled"
  | "reasoning_moved"
  | "reasoning_removed"
  | "content_replaced"
  | "content_moved_to_plan"
  | "message_moved"
  | "message_inserted"
  | "message_removed";

/** One change a provider's fix made: where (the input message), which rule and constraint, and what it replaced. */
export interface ProviderChange {
  rule: ProviderChangeRule;
  /** The index in the input of the message changed (for an inserted message: of the message it precedes). */
  messageIndex: number;
  toolCallId?: string;
  before?: unknown;
  after?: unknown;
  /** The profile constraint the change answers. */
  constraint: ProviderConstraint["code"];
}

/** Symbol key that carries a message's input index through core's copies (object spread keeps symbol keys). */
export const ORIGIN = Symbol("@toolcall/core/origin");

/** What a fix needs: where a message came from, and a place to record what it changed. */
export interface FixContext {
  /** The input index a message came from (`-1` for one that did not). */
  origin(message: unknown): number;
  /** A copy of `message` carrying the given origin (for messages a fix inserts). */
  tagged<T extends object>(message: T, origin: number): T;
  record(change: ProviderChange): void;
}

/** A fix: the messages it returns (the same array when it changed nothing). */
export type Fix = (
  messages: readonly unknown[],
  constraint: ProviderConstraint,
  context: FixContext,
) => unknown[];

/** The message as a chat message when it is a plain object. */
export function chat(message: unknown): ChatMessage | undefined {
  return isPlainObject(message) ? (message as ChatMessage) : undefined;
}

/** The calls of an assistant message (a list with at least one entry), or `undefined`. */
export function callsOf(message: ChatMessage | undefined): unknown[] | undefined {
  if (message?.role !== "assistant" || !Array.isArray(message.tool_calls) || message.tool_calls.length === 0)
    return undefined;
  return message.tool_calls;
}

/** A copy of a plain object without one key (symbol keys kept, so the origin travels). */
export function without<T extends object>(value: T, key: string): T {
  const copy = { ...value } as Record<string | symbol, unknown>;
  delete copy[key];
  return copy as T;
}

/**
 * Maps `messages` through `change`, copying the array only once something changed (a history that needs nothing
 * keeps its array).
 */
export function mapMessages(
  messages: readonly unknown[],
  change: (message: unknown, index: number) => unknown,
): unknown[] {
  let out: unknown[] | undefined;
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index];
    const next = change(message, index);
    if (next !== message && out === undefined) out = messages.slice(0, index);
    out?.push(next);
  }
  return out ?? (messages as unknown[]);
}
