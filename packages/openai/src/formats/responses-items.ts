import { type ChatMessage, parseJson, type ToolCall } from "@toolcall/core";
import { isPlainObject, originOf, serializeJson, withOrigin } from "@toolcall/core/kit";

/** Item types of the Responses API (input and output), as the API names them. */
export const RESPONSE_ITEM_TYPES: ReadonlySet<string> = new Set([
  "message",
  "function_call",
  "function_call_output",
  "custom_tool_call",
  "custom_tool_call_output",
  "reasoning",
  "compaction",
  "item_reference",
  "web_search_call",
  "file_search_call",
  "computer_call",
  "computer_call_output",
  "code_interpreter_call",
  "image_generation_call",
  "local_shell_call",
  "local_shell_call_output",
  "shell_call",
  "shell_call_output",
  "apply_patch_call",
  "apply_patch_call_output",
  "mcp_call",
  "mcp_list_tools",
  "mcp_approval_request",
  "mcp_approval_response",
]);

/**
 * True for a Responses API item: an object of a known item `type`, or an easy input message (`{role, content}`).
 *
 * @example
 * isResponseItem({ type: "function_call", call_id: "c1", name: "f", arguments: "{}" }); // true
 */
export function isResponseItem(value: unknown): boolean {
  if (!isPlainObject(value)) return false;
  if (typeof value.type === "string") return RESPONSE_ITEM_TYPES.has(value.type);
  return typeof value.role === "string" && "content" in value;
}

/** What a neutral message or call came from: the items it was read from. */
interface ItemOrigin {
  items: number[];
}

/** Edits to an item list: items replaced, items dropped, new items after an index (-1: before the first). */
export interface ItemEdits {
  replaced: Map<number, unknown>;
  dropped: Set<number>;
  inserted: Map<number, unknown[]>;
}

/** A list of Responses items read into neutral messages, and the way back. */
export interface ItemsReading {
  messages: ChatMessage[];
  /** The item a neutral path (message index first) is in: a call's own item for a path into a call. */
  itemAt(path: readonly (string | number)[]): number | undefined;
  /** The edits that turn the item list into one holding `messages` (a sanitized copy of the neutral messages). */
  edits(messages: readonly unknown[]): { ok: true; edits: ItemEdits } | { ok: false; reason: string };
}

function projectParts(content: unknown, role: string): unknown {
  if (typeof content === "string" || !Array.isArray(content)) return content;
  const parts: unknown[] = [];
  for (const part of content) {
    if (!isPlainObject(part)) {
      parts.push(part);
      continue;
    }
    switch (part.type) {
      case "input_text":
      case "output_text":
      case "text":
        parts.push({ type: "text", text: part.text });
        break;
      case "refusal":
        parts.push(
          role === "assistant"
            ? { type: "refusal", refusal: part.refusal }
            : { type: "text", text: part.refusal },
        );
        break;
      case "input_image":
        if (role === "user")
          parts.push({ type: "image_url", image_url: { url: part.image_url ?? part.file_id } });
        break;
      case "input_file":
        if (role === "user") parts.push({ type: "file", file: {} });
        break;
      default:
        // Other parts have no Chat form: they stay in the record, out of the view; in an assistant message they stay
        // in the view too, so a message holding only such parts never looks empty (and is never removed as empty).
        if (role === "assistant") parts.push(part);
        break;
    }
  }
  return parts;
}

/** A tool output as neutral content: its text, or its text parts. */
function projectOutput(output: unknown): unknown {
  if (typeof output === "string") return output;
  if (Array.isArray(output)) return projectParts(output, "tool");
  return output === undefined || output === null ? "" : JSON.stringify(output);
}

/** A local shell call's `action` as a call's arguments: its JSON text (the item carries no text of its own). */
function shellArguments(item: Record<string, unknown>): unknown {
  const written = serializeJson(item.action);
  return written.success ? written.value : item.action;
}

function setKey<T extends Record<string, unknown>>(target: T, key: string, value: unknown): T {
  const copy = { ...target };
  Object.defineProperty(copy, key, { value, writable: true, enumerable: true, configurable: true });
  return copy;
}

/**
 * Reads Responses API items into neutral messages: message items as messages of their role; a run of
 * `function_call` / `custom_tool_call` items as one assistant message with `tool_calls` (an assistant message item
 * before it stays a message of its own: the list is flat, and a history of two assistant messages is the same); each `function_call_output` / `custom_tool_call_output` as a tool message. Reasoning and
 * built-in tool items stay in the list, out of the view; so do, with `continues` (a request that continues a stored
 * response), outputs for calls the list does not hold (the server holds them). Every neutral message and call carries its items as its
 * origin, so {@link ItemsReading.edits} can say which items a sanitized history changes, drops or adds.
 *
 * @example
 * const reading = readResponseItems([{ type: "function_call", call_id: "c1", name: "f", arguments: "" }]);
 * reading.messages[0].tool_calls[0].function.arguments; // ""
 */
export function readResponseItems(
  items: readonly unknown[],
  options: { continues?: boolean } = {},
): ItemsReading {
  // A request that continues a stored response (`previous_response_id`, `conversation`) may send outputs for calls
  // the server holds: those outputs answer nothing in this list and are not orphans; they stay out of the view.
  const callIds = new Set<unknown>();
  if (options.continues === true) {
    for (const item of items) {
      if (
        isPlainObject(item) &&
        (item.type === "function_call" ||
          item.type === "custom_tool_call" ||
          item.type === "local_shell_call")
      ) {
        callIds.add(item.call_id);
      }
    }
  }
  const messages: ChatMessage[] = [];
  let turn: (ChatMessage & { tool_calls?: ToolCall[] }) | undefined;
  // A call-only assistant message has no item of its own: its calls carry theirs.
  const flush = () => {
    if (turn !== undefined) messages.push(withOrigin(turn, { items: [] } satisfies ItemOrigin));
    turn = undefined;
  };
  items.forEach((item, index) => {
    if (!isPlainObject(item)) return;
    const type = typeof item.type === "string" ? item.type : "message";
    if (type === "message") {
      flush();
      const role = item.role;
      const message = { role, content: projectParts(item.content, String(role)) };
      messages.push(withOrigin(message, { items: [index] } satisfies ItemOrigin));
      return;
    }
    if (type === "function_call" || type === "custom_tool_call") {
      turn ??= { role: "assistant", content: null };
      const call: ToolCall =
        type === "function_call"
          ? { id: item.call_id, type: "function", function: { name: item.name, arguments: item.arguments } }
          : { id: item.call_id, type: "custom", custom: { name: item.name, input: item.input } };
      turn.tool_calls = [
        ...(turn.tool_calls ?? []),
        withOrigin(call, { items: [index] } satisfies ItemOrigin),
      ];
      return;
    }
    if (type === "local_shell_call") {
      // A local shell call reads as a call of `local_shell` whose arguments are its action.
      turn ??= { role: "assistant", content: null };
      const call: ToolCall = {
        id: item.call_id,
        type: "function",
        function: { name: "local_shell", arguments: shellArguments(item) },
      };
      turn.tool_calls = [
        ...(turn.tool_calls ?? []),
        withOrigin(call, { items: [index] } satisfies ItemOrigin),
      ];
      return;
    }
    if (type === "local_shell_call_output") {
      // Its `id` names the call it answers (the call's `call_id`), as the API defines it.
      if (options.continues === true && !callIds.has(item.call_id ?? item.id)) return;
      flush();
      messages.push(
        withOrigin(
          { role: "tool", tool_call_id: item.call_id ?? item.id, content: projectOutput(item.output) },
          {
            items: [index],
          } satisfies ItemOrigin,
        ),
      );
      return;
    }
    if (type === "function_call_output" || type === "custom_tool_call_output") {
      if (options.continues === true && !callIds.has(item.call_id)) return;
      flush();
      messages.push(
        withOrigin({ role: "tool", tool_call_id: item.call_id, content: projectOutput(item.output) }, {
          items: [index],
        } satisfies ItemOrigin),
      );
    }
  });
  flush();

  const original = new Map<number, { message: ChatMessage; calls: Map<number, ToolCall> }>();
  for (const message of messages) {
    const origin = originOf(message) as ItemOrigin;
    const calls = new Map<number, ToolCall>();
    for (const call of (message.tool_calls as ToolCall[] | undefined) ?? []) {
      const item = (originOf(call) as ItemOrigin).items[0] as number;
      calls.set(item, call);
      original.set(item, { message, calls });
    }
    for (const item of origin.items) original.set(item, { message, calls });
  }

  return {
    messages,
    itemAt(path) {
      const message = typeof path[0] === "number" ? messages[path[0]] : undefined;
      if (message === undefined) return undefined;
      if (path[1] === "tool_calls" && typeof path[2] === "number") {
        const call = (message.tool_calls as unknown[] | undefined)?.[path[2]];
        const origin = originOf(call) as ItemOrigin | undefined;
        if (origin !== undefined) return origin.items[0];
      }
      const own = (originOf(message) as ItemOrigin | undefined)?.items[0];
      const firstCall = (message.tool_calls as unknown[] | undefined)?.[0];
      return own ?? (originOf(firstCall) as ItemOrigin | undefined)?.items[0];
    },
    edits(next) {
      const edits: ItemEdits = { replaced: new Map(), dropped: new Set(), inserted: new Map() };
      const seen = new Set<number>();
      let anchor = -1;
      for (const message of next) {
        const origin = originOf(message) as ItemOrigin | undefined;
        if (!isPlainObject(message)) return { ok: false, reason: "a message is not an object" };
        if (origin === undefined) {
          // A message a rule made: only a synthesized tool result has a Responses form.
          if (message.role !== "tool" || typeof message.content !== "string") {
            return { ok: false, reason: `a new ${String(message.role)} message has no Responses item form` };
          }
          const list = edits.inserted.get(anchor) ?? [];
          list.push({ type: "function_call_output", call_id: message.tool_call_id, output: message.content });
          edits.inserted.set(anchor, list);
          continue;
        }
        for (const item of origin.items) seen.add(item);
        anchor = Math.max(anchor, ...origin.items);
        for (const call of (message.tool_calls as unknown[] | undefined) ?? []) {
          const callOrigin = originOf(call) as ItemOrigin | undefined;
          if (callOrigin !== undefined) anchor = Math.max(anchor, ...callOrigin.items);
        }
        if (message.role === "tool") {
          const index = origin.items[0] as number;
          const item = items[index] as Record<string, unknown>;
          const before = original.get(index)?.message;
          let updated = item;
          const idKey = item.type === "local_shell_call_output" && !("call_id" in item) ? "id" : "call_id";
          if (message.tool_call_id !== item[idKey]) updated = setKey(updated, idKey, message.tool_call_id);
          if (before !== undefined && message.content !== before.content) {
            if (typeof message.content !== "string" || typeof item.output !== "string") {
              return {
                ok: false,
                reason: "a changed tool output that is not text has no Responses form here",
              };
            }
            updated = setKey(updated, "output", message.content);
          }
          if (updated !== item) edits.replaced.set(index, updated);
          continue;
        }
        for (const call of (message.tool_calls as unknown[] | undefined) ?? []) {
          const callOrigin = originOf(call) as ItemOrigin | undefined;
          if (callOrigin === undefined || !isPlainObject(call)) {
            return { ok: false, reason: "a new call has no Responses item form" };
          }
          const index = callOrigin.items[0] as number;
          seen.add(index);
          const item = items[index] as Record<string, unknown>;
          let updated = item;
          if (call.id !== item.call_id) updated = setKey(updated, "call_id", call.id);
          const fn = isPlainObject(call.function) ? call.function : undefined;
          if (item.type === "local_shell_call") {
            if (fn !== undefined && fn.arguments !== shellArguments(item)) {
              const action = typeof fn.arguments === "string" ? parseJson(fn.arguments) : undefined;
              if (action === undefined || !action.success || !isPlainObject(action.value))
                return {
                  ok: false,
                  reason: "a local shell call's action is an object; these arguments are not one",
                };
              updated = setKey(updated, "action", action.value);
            }
          } else if (fn !== undefined && fn.arguments !== item.arguments)
            updated = setKey(updated, "arguments", fn.arguments);
          if (updated !== item) edits.replaced.set(index, updated);
        }
      }
      // What the history no longer holds (a dropped call, an orphan output, an empty message) leaves the list.
      for (const index of original.keys()) if (!seen.has(index)) edits.dropped.add(index);
      return { ok: true, edits };
    },
  };
}

/**
 * The item list with edits applied; items not edited are the same objects.
 *
 * @example
 * applyItemEdits(items, edits); // a new list, or `items` itself when there is nothing to do
 */
export function applyItemEdits(items: readonly unknown[], edits: ItemEdits): unknown[] {
  if (edits.replaced.size === 0 && edits.dropped.size === 0 && edits.inserted.size === 0)
    return items as unknown[];
  const out: unknown[] = [...(edits.inserted.get(-1) ?? [])];
  items.forEach((item, index) => {
    if (!edits.dropped.has(index)) out.push(edits.replaced.get(index) ?? item);
    out.push(...(edits.inserted.get(index) ?? []));
  });
  return out;
}
