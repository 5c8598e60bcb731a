import type { ToolDefinition } from "@toolcall/core";
import { isPlainObject, serializeJson } from "@toolcall/core/kit";

type Item = Record<string, unknown>;

/** The members a Converse content block is one of (a union: each block holds exactly one). */
const BLOCK_MEMBERS = new Set([
  "text",
  "toolUse",
  "toolResult",
  "image",
  "document",
  "video",
  "reasoningContent",
  "cachePoint",
  "guardContent",
  "citationsContent",
  "searchResult",
]);

/** Members no other format's blocks have (OpenAI's and Anthropic's blocks say their `type`; Gemini's are `parts`). */
const CONVERSE_ONLY = ["toolUse", "toolResult", "reasoningContent", "cachePoint", "guardContent"];

/**
 * The text the Converse API refuses a request with when its history holds tool blocks and it declares no tools.
 *
 * @example
 * TOOL_CONFIG_MISSING; // "The toolConfig field must be defined when using toolUse and toolResult content blocks."
 */
export const TOOL_CONFIG_MISSING =
  "The toolConfig field must be defined when using toolUse and toolResult content blocks.";

/** A Converse content block: an object without `type`, holding one of the members Converse knows. */
export function isConverseBlock(value: unknown): value is Item {
  return (
    isPlainObject(value) && !("type" in value) && Object.keys(value).some((key) => BLOCK_MEMBERS.has(key))
  );
}

function isConverseMessage(value: unknown): value is Item & { content: unknown[] } {
  return isPlainObject(value) && typeof value.role === "string" && Array.isArray(value.content);
}

/** Where a record keeps its messages: a request body's `messages`, a response's `output.message`, or a bare list. */
export type ConverseShape =
  | { kind: "request"; list: unknown[] }
  | { kind: "response"; list: unknown[] }
  | { kind: "list"; list: unknown[] };

/** The messages of a value, read as Converse would take it (whether or not it is one). */
export function shapeOf(value: unknown): ConverseShape | undefined {
  if (Array.isArray(value)) return { kind: "list", list: value };
  if (!isPlainObject(value)) return undefined;
  if (Array.isArray(value.messages)) return { kind: "request", list: value.messages };
  const output = value.output;
  if (isPlainObject(output) && isPlainObject(output.message))
    return { kind: "response", list: [output.message] };
  return undefined;
}

/** Some block of the messages is one only Converse has. */
export function holdsConverseOnlyBlock(messages: readonly unknown[]): boolean {
  return messages.some(
    (message) =>
      isConverseMessage(message) &&
      message.content.some(
        (block) => isConverseBlock(block) && CONVERSE_ONLY.some((member) => member in block),
      ),
  );
}

/** Some block of the messages is a `toolUse` or a `toolResult`. */
export function holdsToolBlocks(messages: readonly unknown[]): boolean {
  return messages.some(
    (message) =>
      isConverseMessage(message) &&
      message.content.some((block) => isPlainObject(block) && ("toolUse" in block || "toolResult" in block)),
  );
}

/**
 * True when a value has Converse's shape: every message a `{role, content: [blocks]}` whose blocks are Converse
 * blocks, and something only Converse has (a `toolUse`, `toolResult` or `reasoningContent` block, a request's
 * `toolConfig` or `inferenceConfig`, a response's `stopReason`).
 */
export function isConverse(value: unknown): boolean {
  const shape = shapeOf(value);
  if (shape === undefined || shape.list.length === 0) return false;
  const blocksOk = shape.list.every(
    (message) => isConverseMessage(message) && message.content.every(isConverseBlock),
  );
  if (!blocksOk) return false;
  if (holdsConverseOnlyBlock(shape.list)) return true;
  const record = value as Item;
  if (shape.kind === "request") return "toolConfig" in record || "inferenceConfig" in record;
  return shape.kind === "response" && "stopReason" in record;
}

/** The tools a request declares (`toolConfig.tools[].toolSpec`), as OpenAI tool definitions. */
export function toolsOf(value: unknown): ToolDefinition[] | undefined {
  if (!isPlainObject(value) || !isPlainObject(value.toolConfig) || !Array.isArray(value.toolConfig.tools))
    return undefined;
  const tools: ToolDefinition[] = [];
  for (const tool of value.toolConfig.tools) {
    const spec = isPlainObject(tool) && isPlainObject(tool.toolSpec) ? tool.toolSpec : undefined;
    if (spec === undefined || typeof spec.name !== "string") continue;
    const schema = isPlainObject(spec.inputSchema) ? spec.inputSchema.json : undefined;
    tools.push({
      type: "function",
      function: { name: spec.name, ...(isPlainObject(schema) ? { parameters: schema } : {}) },
    } as ToolDefinition);
  }
  return tools;
}

/** A value as JSON text (what a `json` block or an object `input` reads as); the value itself when it has none. */
export function jsonText(value: unknown): unknown {
  const written = serializeJson(value);
  return written.success ? written.value : value;
}

/**
 * What a `toolResult` says, as text: its text blocks joined, or, when it holds anything else (a `json` block, an
 * image), its whole content as JSON text.
 */
export function resultText(result: Item): unknown {
  const content = result.content;
  if (!Array.isArray(content)) return jsonText(content ?? "");
  if (content.every((block) => isPlainObject(block) && typeof block.text === "string"))
    return content.map((block) => (block as { text: string }).text).join("");
  return jsonText(content);
}

/**
 * Where a `toolResult` with `status: "error"` holds no content (no block, or only empty text), which Converse refuses:
 * `[message, block]` pairs.
 */
export function emptyErrorResults(messages: readonly unknown[]): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  messages.forEach((message, i) => {
    if (!isConverseMessage(message)) return;
    message.content.forEach((block, j) => {
      const result = isPlainObject(block) && isPlainObject(block.toolResult) ? block.toolResult : undefined;
      if (result === undefined || result.status !== "error") return;
      const content = Array.isArray(result.content) ? result.content : [];
      const empty = content.every((part) => isPlainObject(part) && part.text === "");
      if (empty) found.push([i, j]);
    });
  });
  return found;
}
