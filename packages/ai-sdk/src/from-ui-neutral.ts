import type { ChatMessage, ToolCall } from "@toolcall/core";
import { isPlainObject } from "@toolcall/core/kit";
import { AI_SDK_ORIGIN, AI_SDK_PART, getTag, isCarried } from "./origin.js";
import { sameValue } from "./same-value.js";
import { inputOfArguments } from "./tool-call-input.js";
import { isCallInView, isToolPart, stepEntries, stepsOf, textOf, type UiOrigin } from "./ui-neutral-view.js";

type Part = Record<string, unknown>;

/** What the sanitized view says about one UI message. */
interface MessageEdit {
  /** The assistant entry of each step still there. */
  steps: Map<number, ChatMessage>;
  /** The result entry of each tool part, by part index (a synthesized one included). */
  results: Map<number, ChatMessage>;
}

function editOf(edits: Map<unknown, MessageEdit>, message: unknown): MessageEdit {
  let edit = edits.get(message);
  if (edit === undefined) {
    edit = { steps: new Map(), results: new Map() };
    edits.set(message, edit);
  }
  return edit;
}

function textParts(content: unknown): Part[] {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  return content
    .filter((part) => isPlainObject(part) && typeof part.text === "string")
    .map((part) => ({ type: "text", text: (part as Part).text }));
}

/** A tool part after the sanitized view: id, name, input from its call; state from its (possibly new) result. */
function rebuildToolPart(
  part: Part,
  call: ToolCall,
  before: ToolCall,
  result: ChatMessage | undefined,
  resultBefore: ChatMessage | undefined,
): Part {
  let next = part;
  if (!sameValue(call, before)) {
    next = { ...part };
    const fn = isPlainObject(call.function) ? call.function : {};
    const fnBefore = isPlainObject(before.function) ? before.function : {};
    if (call.id !== before.id) next.toolCallId = call.id;
    if (fn.name !== fnBefore.name) {
      if (part.type === "dynamic-tool") next.toolName = fn.name;
      else next.type = `tool-${String(fn.name)}`;
    }
    if (!sameValue(fn.arguments, fnBefore.arguments)) next.input = inputOfArguments(fn.arguments);
  }
  if (result === undefined || sameValue(result, resultBefore)) return next;
  if (next === part) next = { ...part };
  if (resultBefore === undefined) {
    // A result R4 made for a call that had none: the part ends as the error it was.
    const { approval: _approval, output: _output, inputEncoding: _encoding, ...rest } = next;
    return {
      ...rest,
      input: next.input === undefined ? inputOfArguments((call.function as Part).arguments) : next.input,
      state: "output-error",
      errorText: String(result.content),
    };
  }
  if (!sameValue(result.content, resultBefore.content)) {
    const content = result.content;
    if (next.state === "output-error") next.errorText = String(content);
    else if (next.state === "output-denied")
      next.approval = { ...(next.approval as Part), reason: String(content) };
    else next.output = content;
  }
  return next;
}

/** One UI message after the sanitized view: the message itself when none of its steps changed. */
function rebuildMessage(message: Part, edit: MessageEdit | undefined, trailing: boolean): Part | undefined {
  const parts = message.parts as unknown[];
  const out = [...parts];
  const removed = new Set<number>();
  let changed = false;
  for (const [step, indexes] of stepsOf(parts).entries()) {
    const derived = stepEntries(message, step, indexes, { trailing, enumerable: false });
    const derivedAssistant = derived[0]?.role === "assistant" ? derived[0] : undefined;
    const assistant = edit?.steps.get(step);
    const derivedResults = new Map(
      derived
        .filter((entry) => entry.role === "tool")
        .map((entry) => [getTag<UiOrigin>(entry, AI_SDK_ORIGIN)?.part, entry]),
    );
    const calls = new Map<number, ToolCall>();
    for (const call of Array.isArray(assistant?.tool_calls) ? assistant.tool_calls : [])
      calls.set(getTag<number>(call, AI_SDK_PART) as number, call as ToolCall);
    const callsBefore = new Map<number, ToolCall>();
    for (const call of Array.isArray(derivedAssistant?.tool_calls) ? derivedAssistant.tool_calls : [])
      callsBefore.set(getTag<number>(call, AI_SDK_PART) as number, call as ToolCall);
    const textChanged =
      derivedAssistant !== undefined && !sameValue(assistant?.content ?? "", derivedAssistant.content);
    const reasoningChanged =
      derivedAssistant !== undefined &&
      !sameValue(assistant?.reasoning_content, derivedAssistant.reasoning_content);
    let textPlaced = false;
    let reasoningPlaced = false;
    for (const index of indexes) {
      const part = parts[index];
      if (!isPlainObject(part)) continue;
      if (part.type === "text" && textChanged) {
        removed.add(index);
        if (!textPlaced) {
          textPlaced = true;
          out[index] = textParts(assistant?.content);
          removed.delete(index);
        }
        changed = true;
      } else if (part.type === "reasoning" && reasoningChanged) {
        removed.add(index);
        if (!reasoningPlaced && typeof assistant?.reasoning_content === "string") {
          reasoningPlaced = true;
          out[index] = [{ type: "reasoning", text: assistant.reasoning_content }];
          removed.delete(index);
        }
        changed = true;
      } else if (isToolPart(part) && isCallInView(part, trailing)) {
        const call = calls.get(index);
        const before = callsBefore.get(index) as ToolCall;
        if (call === undefined) {
          removed.add(index);
          changed = true;
          continue;
        }
        const rebuilt = rebuildToolPart(
          part,
          call,
          before,
          edit?.results.get(index),
          derivedResults.get(index),
        );
        if (rebuilt !== part) {
          out[index] = rebuilt;
          changed = true;
        }
      }
    }
  }
  if (!changed) return message;
  const next = out.flatMap((part, index) => (removed.has(index) ? [] : Array.isArray(part) ? part : [part]));
  return next.some((part) => !(isPlainObject(part) && part.type === "step-start"))
    ? { ...message, parts: next }
    : undefined;
}

/**
 * A system or user message after the sanitized view (a provider profile may change or remove one): the message
 * itself when its text is the same; its text parts replaced (other parts kept) when it changed; none when removed.
 */
function rebuildOther(message: Part, entry: ChatMessage | undefined): Part | undefined {
  if (entry === undefined) return undefined;
  const parts = message.parts as unknown[];
  if (sameValue(entry.content, textOf(parts))) return message;
  const kept = parts.filter((part) => !(isPlainObject(part) && part.type === "text"));
  return { ...message, parts: [...textParts(entry.content), ...kept] };
}

/**
 * UI messages after a neutral view of them changed (see `uiNeutralView`): each message whose steps, calls or results
 * changed is rebuilt, keeping every part the view does not hold; every other message is the same object; a message a
 * rule added is a UI message of its own after the one before it.
 *
 * @example
 * const { entries } = uiNeutralView(messages);
 * const out = fromUiNeutralEntries({ messages, entries: sanitizeHistory(entries).messages });
 */
export function fromUiNeutralEntries<M>(options: {
  messages: readonly M[];
  entries: readonly unknown[];
}): M[] {
  const { messages } = options;
  const edits = new Map<unknown, MessageEdit>();
  const homes = new Map<unknown, { message: Part; part: number }>();
  const added = new Map<number, Part[]>();
  let anchor = -1;
  for (const entry of options.entries) {
    const origin = getTag<UiOrigin>(entry, AI_SDK_ORIGIN);
    if (origin === undefined || !isPlainObject(entry)) {
      if (isCarried(entry)) anchor = messages.indexOf(entry.message as M);
      else if (isPlainObject(entry) && entry.role === "tool") {
        const home = homes.get(entry.tool_call_id);
        if (home !== undefined) editOf(edits, home.message).results.set(home.part, entry);
      } else if (isPlainObject(entry)) {
        // A message a provider profile added (a bridge turn): a UI message of its own, after the one before it.
        const list = added.get(anchor) ?? [];
        const id = `${String((messages[anchor] as Part | undefined)?.id ?? "start")}-toolcall-${list.length + 1}`;
        list.push({
          id,
          role: entry.role === "assistant" ? "assistant" : entry.role === "system" ? "system" : "user",
          parts: textParts(entry.content),
        });
        added.set(anchor, list);
      }
      continue;
    }
    anchor = messages.indexOf(origin.message as M);
    const edit = editOf(edits, origin.message);
    if (entry.role === "assistant") {
      edit.steps.set(origin.step, entry);
      for (const call of Array.isArray(entry.tool_calls) ? entry.tool_calls : []) {
        const part = getTag<number>(call, AI_SDK_PART);
        if (isPlainObject(call) && typeof part === "number")
          homes.set(call.id, { message: origin.message, part });
      }
    } else if (entry.role === "tool" && typeof origin.part === "number") {
      edit.results.set(origin.part, entry);
    } else {
      edit.steps.set(0, entry);
    }
  }
  const out: M[] = [...(added.get(-1) ?? [])] as M[];
  for (const [index, message] of messages.entries()) {
    const ui = isPlainObject(message) && Array.isArray(message.parts);
    const rebuilt = !ui
      ? message
      : message.role === "assistant"
        ? rebuildMessage(message, edits.get(message), index === messages.length - 1)
        : rebuildOther(message, edits.get(message)?.steps.get(0));
    if (rebuilt !== undefined) out.push(rebuilt as M);
    out.push(...((added.get(index) ?? []) as M[]));
  }
  return out;
}
