import { type ChatMessage, parseJson, type ToolCall } from "@toolcall/core";
import { isPlainObject, originOf, withOrigin } from "@toolcall/core/kit";
import { argumentsOf, resultContent, setKey, textParts, withNote } from "./block-values.js";
import { clineTextResults } from "./cline-text-results.js";

/** Where a block is: its message (a record's message index, or a transcript's line) and its index in `content`. */
export interface BlockAddress {
  message: number;
  /** `-1` for a message whose content is a string. */
  block: number;
}

/** One Anthropic message as the mapping reads it: its role and content, and the address of each block. */
export interface AnthropicMessageView {
  role: unknown;
  /** A string, or the blocks (for a merged transcript message: the blocks of several lines, in order). */
  content: unknown;
  /** One address per block (one address, block -1, for string content). */
  addresses: BlockAddress[];
}

/** What a sanitized history changes in the blocks: blocks replaced or dropped, tool results added. */
export interface BlockEdits {
  /** Keyed by {@link addressKey}. */
  replaced: Map<string, unknown>;
  dropped: Set<string>;
  /** New blocks at the start of a message (tool results go first in a user message). */
  prepended: Map<number, unknown[]>;
  /** New blocks right after a block, keyed by {@link addressKey}. */
  insertedAfter: Map<string, unknown[]>;
  /** New user messages (their blocks) right after a message. */
  messagesAfter: Map<number, unknown[]>;
}

/** A block Anthropic refuses whatever the rules say: not an object, or without a `type`. */
export interface BlockIssue {
  code: "block_invalid";
  severity: "error";
  message: string;
  address: BlockAddress;
}

/** A list of Anthropic messages read into neutral messages, and the way back. */
export interface BlocksReading {
  messages: ChatMessage[];
  issues: BlockIssue[];
  /** The block a neutral path (message index first) is in, and the field of that block. */
  placeAt(
    path: readonly (string | number)[],
  ): { address: BlockAddress; field: Array<string | number> } | undefined;
  edits(messages: readonly unknown[]): { ok: true; edits: BlockEdits } | { ok: false; reason: string };
}

interface Origin {
  view: number;
  addresses: BlockAddress[];
}

/**
 * `"3:1"` for block 1 of message 3.
 *
 * @example
 * addressKey({ message: 3, block: 1 }); // "3:1"
 */
export function addressKey(address: BlockAddress): string {
  return `${address.message}:${address.block}`;
}

/** Block types that are Anthropic's own (a Chat message never holds them). */
export const ANTHROPIC_BLOCK_TYPES: ReadonlySet<string> = new Set([
  "tool_use",
  "tool_result",
  "thinking",
  "redacted_thinking",
  "server_tool_use",
  "web_search_tool_result",
  "web_fetch_tool_result",
  "code_execution_tool_result",
  "bash_code_execution_tool_result",
  "text_editor_code_execution_tool_result",
  "mcp_tool_use",
  "mcp_tool_result",
  "container_upload",
  "document",
  "search_result",
]);

/**
 * Reads Anthropic messages into neutral messages: in a user message, each `tool_result` block is a tool message
 * (first, as Anthropic puts them first) and the other blocks one user message; in an assistant message, `tool_use`
 * blocks are its calls (their `input`'s JSON text as arguments, so a string or a list input is seen for what it is)
 * and text blocks its content; thinking is `reasoning_content`, and other blocks (server tools, their results) keep
 * the message from ever looking empty. Every neutral message and call carries its blocks' addresses, so
 * {@link BlocksReading.edits} can say which blocks a sanitized history replaces, drops or adds.
 *
 * @example
 * const reading = readAnthropicMessages([
 *   { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "f", input: [] }], addresses: [{ message: 0, block: 0 }] },
 * ]);
 * reading.messages[0].tool_calls[0].function.arguments; // "[]"
 */
export function readAnthropicMessages(views: readonly AnthropicMessageView[]): BlocksReading {
  const messages: ChatMessage[] = [];
  const issues: BlockIssue[] = [];
  let pendingUses: Array<{ id: unknown; name: unknown }> = [];
  views.forEach((view, viewIndex) => {
    const { role, content, addresses } = view;
    if (Array.isArray(content)) {
      content.forEach((block, j) => {
        if (!isPlainObject(block) || typeof block.type !== "string") {
          issues.push({
            code: "block_invalid",
            severity: "error",
            message: `content block ${j} is ${isPlainObject(block) ? "an object without a type" : JSON.stringify(block)}, not a block (Anthropic answers 400)`,
            address: addresses[j] as BlockAddress,
          });
        }
      });
    }
    if (!Array.isArray(content)) {
      messages.push(withOrigin({ role, content }, { view: viewIndex, addresses } satisfies Origin));
      return;
    }
    if (role === "assistant") {
      pendingUses = content.flatMap((block) =>
        isPlainObject(block) && block.type === "tool_use" ? [{ id: block.id, name: block.name }] : [],
      );
      const calls: ToolCall[] = [];
      const own: BlockAddress[] = [];
      const thinking: string[] = [];
      let others = 0;
      content.forEach((block, j) => {
        const address = addresses[j] as BlockAddress;
        if (isPlainObject(block) && block.type === "tool_use") {
          calls.push(
            withOrigin(
              {
                id: block.id,
                type: "function",
                function: { name: block.name, arguments: argumentsOf(block.input) },
              },
              { view: viewIndex, addresses: [address] } satisfies Origin,
            ),
          );
          return;
        }
        own.push(address);
        if (isPlainObject(block) && block.type === "thinking" && typeof block.thinking === "string") {
          thinking.push(block.thinking);
        } else if (!isPlainObject(block) || block.type !== "text") {
          others++;
        }
      });
      const text = textParts(content);
      const message: ChatMessage = {
        role,
        content: text.length === 1 ? text[0]?.text : text.length > 0 ? text : null,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
        ...(thinking.length > 0 ? { reasoning_content: thinking.join("\n") } : {}),
        ...(others > 0 ? { other_blocks: others } : {}),
      };
      messages.push(withOrigin(message, { view: viewIndex, addresses: own } satisfies Origin));
      return;
    }
    const own: BlockAddress[] = [];
    const rest: unknown[] = [];
    const textResults = clineTextResults(content, pendingUses);
    content.forEach((block, j) => {
      const address = addresses[j] as BlockAddress;
      const textResult = textResults.get(j);
      if (textResult === null) return;
      if (textResult !== undefined) {
        // Cline keeps a result as text blocks (`[read_file for 'x'] Result:`, then the output): it answers its call.
        const blocks = [j, ...textResult.body];
        messages.push(
          withOrigin(
            {
              role: "tool",
              tool_call_id: textResult.id,
              content: blocks.map((k) => (content[k] as { text: string }).text).join("\n"),
            },
            { view: viewIndex, addresses: blocks.map((k) => addresses[k] as BlockAddress) } satisfies Origin,
          ),
        );
        return;
      }
      if (isPlainObject(block) && block.type === "tool_result") {
        messages.push(
          withOrigin(
            { role: "tool", tool_call_id: block.tool_use_id, content: resultContent(block.content) },
            { view: viewIndex, addresses: [address] } satisfies Origin,
          ),
        );
        return;
      }
      own.push(address);
      rest.push(block);
    });
    if (rest.length > 0 || own.length === content.length) {
      const text = textParts(rest);
      messages.push(
        withOrigin({ role, content: text.length === 1 ? text[0]?.text : text.length > 0 ? text : "" }, {
          view: viewIndex,
          addresses: own,
        } satisfies Origin),
      );
    }
  });

  const blockAt = (address: BlockAddress): unknown => {
    for (const view of views) {
      const index = view.addresses.findIndex(
        (a) => a.message === address.message && a.block === address.block,
      );
      if (index !== -1) return Array.isArray(view.content) ? view.content[index] : view.content;
    }
    return undefined;
  };
  // What each block read as, to tell a changed message or call from an untouched one.
  const before = new Map<string, ChatMessage | ToolCall>();
  for (const message of messages) {
    for (const address of (originOf(message) as Origin).addresses) before.set(addressKey(address), message);
    for (const call of (message.tool_calls as ToolCall[] | undefined) ?? []) {
      before.set(addressKey((originOf(call) as Origin).addresses[0] as BlockAddress), call);
    }
  }

  return {
    messages,
    issues,
    placeAt(path) {
      const message = typeof path[0] === "number" ? messages[path[0]] : undefined;
      if (message === undefined) return undefined;
      if (path[1] === "tool_calls" && typeof path[2] === "number") {
        const call = (message.tool_calls as unknown[] | undefined)?.[path[2]];
        const origin = originOf(call) as Origin | undefined;
        const address = origin?.addresses[0];
        if (address === undefined) return undefined;
        const rest = path.slice(3);
        const field = rest[0] === "function" ? (rest[1] === "arguments" ? ["input"] : rest.slice(1)) : rest;
        return { address, field };
      }
      const address = (originOf(message) as Origin | undefined)?.addresses[0];
      if (address === undefined) return undefined;
      const field = path[1] === "tool_call_id" ? ["tool_use_id"] : path.slice(1);
      return { address, field: message.role === "tool" || path[1] === "role" ? field : [] };
    },
    edits(next) {
      const edits: BlockEdits = {
        replaced: new Map(),
        dropped: new Set(),
        prepended: new Map(),
        insertedAfter: new Map(),
        messagesAfter: new Map(),
      };
      const seen = new Set<string>();
      // Where a tool result a rule adds goes: after the last result of its turn, or into the user message after
      // the calls (first), or into a new user message after them.
      let anchor: { kind: "result"; address: BlockAddress } | { kind: "calls"; view: number } | undefined;
      const push = <K>(map: Map<K, unknown[]>, key: K, value: unknown) => {
        map.set(key, [...(map.get(key) ?? []), value]);
      };
      for (const message of next) {
        if (!isPlainObject(message)) return { ok: false, reason: "a message is not an object" };
        const origin = originOf(message) as Origin | undefined;
        if (origin === undefined) {
          if (message.role !== "tool") {
            return { ok: false, reason: `a new ${String(message.role)} message has no Anthropic form` };
          }
          const block = { type: "tool_result", tool_use_id: message.tool_call_id, content: message.content };
          if (anchor?.kind === "result") {
            push(edits.insertedAfter, addressKey(anchor.address), block);
          } else if (anchor?.kind === "calls") {
            const after = views[anchor.view + 1];
            const last = views[anchor.view]?.addresses.at(-1);
            if (
              after !== undefined &&
              after.role === "user" &&
              Array.isArray(after.content) &&
              after.addresses[0]
            ) {
              push(edits.prepended, after.addresses[0].message, block);
            } else if (last !== undefined) {
              push(edits.messagesAfter, last.message, block);
            } else {
              return { ok: false, reason: "a tool result for an assistant message without blocks" };
            }
          } else {
            return { ok: false, reason: "a tool result before any call" };
          }
          continue;
        }
        for (const address of origin.addresses) seen.add(addressKey(address));
        if (message.role === "tool") {
          const address = origin.addresses[0] as BlockAddress;
          anchor = { kind: "result", address };
          const key = addressKey(address);
          const old = before.get(key) as ChatMessage | undefined;
          let block = blockAt(address) as Record<string, unknown>;
          if (block.type === "text") {
            if (message.tool_call_id !== old?.tool_call_id || message.content !== old?.content)
              return { ok: false, reason: "a result Cline keeps as text cannot change" };
            continue;
          }
          if (message.tool_call_id !== old?.tool_call_id)
            block = setKey(block, "tool_use_id", message.tool_call_id);
          if (old !== undefined && message.content !== old.content) {
            // The one content change core makes to a result: a note in front of it.
            const note =
              typeof message.content === "string" && typeof old.content === "string"
                ? message.content.slice(0, message.content.length - old.content.length).replace(/\n$/, "")
                : Array.isArray(message.content) && isPlainObject(message.content[0])
                  ? String(message.content[0].text)
                  : undefined;
            if (note === undefined)
              return { ok: false, reason: "a tool result changed in a way Anthropic blocks cannot hold" };
            block = setKey(block, "content", withNote(block.content, note));
          }
          if (block !== blockAt(address)) edits.replaced.set(key, block);
          continue;
        }
        if (message.role === "assistant") anchor = { kind: "calls", view: origin.view };
        else anchor = undefined;
        for (const call of (message.tool_calls as unknown[] | undefined) ?? []) {
          const callOrigin = originOf(call) as Origin | undefined;
          if (callOrigin === undefined || !isPlainObject(call)) {
            return { ok: false, reason: "a new call has no Anthropic form" };
          }
          const address = callOrigin.addresses[0] as BlockAddress;
          const key = addressKey(address);
          seen.add(key);
          const old = before.get(key) as ToolCall;
          const original = blockAt(address) as Record<string, unknown>;
          let block = original;
          if (call.id !== old.id) block = setKey(block, "id", call.id);
          const fn = isPlainObject(call.function) ? call.function : {};
          const oldFn = isPlainObject(old.function) ? old.function : {};
          if (fn.arguments !== oldFn.arguments) {
            const parsed =
              typeof fn.arguments === "string" ? parseJson(fn.arguments, { lossless: true }) : undefined;
            if (parsed === undefined || !parsed.success || !isPlainObject(parsed.value)) {
              return { ok: false, reason: "new arguments that are not a JSON object have no tool_use form" };
            }
            block = setKey(block, "input", parsed.value);
          }
          if (block !== original) edits.replaced.set(key, block);
        }
      }
      for (const key of before.keys()) if (!seen.has(key)) edits.dropped.add(key);
      return { ok: true, edits };
    },
  };
}

/**
 * A message's content with edits applied (blocks replaced, dropped, added), or `undefined` when every block it had
 * was dropped (the message goes too: Anthropic refuses empty content). The same array when nothing changed.
 *
 * @example
 * applyBlockEdits(3, message.content, edits); // the new content of message 3
 */
export function applyBlockEdits(message: number, content: unknown, edits: BlockEdits): unknown {
  if (!Array.isArray(content)) {
    return edits.dropped.has(addressKey({ message, block: -1 })) ? undefined : content;
  }
  const out: unknown[] = [...(edits.prepended.get(message) ?? [])];
  let changed = out.length > 0;
  content.forEach((block, j) => {
    const key = addressKey({ message, block: j });
    const inserted = edits.insertedAfter.get(key) ?? [];
    if (edits.dropped.has(key)) changed = true;
    else {
      const replaced = edits.replaced.get(key);
      if (replaced !== undefined) changed = true;
      out.push(replaced ?? block);
    }
    if (inserted.length > 0) changed = true;
    out.push(...inserted);
  });
  if (!changed) return content;
  return out.length === 0 && content.length > 0 ? undefined : out;
}
