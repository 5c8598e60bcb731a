import { encodeArguments, normalizeArguments, parseJson } from "@toolcall/core";
import { convertParameterValue } from "./convert-parameter-value.js";
import { type QwenIssue, type QwenParseOptions, type QwenToolCall, randomCallId } from "./qwen-issue.js";
import { type BlockResult, nextBlockStart, readQwenBlock } from "./read-qwen-block.js";

/** What {@link parseQwenToolCalls} found. */
export interface QwenParseResult {
  /** The text outside the calls, exactly as written; `null` when only whitespace remains. */
  content: string | null;
  toolCalls: QwenToolCall[];
  issues: QwenIssue[];
}

function toolSchemas(
  tools: readonly unknown[] | null | undefined,
): Map<string, Record<string, unknown> | undefined> {
  const out = new Map<string, Record<string, unknown> | undefined>();
  for (const tool of tools ?? []) {
    if (typeof tool !== "object" || tool === null) continue;
    const fn = ((tool as { function?: unknown }).function ?? tool) as {
      name?: unknown;
      parameters?: unknown;
    };
    if (typeof fn.name !== "string") continue;
    const properties = (fn.parameters as { properties?: unknown } | undefined)?.properties;
    out.set(
      fn.name,
      typeof properties === "object" && properties !== null
        ? (properties as Record<string, unknown>)
        : undefined,
    );
  }
  return out;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Builds an OpenAI call from a block read by {@link readQwenBlock}; `undefined` when a JSON block is not a call. */
export function blockToCall(
  block: Extract<BlockResult, { status: "call" | "json" }>,
  context: {
    schemas: Map<string, Record<string, unknown> | undefined>;
    haveTools: boolean;
    createId: () => string;
  },
  issues: QwenIssue[],
): QwenToolCall | undefined {
  if (block.status === "json") {
    const parsed = parseJson(block.body, { lossless: true });
    const value = parsed.ok ? (parsed.value as Record<string, unknown> | null) : null;
    // A call needs a name: an empty one is an R3 error (R4 drops such a call with its result); a blank one is
    // refused as the XML form refuses it.
    if (
      value === null ||
      typeof value !== "object" ||
      Array.isArray(value) ||
      typeof value.name !== "string" ||
      value.name.trim() === ""
    )
      return undefined;
    const args = value.arguments ?? value.parameters;
    return {
      id: context.createId(),
      type: "function",
      function: {
        name: value.name,
        // Arguments written as a string are wire text: object text keeps its bytes, the rest gets R1/R2's text
        // (`""` and `"null"` become `{}`, text that is not an object is kept under `_raw_arguments`).
        arguments:
          typeof args === "string"
            ? (normalizeArguments(args).text as string)
            : encodeArguments(args ?? {}, { style: "python" }),
      },
    };
  }
  const name = block.name;
  const known = context.schemas.has(name);
  const properties = context.schemas.get(name);
  if (context.haveTools && !known) {
    issues.push({
      code: "qwen_unknown_tool",
      severity: "warning",
      message: `no tool named ${JSON.stringify(name)} was offered`,
      tool: name,
    });
  }
  if (block.unclosed) {
    issues.push({
      code: "qwen_tool_call_unclosed",
      severity: "info",
      message: "</tool_call> is missing; the call ends at </function>",
      tool: name,
    });
  }
  const args: Record<string, unknown> = {};
  for (const parameter of block.parameters) {
    if (parameter.unclosed) {
      issues.push({
        code: "qwen_parameter_unclosed",
        severity: "warning",
        message: "</parameter> is missing; the value ends at the next tag",
        tool: name,
        parameter: parameter.name,
      });
    }
    const schema =
      properties !== undefined && Object.hasOwn(properties, parameter.name)
        ? properties[parameter.name]
        : undefined;
    if (schema === undefined) {
      if (known) {
        issues.push({
          code: "qwen_unknown_parameter",
          severity: "warning",
          message: `${JSON.stringify(parameter.name)} is not in the tool's schema; kept as text`,
          tool: name,
          parameter: parameter.name,
        });
      }
      setOwn(args, parameter.name, parameter.text);
      continue;
    }
    const converted = convertParameterValue({ text: parameter.text, schema });
    if (!converted.ok) {
      issues.push({
        code: "qwen_parameter_type_mismatch",
        severity: "warning",
        message: `${converted.reason}; kept as text`,
        tool: name,
        parameter: parameter.name,
      });
    }
    setOwn(args, parameter.name, converted.value);
  }
  return {
    id: context.createId(),
    type: "function",
    function: { name, arguments: encodeArguments(args, { style: "python" }) },
  };
}

/** The parser's shared state for one text, whole or streamed. */
export function parserContext(options: QwenParseOptions) {
  return {
    schemas: toolSchemas(options.tools),
    haveTools: Array.isArray(options.tools) && options.tools.length > 0,
    createId: options.createId ?? randomCallId,
  };
}

/**
 * Reads Qwen3-Coder / Qwen3.5 tool calls out of model text:
 * `<tool_call>\n<function=NAME>\n<parameter=P>\nVALUE\n</parameter>\n</function>\n</tool_call>` (and the JSON
 * form `<tool_call>{"name": …, "arguments": …}</tool_call>` of Qwen2.5 / Qwen3) into OpenAI tool calls, each
 * parameter typed by the tool's JSON Schema. A call the text ends inside is never returned: it stays in content
 * with a `qwen_call_truncated` issue.
 *
 * @example
 * parseQwenToolCalls("<tool_call>\n<function=get_weather>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>", { tools });
 * // { content: null, toolCalls: [{ id: "call_…", type: "function", function: { name: "get_weather", arguments: '{"days": 3}' } }], issues: [] }
 */
export function parseQwenToolCalls(text: string, options: QwenParseOptions = {}): QwenParseResult {
  const context = parserContext(options);
  const content: string[] = [];
  const toolCalls: QwenToolCall[] = [];
  const issues: QwenIssue[] = [];
  let pos = 0;
  for (;;) {
    const start = nextBlockStart(text, pos);
    if (start === -1) {
      content.push(text.slice(pos));
      break;
    }
    content.push(text.slice(pos, start));
    const block = readQwenBlock(text, start, true);
    pos = consumeBlock(text, start, block, context, content, toolCalls, issues);
    if (pos === -1) break;
  }
  const joined = content.join("");
  return { content: joined.trim() === "" ? null : joined, toolCalls, issues };
}

/** Applies one final block: a call, or text left in content with its issue. Returns where to go on, or -1 at the end. */
export function consumeBlock(
  text: string,
  start: number,
  block: BlockResult,
  context: ReturnType<typeof parserContext>,
  content: string[],
  toolCalls: QwenToolCall[],
  issues: QwenIssue[],
): number {
  switch (block.status) {
    case "call":
    case "json": {
      const local: QwenIssue[] = [];
      const call = blockToCall(block, context, local);
      if (call === undefined) {
        const raw = text.slice(start, block.end);
        issues.push({
          code: "qwen_call_invalid",
          severity: "error",
          message: "the tool call is not valid JSON with a name",
          raw,
        });
        content.push(raw);
      } else {
        toolCalls.push(call);
        issues.push(...local);
      }
      return block.end;
    }
    case "invalid": {
      const raw = text.slice(start, block.end);
      issues.push({ code: "qwen_call_invalid", severity: "error", message: block.message, raw });
      content.push(raw);
      return block.end;
    }
    case "truncated":
    case "incomplete": {
      const raw = text.slice(start);
      issues.push({
        code: "qwen_call_truncated",
        severity: "error",
        message: "the text ends inside a tool call; the call is not returned",
        raw,
      });
      content.push(raw);
      return -1;
    }
    default: {
      const never: never = block;
      return never;
    }
  }
}
