import { type ChatMessage, parseJson, type ToolCall } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatReading,
  isPlainObject,
  originOf,
  serializeJson,
  storedListOf,
  withOrigin,
} from "@toolcall/core/kit";
import { placeOfPart, readSavedList } from "./read-saved-list.js";

type Item = Record<string, unknown>;

/** Where an invocation lives in its message: its `tool-invocation` part and its `toolInvocations` entry. */
interface Home {
  message: number;
  id: unknown;
  part?: number;
  entry?: number;
}
/** The origin of a neutral entry: a message, or one invocation's call or result. */
interface V4Origin {
  message: number;
  invocation?: Home;
  side?: "call" | "result";
}

const ROLES = new Set(["system", "user", "assistant", "data"]);

function isInvocationPart(part: unknown): part is { type: "tool-invocation"; toolInvocation: Item } {
  return isPlainObject(part) && part.type === "tool-invocation" && isPlainObject(part.toolInvocation);
}

function isV4Message(value: unknown): boolean {
  return (
    isPlainObject(value) &&
    typeof value.role === "string" &&
    ROLES.has(value.role) &&
    ("content" in value || Array.isArray(value.parts))
  );
}

function hasInvocations(message: unknown): boolean {
  return (
    isPlainObject(message) &&
    ((Array.isArray(message.parts) && message.parts.some(isInvocationPart)) ||
      (Array.isArray(message.toolInvocations) && message.toolInvocations.length > 0))
  );
}

function jsonText(value: unknown): unknown {
  if (typeof value === "string") return value;
  const written = serializeJson(value);
  return written.success ? written.value : value;
}

/** Every invocation of a message, once, with where it lives (parts first, `toolInvocations` beside them). */
function homesOf(message: Item, index: number): Array<{ home: Home; invocation: Item }> {
  const out: Array<{ home: Home; invocation: Item }> = [];
  const byId = new Map<unknown, Home>();
  (Array.isArray(message.parts) ? message.parts : []).forEach((part, j) => {
    if (!isInvocationPart(part)) return;
    const home: Home = { message: index, id: part.toolInvocation.toolCallId, part: j };
    byId.set(home.id, home);
    out.push({ home, invocation: part.toolInvocation });
  });
  (Array.isArray(message.toolInvocations) ? message.toolInvocations : []).forEach((invocation, j) => {
    if (!isPlainObject(invocation)) return;
    const known = byId.get(invocation.toolCallId);
    if (known !== undefined && known.entry === undefined) known.entry = j;
    else out.push({ home: { message: index, id: invocation.toolCallId, entry: j }, invocation });
  });
  return out;
}

function textOf(message: Item): unknown {
  if (typeof message.content === "string" || !Array.isArray(message.parts)) return message.content;
  return message.parts
    .map((part) =>
      isPlainObject(part) && part.type === "text" && typeof part.text === "string" ? part.text : "",
    )
    .join("");
}

function neutralOf(message: unknown, index: number): ChatMessage[] {
  if (!isPlainObject(message) || message.role === "data") return [];
  if (message.role !== "assistant")
    return [withOrigin({ role: message.role, content: textOf(message) } as ChatMessage, { message: index })];
  const calls: ToolCall[] = [];
  const results: ChatMessage[] = [];
  for (const { home, invocation } of homesOf(message, index)) {
    calls.push(
      withOrigin(
        {
          id: invocation.toolCallId,
          type: "function",
          function: { name: invocation.toolName, arguments: jsonText(invocation.args) },
        } as ToolCall,
        { message: index, invocation: home, side: "call" } satisfies V4Origin,
      ),
    );
    if (invocation.state === "result")
      results.push(
        withOrigin(
          {
            role: "tool",
            tool_call_id: invocation.toolCallId,
            content: jsonText(invocation.result),
          } as ChatMessage,
          { message: index, invocation: home, side: "result" } satisfies V4Origin,
        ),
      );
  }
  const text = textOf(message);
  const assistant: ChatMessage = {
    role: "assistant",
    content: calls.length > 0 && !text ? null : (text as string),
  };
  if (calls.length > 0) assistant.tool_calls = calls;
  return [withOrigin(assistant, { message: index }), ...results];
}

/** What changes in one invocation: its call (`args`, name, id) and its result. */
interface InvocationEdit {
  call?: ToolCall;
  result?: unknown;
}

function argsOf(text: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof text !== "string") return { ok: true, value: text };
  const parsed = parseJson(text, { lossless: true });
  return parsed.success && isPlainObject(parsed.value) ? { ok: true, value: parsed.value } : { ok: false };
}

function edited(invocation: Item, edit: InvocationEdit): Item | undefined {
  const out: Item = { ...invocation };
  if (edit.call !== undefined) {
    const fn = (isPlainObject(edit.call.function) ? edit.call.function : {}) as Item;
    const args = argsOf(fn.arguments);
    if (!args.ok) return undefined;
    out.toolCallId = edit.call.id;
    out.toolName = fn.name;
    out.args = args.value;
  }
  if ("result" in edit) {
    out.state = "result";
    out.result = edit.result;
  }
  return out;
}

function writeV4(
  list: readonly unknown[],
  next: readonly unknown[],
): { ok: true; list: unknown[] } | { ok: false; reason: string } {
  const edits = new Map<number, Map<unknown, InvocationEdit>>();
  const kept = new Set<number>();
  const keptCalls = new Map<number, Set<unknown>>();
  const homeOfCall = new Map<unknown, Home>();
  const editOf = (home: Home) => {
    const byId = edits.get(home.message) ?? new Map<unknown, InvocationEdit>();
    edits.set(home.message, byId);
    const edit = byId.get(home.id) ?? {};
    byId.set(home.id, edit);
    return edit;
  };
  // Each message is read again once, however many of its entries come back.
  const again = new Map<number, ChatMessage[]>();
  const readAgain = (index: number) => {
    let entries = again.get(index);
    if (entries === undefined) {
      entries = neutralOf(list[index], index);
      again.set(index, entries);
    }
    return entries;
  };
  for (const entry of next) {
    if (!isPlainObject(entry)) return { ok: false, reason: "a message is not an object" };
    const origin = originOf(entry) as V4Origin | undefined;
    if (origin === undefined) {
      const home = entry.role === "tool" ? homeOfCall.get(entry.tool_call_id) : undefined;
      if (home === undefined)
        return { ok: false, reason: `a new ${String(entry.role)} message has no AI SDK 4 form` };
      editOf(home).result = entry.content;
      continue;
    }
    kept.add(origin.message);
    const before = readAgain(origin.message);
    if (origin.invocation !== undefined) {
      const old = before.find(
        (message) =>
          (originOf(message) as V4Origin).invocation?.id === origin.invocation?.id &&
          (originOf(message) as V4Origin).side === "result",
      );
      if (old !== undefined && old.content !== entry.content)
        editOf(origin.invocation).result = entry.content;
      continue;
    }
    if (entry.role !== "assistant") {
      if (entry.content !== before[0]?.content)
        return { ok: false, reason: `message ${origin.message}: a changed text is not rewritten` };
      continue;
    }
    const calls = new Set<unknown>();
    keptCalls.set(origin.message, calls);
    const oldCalls = (before[0]?.tool_calls ?? []) as ToolCall[];
    for (const call of (entry.tool_calls ?? []) as ToolCall[]) {
      const home = (originOf(call) as V4Origin | undefined)?.invocation;
      if (home === undefined) return { ok: false, reason: "a new call has no AI SDK 4 form" };
      calls.add(home.id);
      homeOfCall.set(call.id, home);
      const old = oldCalls.find((candidate) => (originOf(candidate) as V4Origin).invocation?.id === home.id);
      const fn = (call.function ?? {}) as Item;
      const oldFn = (old?.function ?? {}) as Item;
      if (
        old === undefined ||
        old.id !== call.id ||
        fn.name !== oldFn.name ||
        fn.arguments !== oldFn.arguments
      )
        editOf(home).call = call;
    }
  }
  const out: unknown[] = [];
  for (const [index, message] of list.entries()) {
    if (!isPlainObject(message) || neutralOf(message, index).length === 0) {
      out.push(message);
      continue;
    }
    if (!kept.has(index)) continue;
    const byId = edits.get(index);
    const calls = keptCalls.get(index);
    const dropped = (id: unknown) => calls !== undefined && !calls.has(id);
    const homes = homesOf(message, index);
    if (byId === undefined && !homes.some(({ home }) => dropped(home.id))) {
      out.push(message);
      continue;
    }
    const rewrite = (
      items: unknown[],
      read: (item: unknown) => Item | undefined,
      write: (item: unknown, invocation: Item) => unknown,
    ) => {
      const result: unknown[] = [];
      for (const item of items) {
        const invocation = read(item);
        if (invocation === undefined) {
          result.push(item);
          continue;
        }
        if (dropped(invocation.toolCallId)) continue;
        const edit = byId?.get(invocation.toolCallId);
        if (edit === undefined) {
          result.push(item);
          continue;
        }
        const next = edited(invocation, edit);
        if (next === undefined) return undefined;
        result.push(write(item, next));
      }
      return result;
    };
    const copy: Item = { ...message };
    if (Array.isArray(message.parts)) {
      const parts = rewrite(
        message.parts,
        (part) => (isInvocationPart(part) ? part.toolInvocation : undefined),
        (part, invocation) => ({ ...(part as Item), toolInvocation: invocation }),
      );
      if (parts === undefined)
        return { ok: false, reason: "AI SDK 4 keeps a call's args as an object; these are not one" };
      copy.parts = parts;
    }
    if (Array.isArray(message.toolInvocations)) {
      const entries = rewrite(
        message.toolInvocations,
        (entry) => (isPlainObject(entry) ? entry : undefined),
        (_entry, invocation) => invocation,
      );
      if (entries === undefined)
        return { ok: false, reason: "AI SDK 4 keeps a call's args as an object; these are not one" };
      copy.toolInvocations = entries;
    }
    out.push(copy);
  }
  return { ok: true, list: out };
}

/**
 * Vercel AI SDK 4 chats as `useChat` saved them (`{id, role, content, parts, toolInvocations}`): each
 * `tool-invocation` part (and its twin in the older `toolInvocations` list) is a call (`args`, an object, read as
 * its JSON text) and, once `state` is `result`, its result. Writing back changes both twins alike: a repaired call's
 * `args` stay an object, a call that never got a result gets one (`state: "result"`), every other message is the same
 * object. Claimed only when a message holds an invocation.
 *
 * @example
 * const reading = aiSdkUiMessagesV4Format.read([
 *   { id: "a1", role: "assistant", content: "", parts: [{ type: "tool-invocation", toolInvocation: { state: "result", toolCallId: "c1", toolName: "weather", args: { city: "Paris" }, result: "sunny" } }] },
 * ]);
 * reading.conversations[0]?.messages.map((message) => message.role); // ["assistant", "tool"]
 */
export const aiSdkUiMessagesV4Format: ConversationFormat = {
  id: "ai-sdk-ui-messages-v4",
  name: "Vercel AI SDK 4 chats (tool-invocation parts, toolInvocations)",
  expected:
    'a list of {id, role, content, parts: [{"type": "tool-invocation", "toolInvocation": {state, toolCallId, toolName, args, result?}}]} messages, or an object with "messages"',
  unit: "record",
  priority: 32,
  matches(value) {
    const found = storedListOf({ value, isMessage: isV4Message });
    return found?.list.some(hasInvocations) === true;
  },
  read(value): FormatReading {
    return readSavedList({
      value,
      what: "an AI SDK 4 chat",
      refusal: "not an AI SDK 4 chat",
      isMessage: isV4Message,
      view(found) {
        const messages = found.list.flatMap((message, index) => neutralOf(message, index));
        return {
          messages,
          placeOf(path) {
            const entry = typeof path[0] === "number" ? messages[path[0]] : undefined;
            let origin = originOf(entry) as V4Origin | undefined;
            if (path[1] === "tool_calls" && typeof path[2] === "number")
              origin = originOf((entry?.tool_calls as unknown[] | undefined)?.[path[2]]) as
                | V4Origin
                | undefined;
            if (origin === undefined) return found.key ?? "";
            const home = origin.invocation;
            return home?.part !== undefined
              ? placeOfPart({ key: found.key, message: origin.message, field: "parts", part: home.part })
              : home?.entry !== undefined
                ? placeOfPart({
                    key: found.key,
                    message: origin.message,
                    field: "toolInvocations",
                    part: home.entry,
                  })
                : placeOfPart({ key: found.key, message: origin.message, field: "parts" });
          },
          write: (next) => writeV4(found.list, next),
        };
      },
    });
  },
};
