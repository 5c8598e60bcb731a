import type Anthropic from "@anthropic-ai/sdk";

type Neutral = {
  role?: unknown;
  content?: unknown;
  tool_calls?: Array<{ id?: unknown; function?: { name?: unknown; arguments?: unknown } }>;
  tool_call_id?: unknown;
};
type Block = Anthropic.ContentBlockParam;

function input(text: unknown): unknown {
  if (typeof text !== "string") return text ?? {};
  try {
    return JSON.parse(text);
  } catch {
    // As converters in the wild do (vercel/ai#13645): the raw text goes as the input.
    return text;
  }
}

/**
 * OpenAI-shaped messages as Anthropic's Messages API takes them, the way a plain converter does it (and nothing
 * more): system messages become the system prompt; text content becomes text blocks as it is (empty or not); calls
 * become tool_use blocks with their parsed arguments; tool messages tool_result blocks; runs of one role merge.
 */
export function toAnthropic(messages: readonly Neutral[]): {
  system: string;
  messages: Anthropic.MessageParam[];
} {
  const system: string[] = [];
  const out: Array<{ role: "user" | "assistant"; content: Block[] }> = [];
  const push = (role: "user" | "assistant", blocks: Block[]) => {
    const last = out[out.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  const texts = (content: unknown): Block[] => {
    if (typeof content === "string") return [{ type: "text", text: content }];
    if (!Array.isArray(content)) return [];
    return content.map((part) => ({ type: "text", text: String((part as { text?: unknown }).text ?? "") }));
  };
  for (const message of messages) {
    if (message.role === "system") system.push(String(message.content));
    else if (message.role === "user") push("user", texts(message.content));
    else if (message.role === "tool")
      push("user", [
        {
          type: "tool_result",
          tool_use_id: String(message.tool_call_id),
          content: String(message.content ?? ""),
        },
      ]);
    else if (message.role === "assistant")
      push("assistant", [
        ...texts(message.content),
        ...(message.tool_calls ?? []).map(
          (call) =>
            ({
              type: "tool_use",
              id: String(call.id),
              name: String(call.function?.name),
              input: input(call.function?.arguments),
            }) as Block,
        ),
      ]);
  }
  return { system: system.join("\n"), messages: out };
}
