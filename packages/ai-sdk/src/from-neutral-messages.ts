import type { ChatMessage, ToolCall } from "@toolcall/core";
import { isPlainObject } from "@toolcall/core/kit";
import type { ModelMessage } from "ai";
import { freshFromNeutral, type MessageForm, partsOfContent, toolCallPartOf } from "./fresh-from-neutral.js";
import { AI_SDK_ORIGIN, AI_SDK_PART, type AiSdkOrigin, getTag, isCarried } from "./origin.js";
import { sameValue } from "./same-value.js";
import {
  type NeutralTags,
  neutralCallOf,
  neutralOfAssistant,
  neutralOfToolResult,
  thoughtSignatureOf,
} from "./to-neutral-messages.js";
import { outputOfContent } from "./tool-result-content.js";

type Part = Record<string, unknown>;

/** What `fromNeutralMessages` takes: which form of AI SDK messages to write. */
export interface FromNeutralOptions {
  /**
   * `messages` (default): `ModelMessage`s, where a plain text message has string content. `prompt`: the messages of
   * a model call's prompt (`LanguageModelV3Prompt`), whose user and assistant content is always a list of parts.
   */
  form?: MessageForm;
}

/** The tool-call part for a neutral call made from `source` (the part itself when the call did not change). */
function rebuildToolCallPart(call: ToolCall, source: Part, index: number, reading: NeutralTags): Part {
  const before = neutralCallOf(source, index, reading);
  if (sameValue(call, before)) return source;
  const fresh = toolCallPartOf(call);
  const fn = isPlainObject(call.function) ? call.function : {};
  const sameArguments = sameValue(fn.arguments, (before.function as Part).arguments);
  const part: Part = { ...source, toolCallId: fresh.toolCallId, toolName: fresh.toolName };
  // A text input is what the SDK keeps of a call it could not parse: a rebuilt call gets the object form.
  part.input = sameArguments && typeof source.input !== "string" ? source.input : fresh.input;
  const signature = thoughtSignatureOf(fresh.providerOptions);
  if (signature !== thoughtSignatureOf(source.providerOptions)) {
    const options = isPlainObject(source.providerOptions) ? source.providerOptions : {};
    const google = isPlainObject(options.google) ? { ...options.google } : {};
    if (signature === undefined) delete google.thoughtSignature;
    else google.thoughtSignature = signature;
    part.providerOptions = { ...options, google };
  }
  return part;
}

/** An assistant message made from `source` and changed in the neutral view (calls, text or reasoning). */
function rebuildAssistant(entry: ChatMessage, source: Part, sanitizer: boolean): Part {
  const reading: NeutralTags = { enumerable: false, textAsMapping: sanitizer };
  const derived = neutralOfAssistant(source, reading);
  if (sameValue(entry, derived)) return source;
  const sourceParts: unknown[] =
    typeof source.content === "string"
      ? [{ type: "text", text: source.content }]
      : Array.isArray(source.content)
        ? source.content
        : [];
  const textChanged = !sameValue(entry.content, derived.content);
  const reasoningChanged = !sameValue(entry.reasoning_content, derived.reasoning_content);
  const byPart = new Map<number, ToolCall>();
  const extra: ToolCall[] = [];
  for (const call of Array.isArray(entry.tool_calls) ? entry.tool_calls : []) {
    const index = getTag<number>(call, AI_SDK_PART);
    if (typeof index === "number" && !byPart.has(index)) byPart.set(index, call as ToolCall);
    else if (isPlainObject(call)) extra.push(call as ToolCall);
  }
  const dropped = new Set<unknown>();
  const renamed = new Map<unknown, unknown>();
  const out: unknown[] = [];
  let textAt = -1;
  let reasoningAt = -1;
  for (const [index, part] of sourceParts.entries()) {
    if (!isPlainObject(part)) {
      out.push(part);
      continue;
    }
    if (part.type === "text") {
      if (!textChanged) out.push(part);
      else if (textAt === -1) textAt = out.length;
    } else if (part.type === "reasoning") {
      if (!reasoningChanged) out.push(part);
      else if (reasoningAt === -1) reasoningAt = out.length;
    } else if (part.type === "tool-call" && part.providerExecuted !== true) {
      const call = byPart.get(index);
      if (call === undefined) {
        dropped.add(part.toolCallId);
        continue;
      }
      const rebuilt = rebuildToolCallPart(call, part, index, reading);
      if (rebuilt.toolCallId !== part.toolCallId) renamed.set(part.toolCallId, rebuilt.toolCallId);
      out.push(rebuilt);
    } else if (part.type === "tool-approval-request") {
      if (dropped.has(part.toolCallId)) continue;
      out.push(renamed.has(part.toolCallId) ? { ...part, toolCallId: renamed.get(part.toolCallId) } : part);
    } else {
      out.push(part);
    }
  }
  // New text goes where the old text was (before the first call when there was none), reasoning first.
  if (textChanged) {
    const at = textAt !== -1 ? textAt : firstCallAt(out);
    out.splice(at, 0, ...partsOfContent(entry.content));
    if (reasoningAt >= at) reasoningAt += partsOfContent(entry.content).length;
  }
  if (reasoningChanged && typeof entry.reasoning_content === "string") {
    out.splice(reasoningAt === -1 ? 0 : reasoningAt, 0, { type: "reasoning", text: entry.reasoning_content });
  }
  for (const call of extra) out.push(toolCallPartOf(call));
  const content =
    typeof source.content === "string" && out.every((part) => isPlainObject(part) && part.type === "text")
      ? out.map((part) => (part as Part).text).join("")
      : out;
  return { ...source, content };
}

function firstCallAt(parts: readonly unknown[]): number {
  const at = parts.findIndex((part) => isPlainObject(part) && part.type === "tool-call");
  return at === -1 ? parts.length : at;
}

/** The tool message for the neutral results made from `source` (its approval responses go with the first group). */
function rebuildToolMessage(source: Part, group: readonly ChatMessage[], first: boolean): Part | undefined {
  const parts: unknown[] = Array.isArray(source.content) ? source.content : [];
  const byPart = new Map<number, ChatMessage>();
  for (const entry of group) byPart.set(getTag<AiSdkOrigin>(entry, AI_SDK_ORIGIN)?.part as number, entry);
  const content: unknown[] = [];
  let changed = !first;
  for (const [index, part] of parts.entries()) {
    if (!(isPlainObject(part) && part.type === "tool-result")) {
      if (first) content.push(part);
      continue;
    }
    const entry = byPart.get(index);
    if (entry === undefined) {
      changed = true;
      continue;
    }
    const derived = neutralOfToolResult(part);
    if (sameValue(entry, derived)) {
      content.push(part);
      continue;
    }
    changed = true;
    content.push({
      ...part,
      toolCallId: entry.tool_call_id,
      output: sameValue(entry.content, derived.content)
        ? part.output
        : outputOfContent(entry.content, part.output),
    });
  }
  if (!changed && content.length === parts.length) return source;
  return content.length === 0 ? undefined : { ...source, content };
}

/** A system or user message made from `source`: the source when unchanged, else built again with its options. */
function rebuildOther(entry: ChatMessage, source: Part): unknown {
  if (
    entry.role === "system"
      ? sameValue(entry.content, source.content)
      : sameValue(entry, { role: "user", content: userContent(source.content) })
  )
    return source;
  const built = freshFromNeutral(entry, { form: typeof source.content === "string" ? "messages" : "prompt" });
  return isPlainObject(built) && source.providerOptions !== undefined
    ? { ...built, providerOptions: source.providerOptions }
    : built;
}

function userContent(content: unknown): unknown {
  return Array.isArray(content) ? partsOfContent(content) : content;
}

function recordNames(message: unknown, names: Map<unknown, unknown>): void {
  if (!isPlainObject(message) || message.role !== "assistant" || !Array.isArray(message.content)) return;
  for (const part of message.content) {
    if (isPlainObject(part) && part.type === "tool-call") names.set(part.toolCallId, part.toolName);
  }
}

/** {@link fromNeutralMessages} over the entries the sanitizers hold (carried messages, foreign values). */
export function fromNeutralEntries(entries: readonly unknown[], form: MessageForm): unknown[] {
  const out: unknown[] = [];
  const names = new Map<unknown, unknown>();
  const emitted = new Set<unknown>();
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i];
    if (isCarried(entry)) {
      out.push(entry.message);
      continue;
    }
    if (!isPlainObject(entry)) {
      out.push(entry);
      continue;
    }
    const origin = getTag<AiSdkOrigin>(entry, AI_SDK_ORIGIN);
    const source = origin?.message;
    let built: unknown;
    if (origin === undefined || !isPlainObject(source) || source.role !== entry.role) {
      const toolName = entry.role === "tool" ? names.get(entry.tool_call_id) : undefined;
      built = freshFromNeutral(entry, { form, ...(typeof toolName === "string" ? { toolName } : {}) });
    } else if (entry.role === "tool") {
      const group: ChatMessage[] = [entry];
      while (
        i + 1 < entries.length &&
        getTag<AiSdkOrigin>(entries[i + 1], AI_SDK_ORIGIN)?.message === source
      ) {
        group.push(entries[++i] as ChatMessage);
      }
      built = rebuildToolMessage(source, group, !emitted.has(source));
      emitted.add(source);
      if (built === undefined) continue;
    } else if (entry.role === "assistant") {
      built = rebuildAssistant(entry, source, origin.sanitizer === true);
    } else {
      built = rebuildOther(entry, source);
    }
    recordNames(built, names);
    out.push(built);
  }
  return out;
}

/**
 * Core's neutral messages as AI SDK messages. A message made by {@link toNeutralMessages} gives back its AI SDK
 * message: the very object when nothing changed, else a copy with what changed (a call's id, arguments or
 * signature; text; reasoning; results), keeping every part and option the neutral view could not hold. Other neutral
 * messages are built anew: `system`/`developer` → system, `user` → user, `assistant` → reasoning, text and tool-call
 * parts (arguments that are a JSON object become the `input` object; any other arguments stay as the SDK keeps a
 * call it could not parse, the text itself), `tool` → a tool message with one result (`output` `text`, or `content`
 * for a list of text parts), named after the call it answers. Converting such a message back unchanged gives the
 * neutral message itself, arguments byte for byte.
 *
 * @example
 * fromNeutralMessages([
 *   { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "weather", arguments: '{"city": "Paris"}' } }] },
 *   { role: "tool", tool_call_id: "c1", content: "sunny" },
 * ]);
 * // [{ role: "assistant", content: [{ type: "tool-call", toolCallId: "c1", toolName: "weather", input: { city: "Paris" } }] },
 * //  { role: "tool", content: [{ type: "tool-result", toolCallId: "c1", toolName: "weather", output: { type: "text", value: "sunny" } }] }]
 */
export function fromNeutralMessages(
  messages: readonly ChatMessage[],
  options: FromNeutralOptions = {},
): ModelMessage[] {
  if (!Array.isArray(messages)) return [];
  return fromNeutralEntries(messages, options.form ?? "messages") as ModelMessage[];
}
