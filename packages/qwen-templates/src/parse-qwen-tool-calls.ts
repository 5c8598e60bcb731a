import { encodeArguments, normalizeArguments, parseJson } from "@toolcall/core";
import { isPlainObject, resolveWorkMeter, type WorkMeter } from "@toolcall/core/kit";
import { convertParameterValue } from "./convert-parameter-value.js";
import { type QwenIssue, type QwenParseOptions, type QwenToolCall, randomCallId } from "./qwen-issue.js";
import { type BlockResult, nextBlockStart, QwenTextScan, readQwenBlock } from "./read-qwen-block.js";

/** What {@link parseQwenToolCalls} found. */
export interface QwenParseResult {
  /** The text outside the calls, exactly as written; `null` when only whitespace remains. */
  content: string | null;
  toolCalls: QwenToolCall[];
  issues: QwenIssue[];
}

/**
 * The entries of `tools`, each read once (a long sparse list by the entries it holds), or `undefined` when it is not
 * an array or cannot be read (a revoked proxy). An entry whose read throws is left out.
 */
function toolList(tools: unknown): readonly unknown[] | undefined {
  try {
    if (!Array.isArray(tools)) return undefined;
    const length = tools.length;
    const indices = length <= 65_536 ? Array.from({ length }, (_, i) => i) : Object.keys(tools).map(Number);
    const out: unknown[] = [];
    for (const index of indices) {
      if (!Number.isInteger(index) || index >= length) break;
      try {
        out.push(tools[index]);
      } catch {
        // An entry that cannot be read offers no tool.
      }
    }
    return out;
  } catch {
    return undefined;
  }
}

function toolSchemas(list: readonly unknown[] | undefined): Map<string, Record<string, unknown> | undefined> {
  const out = new Map<string, Record<string, unknown> | undefined>();
  const tools = list ?? [];
  for (let i = 0; i < tools.length; i++) {
    try {
      const tool: unknown = tools[i];
      if (!isPlainObject(tool)) continue;
      const fn = isPlainObject(tool.function) ? tool.function : tool;
      if (typeof fn.name !== "string") continue;
      const parameters = fn.parameters;
      const properties = isPlainObject(parameters) ? parameters.properties : undefined;
      out.set(fn.name, isPlainObject(properties) ? properties : undefined);
    } catch {
      // A tool whose getters throw, or a revoked proxy, offers nothing to type by.
    }
  }
  return out;
}

function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Builds an OpenAI call from a block read by {@link readQwenBlock}; `undefined` when a JSON block is not a call. */
export function blockToCall(
  block: Extract<BlockResult, { status: "call" | "json" }>,
  context: ParserContext,
  issues: QwenIssue[],
  meter: WorkMeter,
): QwenToolCall | undefined {
  if (block.status === "json") {
    // The lossless parse, the decode of string arguments and the text written: a few passes over the body.
    meter.charge(4 * block.body.length);
    const parsed = parseJson(block.body, { lossless: true });
    const value = parsed.success ? (parsed.value as Record<string, unknown> | null) : null;
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
      id: callId(context.createId),
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
    const schema = schemaOf(properties, parameter.name);
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
    // Typing reads the value once as JSON and, for a structure, once as a Python literal.
    meter.charge(4 * parameter.text.length);
    const converted = convertParameterValue({ text: parameter.text, schema });
    if (!converted.success) {
      issues.push({
        code: "qwen_parameter_type_mismatch",
        severity: "warning",
        message: `${converted.error.reason}; kept as text`,
        tool: name,
        parameter: parameter.name,
      });
    }
    setOwn(args, parameter.name, converted.success ? converted.value : converted.error.text);
  }
  const encoded = encodeArguments(args, { style: "python" });
  meter.charge(encoded.length);
  return { id: callId(context.createId), type: "function", function: { name, arguments: encoded } };
}

/** A parameter's schema in a tool's `properties`; one that cannot be read (a getter throws) is none. */
function schemaOf(properties: Record<string, unknown> | undefined, name: string): unknown {
  try {
    return properties !== undefined && Object.hasOwn(properties, name) ? properties[name] : undefined;
  } catch {
    return undefined;
  }
}

/** The caller's id, or core's when the caller's maker throws or gives no string: a call is not lost for its id. */
function callId(createId: () => string): string {
  try {
    const id = createId();
    if (typeof id === "string") return id;
  } catch {
    // fall through
  }
  return randomCallId();
}

/** The parser's shared state for one text, whole or streamed. */
export interface ParserContext {
  schemas: Map<string, Record<string, unknown> | undefined>;
  haveTools: boolean;
  createId: () => string;
}

/** The parser's shared state for one text, whole or streamed. */
export function parserContext(options: QwenParseOptions): ParserContext {
  const tools = toolList(readOption(options, "tools"));
  const createId = readOption(options, "createId");
  return {
    schemas: toolSchemas(tools),
    haveTools: tools !== undefined && tools.length > 0,
    createId: typeof createId === "function" ? (createId as () => string) : randomCallId,
  };
}

/** One option, read once; options that cannot be read are absent. */
export function readOption(options: unknown, key: keyof QwenParseOptions): unknown {
  try {
    return typeof options === "object" && options !== null ? (options as QwenParseOptions)[key] : undefined;
  } catch {
    return undefined;
  }
}

/** The issue a parser leaves when its work budget runs out, with the text it left in content. */
export function budgetIssue(raw: string): QwenIssue {
  return {
    code: "qwen_budget_exhausted",
    severity: "warning",
    message: "the work budget ran out; the rest of the text is content, unread",
    raw,
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
  if (typeof text !== "string") return { content: null, toolCalls: [], issues: [] };
  const context = parserContext(options);
  const meter = resolveWorkMeter({ meter: readOption(options, "meter"), length: text.length });
  const scan = new QwenTextScan(text, meter);
  const content: string[] = [];
  const toolCalls: QwenToolCall[] = [];
  const issues: QwenIssue[] = [];
  let pos = 0;
  for (;;) {
    const start = nextBlockStart(scan, pos);
    if (meter.exhausted) {
      const rest = text.slice(pos);
      issues.push(budgetIssue(rest));
      content.push(rest);
      break;
    }
    if (start === -1) {
      content.push(text.slice(pos));
      break;
    }
    content.push(text.slice(pos, start));
    const block = readQwenBlock(scan, start, true);
    pos = consumeBlock({ scan, start, block, context, content, toolCalls, issues });
    if (pos === -1) break;
  }
  const joined = content.join("");
  return { content: joined.trim() === "" ? null : joined, toolCalls, issues };
}

/** Applies one final block: a call, or text left in content with its issue. Returns where to go on, or -1 at the end. */
export function consumeBlock(options: {
  scan: QwenTextScan;
  start: number;
  block: BlockResult;
  context: ParserContext;
  content: string[];
  toolCalls: QwenToolCall[];
  issues: QwenIssue[];
}): number {
  const { scan, start, block, context, content, toolCalls, issues } = options;
  const text = scan.text;
  switch (block.status) {
    case "call":
    case "json": {
      const local: QwenIssue[] = [];
      const call = blockToCall(block, context, local, scan.meter);
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
