import type { Refusal } from "./fake-server.js";

// The Anthropic Messages API's checks on a replayed history, on its own wire format: tool_use ids match
// ^[a-zA-Z0-9_-]+$, a tool_use input is an object, no empty text block and no message whose only text is
// whitespace, every tool_use answered by a tool_result in the next message, every tool_result answering a tool_use
// of the previous one. Literal bodies from anthropics/claude-code#1237, #13460, #6696, #59812, #23440,
// maximhq/bifrost#5097 and LibreChat-AI/agents#124. Written apart from core on purpose: it judges what core sends.

type Block = { type?: string; text?: unknown; id?: unknown; input?: unknown; tool_use_id?: unknown };
type Message = { role?: string; content?: string | Block[] };

function refuse(message: string): Refusal {
  return { status: 400, body: { type: "error", error: { type: "invalid_request_error", message } } };
}

function blocksOf(message: Message): Block[] {
  return typeof message.content === "string"
    ? [{ type: "text", text: message.content }]
    : (message.content ?? []);
}

const isObject = (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value);

export function checkAnthropic(body: unknown): Refusal | undefined {
  const messages = ((body as { messages?: Message[] })?.messages ?? []) as Message[];
  // Field validation first, over the whole request.
  for (const [i, message] of messages.entries()) {
    const blocks = blocksOf(message);
    const texts = blocks.filter((b) => b.type === "text").map((b) => String(b.text));
    if (texts.includes("")) return refuse("messages: text content blocks must be non-empty");
    if (texts.length > 0 && texts.every((text) => text.trim() === ""))
      return refuse("messages: text content blocks must contain non-whitespace text");
    for (const [j, block] of blocks.entries()) {
      if (block.type !== "tool_use") continue;
      if (typeof block.id !== "string" || !/^[a-zA-Z0-9_-]+$/.test(block.id))
        return refuse(
          `messages.${i}.content.${j}.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'`,
        );
      if (!isObject(block.input))
        return refuse(`messages.${i}.content.${j}.tool_use.input: Input should be a valid dictionary`);
    }
  }
  for (const [i, message] of messages.entries()) {
    const blocks = blocksOf(message);
    const previous = i > 0 ? blocksOf(messages[i - 1] as Message) : [];
    for (const [j, block] of blocks.entries()) {
      if (
        block.type === "tool_result" &&
        !previous.some((p) => p.type === "tool_use" && p.id === block.tool_use_id)
      )
        return refuse(
          `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${String(block.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
    }
    const next = i + 1 < messages.length ? blocksOf(messages[i + 1] as Message) : [];
    const unanswered = blocks
      .filter((b) => b.type === "tool_use")
      .filter((use) => !next.some((b) => b.type === "tool_result" && b.tool_use_id === use.id))
      .map((use) => String(use.id));
    if (unanswered.length > 0)
      return refuse(
        `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
  }
  return undefined;
}

/** A Messages API answer. */
export function anthropicMessage(model: unknown): unknown {
  return {
    id: "msg_fake",
    type: "message",
    role: "assistant",
    model,
    content: [{ type: "text", text: "Accepted." }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 1, output_tokens: 1 },
  };
}
