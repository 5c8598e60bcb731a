import { isPlainObject } from "../define-property.js";
import type { ChatMessage } from "../types.js";
import { blankKind, isEmptyContent } from "./check-messages.js";
import { hasResponsesReasoning } from "./fix-calls.js";
import { callsOf, chat, type Fix, type FixContext, mapMessages, without } from "./fix-context.js";
import type { ProviderConstraint } from "./provider-profile.js";

/** `reasoning_rejected`: `reasoning_content` leaves the message: into its content as `<think>…</think>`, or out. */
export const fixReasoningRejected: Fix = (messages, constraint, context) =>
  mapMessages(messages, (message) => {
    const m = chat(message);
    if (
      m?.role !== "assistant" ||
      !Object.hasOwn(m, "reasoning_content") ||
      m.reasoning_content === undefined
    )
      return message;
    const reasoning = m.reasoning_content;
    const out = without(m, "reasoning_content");
    if (
      constraint.params?.reasoningMove !== "content-think" ||
      typeof reasoning !== "string" ||
      reasoning === ""
    ) {
      context.record({
        rule: "reasoning_removed",
        constraint: constraint.code,
        messageIndex: context.origin(message),
        before: reasoning,
      });
      return out;
    }
    const think = `<think>${reasoning}</think>`;
    const content = m.content;
    out.content =
      typeof content === "string" && content !== ""
        ? `${think}\n${content}`
        : Array.isArray(content) && content.length > 0
          ? [{ type: "text", text: think }, ...content]
          : think;
    context.record({
      rule: "reasoning_moved",
      constraint: constraint.code,
      messageIndex: context.origin(message),
      before: { reasoning_content: reasoning, content },
      after: { content: out.content },
    });
    return out;
  });

/** `reasoning_missing`: `reasoning_content` from the message's `reasoning`, or `""`. */
export const fixReasoningMissing: Fix = (messages, constraint, context) =>
  mapMessages(messages, (message) => {
    const m = chat(message);
    if (callsOf(m) === undefined || m === undefined || typeof m.reasoning_content === "string")
      return message;
    const value = typeof m.reasoning === "string" ? m.reasoning : "";
    context.record({
      rule: "reasoning_filled",
      constraint: constraint.code,
      messageIndex: context.origin(message),
      before: m.reasoning_content,
      after: value,
    });
    return { ...m, reasoning_content: value };
  });

/** `assistant_content_not_string`: absent content becomes `""`, a list of parts the text of its text parts. */
export const fixAssistantContent: Fix = (messages, constraint, context) =>
  mapMessages(messages, (message) => {
    const m = chat(message);
    if (m?.role !== "assistant" || typeof m.content === "string") return message;
    const content = Array.isArray(m.content)
      ? m.content
          .map((part) => (isPlainObject(part) && typeof part.text === "string" ? part.text : ""))
          .join("")
      : "";
    context.record({
      rule: "content_replaced",
      constraint: constraint.code,
      messageIndex: context.origin(message),
      before: m.content,
      after: content,
    });
    return { ...m, content };
  });

/** `reasoning_item_orphan`: a message holding only Responses reasoning goes (recorded whole). */
export const fixReasoningOrphans: Fix = (messages, constraint, context) => {
  const out = messages.filter((message) => {
    const m = chat(message);
    const orphan =
      m?.role === "assistant" &&
      callsOf(m) === undefined &&
      isEmptyContent(m.content) &&
      hasResponsesReasoning(message);
    if (orphan)
      context.record({
        rule: "message_removed",
        constraint: constraint.code,
        messageIndex: context.origin(message),
        before: message,
      });
    return !orphan;
  });
  return out.length === messages.length ? (messages as unknown[]) : out;
};

/**
 * `tool_results_interleaved`: the messages between an assistant message with calls and the last result of its turn
 * move, unchanged and in order, to just after that result.
 */
export const fixInterleaved: Fix = (messages, constraint, context) => {
  let out: unknown[] | undefined;
  let index = 0;
  while (index < messages.length) {
    const message = messages[index];
    const start = index;
    index++;
    if (callsOf(chat(message)) === undefined) {
      out?.push(message);
      continue;
    }
    let end = index;
    while (end < messages.length && chat(messages[end])?.role !== "assistant") end++;
    let last = -1;
    for (let k = index; k < end; k++) if (chat(messages[k])?.role === "tool") last = k;
    const span = messages.slice(index, last + 1);
    const moved = span.filter((m) => chat(m)?.role !== "tool");
    if (last === -1 || moved.length === 0) {
      out?.push(message);
      continue;
    }
    out ??= messages.slice(0, start);
    const results = span.filter((m) => chat(m)?.role === "tool");
    const follows = (results[results.length - 1] as ChatMessage).tool_call_id;
    for (const m of moved)
      context.record({
        rule: "message_moved",
        constraint: constraint.code,
        messageIndex: context.origin(m),
        toolCallId: typeof follows === "string" ? follows : undefined,
        before: m,
      });
    out.push(message, ...results, ...moved);
    index = last + 1;
  }
  return out ?? (messages as unknown[]);
};

/** What blank text becomes where a message needs some: short, and plainly not the user's words. */
export const EMPTY_TEXT = "(empty)";

function blankFix(kinds: ReadonlySet<string>) {
  const blank = (text: unknown) => {
    const kind = blankKind(text);
    return kind !== undefined && kinds.has(kind);
  };
  return (m: ChatMessage): { content: unknown } | "remove" | undefined => {
    const withCalls = callsOf(m) !== undefined;
    const emptied = () =>
      withCalls ? { content: null } : m.role === "user" ? { content: EMPTY_TEXT } : "remove";
    if (typeof m.content === "string") return blank(m.content) ? emptied() : undefined;
    if (!Array.isArray(m.content)) return undefined;
    const parts = m.content;
    const isText = (part: unknown) => isPlainObject(part) && part.type === "text";
    const hasRealText = parts.some(
      (part) => isText(part) && blankKind((part as ChatMessage).text) === undefined,
    );
    const kept = parts.filter((part) => {
      if (!isText(part)) return true;
      const kind = blankKind((part as { text?: unknown }).text);
      if (kind === "empty") return !kinds.has("empty");
      if (kind === "whitespace") return hasRealText || !kinds.has("whitespace");
      return true;
    });
    if (kept.length === parts.length) return undefined;
    return kept.length > 0 ? { content: kept } : emptied();
  };
}

/** `text_content_empty` and `text_content_whitespace` (one pass for the kinds the profile lists). */
export function fixBlankText(
  messages: readonly unknown[],
  constraints: readonly ProviderConstraint[],
  context: FixContext,
): unknown[] {
  const kinds = new Set(constraints.map((c) => (c.code === "text_content_empty" ? "empty" : "whitespace")));
  const fix = blankFix(kinds);
  const code = constraints[0]?.code ?? "text_content_empty";
  const out: unknown[] = [];
  let changed = false;
  for (const message of messages) {
    const m = chat(message);
    const outcome = m !== undefined && (m.role === "user" || m.role === "assistant") ? fix(m) : undefined;
    if (outcome === undefined || m === undefined) {
      out.push(message);
      continue;
    }
    changed = true;
    const messageIndex = context.origin(message);
    if (outcome === "remove") {
      context.record({ rule: "message_removed", constraint: code, messageIndex, before: message });
      continue;
    }
    context.record({
      rule: "content_replaced",
      constraint: code,
      messageIndex,
      before: m.content,
      after: outcome.content,
    });
    out.push({ ...m, content: outcome.content });
  }
  return changed ? out : (messages as unknown[]);
}

/** Inserts a bridge message before each message `needs` picks (`user_after_tool`, `function_call_position`). */
function bridge(
  role: "user" | "assistant",
  needs: (messages: readonly unknown[], index: number) => boolean,
): Fix {
  return (messages, constraint, context) => {
    const content = constraint.params?.bridgeContent ?? "";
    let out: unknown[] | undefined;
    messages.forEach((message, index) => {
      if (needs(messages, index)) {
        out ??= messages.slice(0, index);
        const inserted = context.tagged({ role, content }, context.origin(message));
        context.record({
          rule: "message_inserted",
          constraint: constraint.code,
          messageIndex: context.origin(message),
          after: { role, content },
        });
        out.push(inserted);
      }
      out?.push(message);
    });
    return out ?? (messages as unknown[]);
  };
}

export const fixUserAfterTool = bridge(
  "assistant",
  (messages, index) =>
    index > 0 && chat(messages[index])?.role === "user" && chat(messages[index - 1])?.role === "tool",
);

export const fixFunctionCallPosition = bridge("user", (messages, index) => {
  if (callsOf(chat(messages[index])) === undefined) return false;
  for (let k = index - 1; k >= 0; k--) {
    const m = chat(messages[k]);
    if (m !== undefined && (m.role === "system" || m.role === "developer")) continue;
    return m?.role !== "user" && m?.role !== "tool";
  }
  return true;
});

/**
 * `text_beside_calls`: the text of an assistant message with calls moves to its `tool_plan`, where Cohere takes it,
 * only when that is the one lossless move: no `tool_plan` yet (or an empty one) and content that is text (a string,
 * or text parts joined as written; other parts stay). A message that already has a plan is left as it is (merging
 * two plans has no single answer): the finding stays.
 */
export const fixTextBesideCalls: Fix = (messages, constraint, context) =>
  mapMessages(messages, (message) => {
    try {
      return moveTextToPlan({ message, constraint, context });
    } catch {
      // A value that throws when read (a revoked proxy) is no text to move.
      return message;
    }
  });

function moveTextToPlan(options: {
  message: unknown;
  constraint: ProviderConstraint;
  context: FixContext;
}): unknown {
  const { message, constraint, context } = options;
  {
    const m = chat(message);
    if (m?.role !== "assistant" || !Array.isArray(m.tool_calls) || m.tool_calls.length === 0) return message;
    const plan = (m as { tool_plan?: unknown }).tool_plan;
    if (plan !== undefined && plan !== "" && plan !== null) return message;
    const parts = Array.isArray(m.content) ? m.content : undefined;
    const texts = parts
      ? parts.flatMap((part) =>
          isPlainObject(part) && part.type === "text" && typeof part.text === "string" ? [part.text] : [],
        )
      : typeof m.content === "string"
        ? [m.content]
        : [];
    const text = texts.join("");
    if (text.trim() === "") return message;
    const rest = parts?.filter((part) => !(isPlainObject(part) && part.type === "text"));
    context.record({
      rule: "content_moved_to_plan",
      constraint: constraint.code,
      messageIndex: context.origin(message),
      before: m.content,
      after: text,
    });
    const { content: _content, ...others } = m;
    return rest !== undefined && rest.length > 0
      ? { ...others, content: rest, tool_plan: text }
      : { ...others, tool_plan: text };
  }
}
