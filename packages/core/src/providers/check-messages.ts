import {
  type Finding,
  isList,
  isSystemRole,
  listOf,
  type MessageView,
  read,
  responsesReasoning,
  roleName,
} from "./finding.js";

/** `user_after_tool` (Mistral): a user message right after a tool result. */
export function checkUserAfterTool(views: readonly MessageView[]): Finding[] {
  const findings: Finding[] = [];
  for (let index = 1; index < views.length; index++) {
    if ((views[index] as MessageView).role === "user" && (views[index - 1] as MessageView).role === "tool")
      findings.push({
        code: "user_after_tool",
        path: [index, "role"],
        facts: { index, subject: "message", role: "user", previous_role: "tool" },
      });
  }
  return findings;
}

/**
 * `function_call_position` (Gemini): an assistant message with calls must come right after a user message or a tool
 * result (system messages leave the list first): not first, not after another assistant message.
 */
export function checkFunctionCallPosition(views: readonly MessageView[]): Finding[] {
  const findings: Finding[] = [];
  let previous: MessageView | undefined;
  views.forEach((view, index) => {
    if (view.plain && isSystemRole(view.role)) return;
    if (view.calls.length > 0 && previous?.role !== "user" && previous?.role !== "tool")
      findings.push({
        code: "function_call_position",
        path: [index, "tool_calls"],
        facts: { index, subject: "message", role: "assistant", previous_role: roleName(previous) },
      });
    previous = view;
  });
  return findings;
}

/**
 * `reasoning_missing` (DeepSeek V4 thinking mode, Kimi): every assistant message with calls must carry its
 * `reasoning_content` (a string; `""` is accepted).
 */
export function checkReasoningMissing(views: readonly MessageView[]): Finding[] {
  const findings: Finding[] = [];
  views.forEach((view, index) => {
    if (view.calls.length > 0 && typeof view.reasoningContent !== "string")
      findings.push({
        code: "reasoning_missing",
        path: [index, "reasoning_content"],
        facts: { index, subject: "message", role: "assistant" },
      });
  });
  return findings;
}

/** `reasoning_rejected` (Cerebras, the older deepseek-reasoner): an assistant message that carries `reasoning_content`. */
export function checkReasoningRejected(views: readonly MessageView[]): Finding[] {
  const findings: Finding[] = [];
  views.forEach((view, index) => {
    if (view.role === "assistant" && view.hasReasoningContent && view.reasoningContent !== undefined)
      findings.push({
        code: "reasoning_rejected",
        path: [index, "reasoning_content"],
        facts: { index, subject: "message", role: "assistant" },
      });
  });
  return findings;
}

/** True for content that is no content at all (`null`, absent, `""`, `[]`). */
export function isEmptyContent(content: unknown): boolean {
  return (
    content === null ||
    content === undefined ||
    content === "" ||
    (isList(content) && listOf(content).length === 0)
  );
}

/**
 * `reasoning_item_orphan` (Responses API): reasoning items with nothing after them: an assistant message with
 * Responses reasoning (`reasoning_details`) and neither content nor calls.
 */
export function checkReasoningOrphans(views: readonly MessageView[]): Finding[] {
  const findings: Finding[] = [];
  views.forEach((view, index) => {
    if (view.role !== "assistant" || view.calls.length > 0 || !isEmptyContent(view.content)) return;
    const reasoning = responsesReasoning(view);
    if (reasoning.length === 0) return;
    const id = read(reasoning[0], "id");
    findings.push({
      code: "reasoning_item_orphan",
      path: [index, "reasoning_details"],
      facts: { index, subject: "message", reasoning_id: typeof id === "string" ? id : "…" },
    });
  });
  return findings;
}

/** Text that is there but empty (`""`) or only whitespace, as Anthropic tells them apart. */
export function blankKind(text: unknown): "empty" | "whitespace" | undefined {
  if (typeof text !== "string") return undefined;
  if (text === "") return "empty";
  return text.trim() === "" ? "whitespace" : undefined;
}

/**
 * `text_content_empty` / `text_content_whitespace` (Anthropic): a user or assistant message with an empty text (its
 * string content, or a `text` part), anywhere; or whose only text is whitespace (a whitespace part beside a part with
 * real text is accepted).
 */
export function checkBlankText(views: readonly MessageView[], kind: "empty" | "whitespace"): Finding[] {
  const code = kind === "empty" ? "text_content_empty" : "text_content_whitespace";
  const findings: Finding[] = [];
  views.forEach((view, index) => {
    if (view.role !== "user" && view.role !== "assistant") return;
    const role = String(view.role);
    if (blankKind(view.content) === kind) {
      findings.push({ code, path: [index, "content"], facts: { index, subject: "message", role } });
      return;
    }
    const texts = listOf(view.content).map((part) =>
      read(part, "type") === "text" ? read(part, "text") : undefined,
    );
    if (kind === "whitespace" && texts.some((text) => typeof text === "string" && text.trim() !== "")) return;
    const at = texts.findIndex((text) => blankKind(text) === kind);
    if (at !== -1)
      findings.push({
        code,
        path: [index, "content", at, "text"],
        facts: { index, subject: "message", role },
      });
  });
  return findings;
}

/** `assistant_content_not_string` (Groq, Cerebras): an assistant message whose content is not a string. */
export function checkAssistantContent(views: readonly MessageView[]): Finding[] {
  const findings: Finding[] = [];
  views.forEach((view, index) => {
    if (view.role === "assistant" && view.plain && typeof view.content !== "string")
      findings.push({
        code: "assistant_content_not_string",
        path: [index, "content"],
        facts: { index, subject: "message", role: "assistant" },
      });
  });
  return findings;
}

/**
 * `text_beside_calls` (Cohere): an assistant message with calls whose content holds text (Cohere takes a plan
 * beside calls only as `tool_plan` or thinking). A blank text is no text.
 */
export function checkTextBesideCalls(views: readonly MessageView[]): Finding[] {
  const findings: Finding[] = [];
  views.forEach((view, index) => {
    if (view.role !== "assistant" || view.calls.length === 0) return;
    let found: { listed: boolean; at: number };
    try {
      const listed = Array.isArray(view.content);
      const texts = listed
        ? (view.content as unknown[]).map((part) =>
            read(part, "type") === "text" ? read(part, "text") : undefined,
          )
        : [view.content];
      found = { listed, at: texts.findIndex((text) => typeof text === "string" && text.trim() !== "") };
    } catch {
      return; // a content that throws when read (a revoked proxy, a trap) holds no text to report
    }
    if (found.at === -1) return;
    findings.push({
      code: "text_beside_calls",
      path: found.listed ? [index, "content", found.at] : [index, "content"],
      facts: { index, subject: "message", role: "assistant" },
    });
  });
  return findings;
}
