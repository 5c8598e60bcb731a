import { parseJson, type ToolCall } from "@toolcall/core";
import { isPlainObject, originOf } from "@toolcall/core/kit";

type Item = Record<string, unknown>;
type Written = { ok: true; value: unknown } | { ok: false; reason: string };

/** Which message of the record, and which of its content blocks, a neutral message or call was read from. */
export interface BlockOrigin {
  message: number;
  blocks: number[];
}

/** A key set as JSON would hold it (a `__proto__` key stays a key). */
export function define(target: Item, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** A block with one member replaced by a copy that has `changes` (every other key kept in its place). */
function withMember(block: Item, member: string, changes: Item): Item {
  const inner: Item = {};
  const old = block[member] as Item;
  for (const key of Object.keys(old)) define(inner, key, key in changes ? changes[key] : old[key]);
  for (const key of Object.keys(changes)) if (!(key in old)) define(inner, key, changes[key]);
  const out: Item = {};
  for (const key of Object.keys(block)) define(out, key, key === member ? inner : block[key]);
  return out;
}

interface Plan {
  /** The blocks each message keeps, by their index there, with what each becomes. */
  kept: Map<number, Map<number, unknown>>;
  /** Blocks added after a block of a message (`-1`: before its first block). */
  after: Map<number, Map<number, unknown[]>>;
  /** User messages added after a message (`-1`: before the first). */
  messagesAfter: Map<number, unknown[]>;
}

/** The message's last own block (blocks are read in order), `-1` when it has none. */
function lastBlock(origin: BlockOrigin): number {
  return origin.blocks.length > 0 ? (origin.blocks[origin.blocks.length - 1] as number) : -1;
}

/** Adds a value to the list a key holds (pushed: many results added at one place cost one step each). */
function append(lists: Map<number, unknown[]>, key: number, value: unknown): void {
  const list = lists.get(key);
  if (list === undefined) lists.set(key, [value]);
  else list.push(value);
}

function keep(plan: Plan, message: number, block: number, value: unknown): void {
  const blocks = plan.kept.get(message) ?? new Map<number, unknown>();
  blocks.set(block, value);
  plan.kept.set(message, blocks);
}

/** The text blocks a message's new content leaves, or why it has no Converse form. */
function keepText(options: {
  plan: Plan;
  origin: BlockOrigin;
  blocks: readonly unknown[];
  now: unknown;
  old: unknown;
}): string | undefined {
  const { plan, origin, blocks, now, old } = options;
  const textAt = origin.blocks.filter(
    (j) => isPlainObject(blocks[j]) && typeof (blocks[j] as Item).text === "string",
  );
  const isText = new Set(textAt);
  for (const j of origin.blocks) if (!isText.has(j)) keep(plan, origin.message, j, blocks[j]);
  if (now === old) {
    for (const j of textAt) keep(plan, origin.message, j, blocks[j]);
    return undefined;
  }
  if (now === null || now === undefined) return undefined;
  if (typeof now === "string") {
    const only = textAt.length === 1 ? (textAt[0] as number) : undefined;
    if (only !== undefined) {
      keep(plan, origin.message, only, withText(blocks[only] as Item, now));
      return undefined;
    }
    if (textAt.length > 0) return "a changed text of several blocks has no single block to go in";
    // A message that had no text gets one (the rules' placeholder for an empty user message).
    const last = lastBlock(origin);
    const after = plan.after.get(origin.message) ?? new Map<number, unknown[]>();
    append(after, last, { text: now });
    plan.after.set(origin.message, after);
    if (!plan.kept.has(origin.message)) plan.kept.set(origin.message, new Map());
    return undefined;
  }
  if (!Array.isArray(now)) return "content that is not text has no Converse form";
  for (const part of now) {
    const from = originOf(part) as { block: number } | undefined;
    if (from === undefined || !isPlainObject(part) || typeof part.text !== "string")
      return "a new content part has no Converse form";
    const block = blocks[from.block] as Item;
    keep(plan, origin.message, from.block, part.text === block.text ? block : withText(block, part.text));
  }
  return undefined;
}

function withText(block: Item, text: string): Item {
  const out: Item = {};
  for (const key of Object.keys(block)) define(out, key, key === "text" ? text : block[key]);
  return out;
}

/** The `toolUse` block for a call the rules changed (an object `input`, a remapped id, a repaired name). */
function rewriteCall(block: Item, call: ToolCall, old: ToolCall): Written {
  const fn = (call.function ?? {}) as { name?: unknown; arguments?: unknown };
  const oldFn = (old.function ?? {}) as { name?: unknown; arguments?: unknown };
  if (call.id === old.id && fn.name === oldFn.name && fn.arguments === oldFn.arguments)
    return { ok: true, value: block };
  const changes: Item = {};
  if (call.id !== old.id) changes.toolUseId = call.id;
  if (fn.name !== oldFn.name) changes.name = fn.name;
  if (fn.arguments !== oldFn.arguments) {
    const parsed = typeof fn.arguments === "string" ? parseJson(fn.arguments, { lossless: true }) : undefined;
    if (parsed === undefined || !parsed.success || !isPlainObject(parsed.value))
      return {
        ok: false,
        reason: "Converse takes a toolUse input as an object; these arguments are not one",
      };
    changes.input = parsed.value;
  }
  return { ok: true, value: withMember(block, "toolUse", changes) };
}

/**
 * The record's messages with the blocks a sanitized history keeps, changes and adds; the same list when nothing
 * changed. A synthesized result goes right after the result before it, or first in the user message after its call's
 * message (Converse wants user and assistant turns to alternate), or in a user message of its own.
 */
export function writeConverse(options: {
  list: readonly unknown[];
  next: readonly unknown[];
  before: ReadonlyMap<unknown, unknown>;
}): Written {
  const { list, next, before } = options;
  const plan: Plan = { kept: new Map(), after: new Map(), messagesAfter: new Map() };
  const blocksOf = (message: number): unknown[] => {
    const raw = list[message];
    return isPlainObject(raw) && Array.isArray(raw.content) ? raw.content : [];
  };
  let anchor: { message: number; block: number; assistant: boolean } = {
    message: -1,
    block: -1,
    assistant: true,
  };
  for (const message of next) {
    if (!isPlainObject(message)) return { ok: false, reason: "a message is not an object" };
    const origin = originOf(message) as BlockOrigin | undefined;
    if (origin === undefined) {
      if (message.role !== "tool")
        return { ok: false, reason: `a new ${String(message.role)} message has no Converse form` };
      const added = {
        toolResult: { toolUseId: message.tool_call_id, content: [{ text: String(message.content ?? "") }] },
      };
      const target = anchor.assistant ? anchor.message + 1 : anchor.message;
      const raw = list[target];
      if (!anchor.assistant || (isPlainObject(raw) && raw.role === "user" && Array.isArray(raw.content))) {
        const after = plan.after.get(target) ?? new Map<number, unknown[]>();
        const at = anchor.assistant ? -1 : anchor.block;
        append(after, at, added);
        plan.after.set(target, after);
        if (!plan.kept.has(target)) plan.kept.set(target, new Map());
        anchor = { message: target, block: at, assistant: false };
      } else {
        append(plan.messagesAfter, anchor.message, added);
      }
      continue;
    }
    const blocks = blocksOf(origin.message);
    const old = before.get(origin) as Item | undefined;
    if (old === undefined) return { ok: false, reason: "a message was read from nowhere" };
    if (!plan.kept.has(origin.message)) plan.kept.set(origin.message, new Map());
    if (message.role === "tool") {
      if (message.content !== old.content)
        return {
          ok: false,
          reason: `messages[${origin.message}].content[${origin.blocks[0]}]: a changed toolResult is not rewritten`,
        };
      const j = origin.blocks[0] as number;
      const block = blocks[j] as Item;
      keep(
        plan,
        origin.message,
        j,
        message.tool_call_id === old.tool_call_id
          ? block
          : withMember(block, "toolResult", { toolUseId: message.tool_call_id }),
      );
      anchor = { message: origin.message, block: j, assistant: false };
      continue;
    }
    if (message.reasoning_content !== old.reasoning_content)
      return { ok: false, reason: "changed reasoning has no Converse form (reasoningContent is signed)" };
    const why = keepText({ plan, origin, blocks, now: message.content, old: old.content });
    if (why !== undefined) return { ok: false, reason: `messages[${origin.message}]: ${why}` };
    for (const call of (message.tool_calls as ToolCall[] | undefined) ?? []) {
      const from = originOf(call) as BlockOrigin | undefined;
      const oldCall = from === undefined ? undefined : (before.get(from) as ToolCall | undefined);
      if (from === undefined || oldCall === undefined)
        return { ok: false, reason: "a new call has no Converse form" };
      const j = from.blocks[0] as number;
      const rewritten = rewriteCall(blocksOf(from.message)[j] as Item, call, oldCall);
      if (!rewritten.ok) return rewritten;
      keep(plan, from.message, j, rewritten.value);
    }
    const last = lastBlock(origin);
    anchor = { message: origin.message, block: last, assistant: message.role === "assistant" };
  }
  return assemble(list, plan);
}

function assemble(list: readonly unknown[], plan: Plan): Written {
  const out: unknown[] = [
    ...(plan.messagesAfter.get(-1) ?? []).map((block) => ({ role: "user", content: [block] })),
  ];
  let changed = out.length > 0;
  list.forEach((raw, index) => {
    const kept = plan.kept.get(index);
    const blocks = isPlainObject(raw) && Array.isArray(raw.content) ? raw.content : undefined;
    if (kept === undefined) changed = true;
    else if (blocks === undefined) out.push(raw);
    else {
      const after = plan.after.get(index);
      const next: unknown[] = [...(after?.get(-1) ?? [])];
      blocks.forEach((_block, j) => {
        if (kept.has(j)) next.push(kept.get(j));
        next.push(...(after?.get(j) ?? []));
      });
      const same = next.length === blocks.length && next.every((block, j) => block === blocks[j]);
      if (same) out.push(raw);
      else if (next.length > 0 || blocks.length === 0) {
        changed = true;
        const copy: Item = {};
        for (const key of Object.keys(raw as Item))
          define(copy, key, key === "content" ? next : (raw as Item)[key]);
        out.push(copy);
      } else changed = true;
    }
    const added = plan.messagesAfter.get(index);
    if (added !== undefined) {
      changed = true;
      out.push({ role: "user", content: added });
    }
  });
  return { ok: true, value: changed ? out : list };
}
