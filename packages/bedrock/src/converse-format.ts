import type { ChatMessage, ToolCall } from "@toolcall/core";
import {
  type ConversationFormat,
  type FormatIssue,
  type FormatReading,
  guardedReading,
  isPlainObject,
  originOf,
  withOrigin,
} from "@toolcall/core/kit";
import {
  emptyErrorResults,
  holdsToolBlocks,
  isConverse,
  jsonText,
  resultText,
  shapeOf,
  TOOL_CONFIG_MISSING,
  toolsOf,
} from "./converse-shapes.js";
import { type BlockOrigin, define, writeConverse } from "./converse-write.js";

type Item = Record<string, unknown>;

/** A message's text blocks as its neutral content: one block is its text, several are text parts (each its block). */
function textContent(texts: ReadonlyArray<{ block: number; text: string }>): unknown {
  if (texts.length === 1) return (texts[0] as { text: string }).text;
  return texts.map(({ block, text }) => withOrigin({ type: "text", text }, { block }));
}

/** The neutral content of a message with no text block: none beside calls, else a count of what it holds. */
function withoutText(options: { calls: number; others: number }): string | null {
  if (options.calls > 0) return null;
  return options.others > 0 ? `[${options.others} blocks]` : "";
}

/** Reads one message's blocks into neutral messages (an assistant turn, or a user turn's results then its text). */
function readMessage(options: {
  raw: unknown;
  index: number;
  out: ChatMessage[];
  pending: Map<string, unknown>;
}): void {
  const { raw, index, out, pending } = options;
  const blocks = isPlainObject(raw) && Array.isArray(raw.content) ? raw.content : undefined;
  const role = isPlainObject(raw) ? raw.role : undefined;
  if (blocks === undefined) {
    out.push(
      withOrigin({ role, content: null } as ChatMessage, {
        message: index,
        blocks: [],
      } satisfies BlockOrigin),
    );
    return;
  }
  const own: number[] = [];
  const texts: Array<{ block: number; text: string }> = [];
  if (role === "assistant") {
    pending.clear();
    const calls: ToolCall[] = [];
    const reasoning: string[] = [];
    blocks.forEach((block, j) => {
      const use = isPlainObject(block) && isPlainObject(block.toolUse) ? block.toolUse : undefined;
      if (use === undefined) {
        own.push(j);
        if (isPlainObject(block) && typeof block.text === "string")
          texts.push({ block: j, text: block.text });
        const thought = isPlainObject(block) ? (block.reasoningContent as Item | undefined) : undefined;
        const said =
          isPlainObject(thought) && isPlainObject(thought.reasoningText)
            ? thought.reasoningText.text
            : undefined;
        if (typeof said === "string") reasoning.push(said);
        return;
      }
      const id = typeof use.toolUseId === "string" ? use.toolUseId : `call@${index}.${j}`;
      pending.set(id, use.name);
      calls.push(
        withOrigin(
          {
            id,
            type: "function",
            // A string `input` (which Converse refuses) is taken as the wire text it holds.
            function: {
              name: use.name,
              arguments: typeof use.input === "string" ? use.input : jsonText(use.input),
            },
          } as ToolCall,
          { message: index, blocks: [j] } satisfies BlockOrigin,
        ),
      );
    });
    const others = own.length - texts.length;
    out.push(
      withOrigin(
        {
          role: "assistant",
          content: texts.length > 0 ? textContent(texts) : withoutText({ calls: calls.length, others }),
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
          ...(reasoning.length > 0 ? { reasoning_content: reasoning.join("") } : {}),
        } as ChatMessage,
        { message: index, blocks: own } satisfies BlockOrigin,
      ),
    );
    return;
  }
  blocks.forEach((block, j) => {
    const result = isPlainObject(block) && isPlainObject(block.toolResult) ? block.toolResult : undefined;
    if (result === undefined) {
      own.push(j);
      if (isPlainObject(block) && typeof block.text === "string") texts.push({ block: j, text: block.text });
      return;
    }
    const id = typeof result.toolUseId === "string" ? result.toolUseId : `result@${index}.${j}`;
    pending.delete(id);
    out.push(
      withOrigin({ role: "tool", tool_call_id: id, content: resultText(result) } as ChatMessage, {
        message: index,
        blocks: [j],
      } satisfies BlockOrigin),
    );
  });
  if (own.length > 0 || blocks.length === 0)
    out.push(
      withOrigin(
        {
          role: role === "user" ? "user" : role,
          content:
            texts.length > 0
              ? textContent(texts)
              : withoutText({ calls: 0, others: own.length - texts.length }),
        } as ChatMessage,
        { message: index, blocks: own } satisfies BlockOrigin,
      ),
    );
}

/**
 * Amazon Bedrock's Converse API: a request body (`{messages, system?, toolConfig?, inferenceConfig?, …}`), a
 * response (`{output: {message}, stopReason, …}`: an answer), or a bare list of messages whose content blocks are
 * Converse's (`{text}`, `{toolUse: {toolUseId, name, input}}`, `{toolResult: {toolUseId, content, status?}}`,
 * `{reasoningContent}`, images, documents, cache points). A `toolUse` is a call (`input`, an object, read as its
 * JSON text), a `toolResult` a tool result paired by `toolUseId`; text blocks are content (several: one text part
 * each), `reasoningContent` is reasoning, and every other block is kept where it is. Writing back changes only the
 * blocks the rules changed (an `input` written as an object again, an id remapped, a blank text block dropped), adds a
 * synthesized `toolResult` first in the next user message (or in a user message of its own), and leaves every other
 * message the same object. A request whose history holds tool blocks without `toolConfig` is reported in Bedrock's
 * words (`tool_config_missing`).
 *
 * @example
 * const reading = bedrockConverseFormat.read({ messages: [{ role: "assistant", content: [{ toolUse: { toolUseId: "t1", name: "f", input: {} } }] }], toolConfig });
 * reading.conversations[0].messages[0].tool_calls[0].function.arguments; // "{}"
 */
export const bedrockConverseFormat: ConversationFormat = {
  id: "bedrock-converse",
  name: "Amazon Bedrock Converse (toolUse / toolResult blocks)",
  expected:
    '{"messages": [{"role": "user" | "assistant", "content": [{"text"} | {"toolUse"} | {"toolResult"}]}], "toolConfig"?}',
  unit: "record",
  priority: 30,
  matches: (value) => {
    try {
      return isConverse(value);
    } catch {
      return false;
    }
  },
  resembles: (value) => {
    try {
      return (
        isPlainObject(value) &&
        ("toolConfig" in value ||
          "inferenceConfig" in value ||
          (isPlainObject(value.output) && "message" in value.output))
      );
    } catch {
      return false;
    }
  },
  read: (value) => guardedReading({ value, what: "a Converse record", read: () => readConverse(value) }),
};

function readConverse(value: unknown): FormatReading {
  const shape = shapeOf(value) ?? { kind: "list" as const, list: [] };
  const messages: ChatMessage[] = [];
  const pending = new Map<string, unknown>();
  shape.list.forEach((raw, index) => {
    readMessage({ raw, index, out: messages, pending });
  });
  const before = new Map<unknown, ChatMessage | ToolCall>();
  for (const message of messages) {
    before.set(originOf(message), message);
    for (const call of (message.tool_calls as ToolCall[] | undefined) ?? []) before.set(originOf(call), call);
  }
  const record = isPlainObject(value) ? value : {};
  const prefix = shape.kind === "request" ? "messages" : shape.kind === "response" ? "output.message" : "";
  const issues: FormatIssue[] = [];
  if (shape.kind === "request" && !isPlainObject(record.toolConfig) && holdsToolBlocks(shape.list))
    issues.push({
      code: "tool_config_missing",
      severity: "error",
      message: `bedrock-converse 400: ${JSON.stringify(TOOL_CONFIG_MISSING)}`,
      path: ["toolConfig"],
      place: "toolConfig",
    });
  for (const [i, j] of emptyErrorResults(shape.list)) {
    // Bedrock's words (aws-samples/sample-multi-agent-orchestration-chat-on-agentcore#15).
    const text = `The content field at messages.${i}.content.${j}.toolResult cannot be empty when status value is error.`;
    issues.push({
      code: "tool_result_empty",
      severity: "error",
      message: `bedrock-converse 400: ${JSON.stringify(text)}`,
      path: [...(prefix ? [prefix] : []), i, "content", j, "toolResult", "content"],
      place: `${shape.kind === "response" ? prefix : `${prefix}[${i}]`}.content[${j}].toolResult.content`,
    });
  }
  const tools = toolsOf(value);
  return {
    conversations: [
      {
        messages,
        ...(tools ? { tools } : {}),
        ...(shape.kind === "response"
          ? { answer: true, finishReason: record.stopReason === "max_tokens" ? "length" : null }
          : {}),
        placeOf(path) {
          const message = typeof path[0] === "number" ? messages[path[0]] : undefined;
          let origin = originOf(message) as BlockOrigin | undefined;
          if (path[1] === "tool_calls" && typeof path[2] === "number")
            origin = originOf((message?.tool_calls as unknown[] | undefined)?.[path[2]]) as
              | BlockOrigin
              | undefined;
          if (path[1] === "content" && typeof path[2] === "number" && Array.isArray(message?.content)) {
            const part = originOf(message.content[path[2]]) as { block: number } | undefined;
            if (origin !== undefined && part !== undefined)
              origin = { message: origin.message, blocks: [part.block] };
          }
          if (origin === undefined) return prefix || "messages";
          const at = shape.kind === "response" ? prefix : `${prefix}[${origin.message}]`;
          // A path to a whole user or assistant message names the message; one into a block names the block.
          const whole = path.length === 1 && message?.role !== "tool";
          return origin.blocks.length === 1 && !whole ? `${at}.content[${origin.blocks[0]}]` : at;
        },
      },
    ],
    issues,
    write([next]) {
      if (next === undefined) return { ok: true, value };
      const written = writeConverse({ list: shape.list, next, before });
      if (!written.ok || written.value === shape.list) return written.ok ? { ok: true, value } : written;
      if (shape.kind === "list") return written;
      const out: Item = {};
      if (shape.kind === "request") {
        for (const key of Object.keys(record))
          define(out, key, key === "messages" ? written.value : record[key]);
        return { ok: true, value: out };
      }
      const list = written.value as unknown[];
      if (list.length !== 1) return { ok: false, reason: "an answer is one message: it cannot gain one" };
      for (const key of Object.keys(record))
        define(out, key, key === "output" ? { ...(record.output as Item), message: list[0] } : record[key]);
      return { ok: true, value: out };
    },
  };
}
