import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { pyRepr, toPython } from "@toolcall/jinja";
import { argumentsMapping, pythonJsonText } from "../engine/arguments.js";
import { CALL_LIST_START, readCallList } from "../engine/call-list.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { jsonCallFailure, readJsonCall } from "../engine/json-call.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import type { Reader, Step } from "../engine/reader.js";
import { BARE_THINK, plainCheck, textLoop } from "../engine/text-loop.js";
import { readPythonicList } from "./llama.js";

export const LFM2_CALL_START = "<|tool_call_start|>";
export const LFM2_CALL_END = "<|tool_call_end|>";
const CALL_END = new MarkerSet([LFM2_CALL_END]);
/** A JSON call inside the markers (LFM2 asked for JSON calls in its system prompt): `arguments` or `parameters`. */
const JSON_ITEM = { separator: "", argumentKeys: ["arguments", "parameters"] } as const;

/**
 * The markers' close after a call read, or `call_unclosed` (the text after the calls stays content).
 */
function* closeCalls(reader: Reader, out: Output, channel: Channel): Step<void> {
  const after = yield* reader.space();
  const end = yield* reader.peek(CALL_END);
  if (end !== null) {
    reader.consume(end.length);
    return;
  }
  out.text(channel, after);
  out.issue({
    code: "call_unclosed",
    severity: "info",
    message: `${LFM2_CALL_END} is missing after the calls`,
  });
}

/**
 * JSON calls inside the markers: a list of call objects (`[{"name": …, "arguments": {…}}, …]`) or one object. LFM2
 * writes JSON when its system prompt asks for it (LiquidAI's model card); vLLM's and SGLang's LFM2 parsers read both.
 */
function* readJsonCalls(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  channel: Channel,
  prefix: string,
): Step<void> {
  if ((yield* reader.peekChar()) === "[") {
    yield* readCallList(reader, out, context, { channel, prefix, item: JSON_ITEM, close: CALL_END });
    return;
  }
  reader.record();
  const result = yield* readJsonCall(reader, out, context, { channel, ...JSON_ITEM });
  if (result.status !== "complete") {
    const raw = prefix + reader.takeRecord();
    out.abort(jsonCallFailure(result, raw), raw, channel);
    return;
  }
  reader.takeRecord();
  out.end(result.arguments);
  yield* closeCalls(reader, out, channel);
}

/**
 * A value as LFM2.5's template writes an argument: a string in single quotes as it is, a mapping as `tojson`, else
 * `str`. A string the template would break (a quote, a backslash, a line break inside) is written as Python's `repr`
 * instead, so what is encoded always reads back.
 */
function lfm2Value(value: unknown): string {
  if (typeof value === "string") return /['\\\n\r]/.test(value) ? pyRepr(value) : `'${value}'`;
  if (typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Number))
    if (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)
      return pythonJsonText(value);
  return pyRepr(toPython(value));
}

/**
 * Encodes calls as LiquidAI LFM2.5's template renders them: `<|tool_call_start|>[NAME(k=v, …), …]<|tool_call_end|>`
 * (strings in single quotes, mappings as `tojson`, other values as Python's `str`; a string holding a quote, a
 * backslash or a line break, which the template would write unreadably, as Python's `repr`).
 *
 * @example
 * encodeLfm2([{ function: { name: "get_weather", arguments: '{"city": "Tokyo", "days": 3}' } }]);
 * // "<|tool_call_start|>[get_weather(city='Tokyo', days=3)]<|tool_call_end|>"
 */
export function encodeLfm2(calls: readonly EncodableToolCall[]): string {
  const items = calls.map((call) => {
    const args = Object.entries(argumentsMapping(call)).map(([key, value]) => `${key}=${lfm2Value(value)}`);
    return `${call.function.name}(${args.join(", ")})`;
  });
  return `${LFM2_CALL_START}[${items.join(", ")}]${LFM2_CALL_END}`;
}

/**
 * LiquidAI LFM2 / LFM2.5: `<|tool_call_start|>[get_weather(city='Tokyo'), …]<|tool_call_end|>` (a pythonic list
 * inside the markers, as llama.cpp's and vLLM's LFM2 parsers read it; JSON calls there too, a list or one object, as
 * the model writes them when its system prompt asks for JSON), reasoning in `<think>…</think>`.
 *
 * Rules: keyword arguments only, values read as Python literals (JSON's `true`/`false`/`null` too, so a mapping the
 * template writes with `tojson` reads back); a missing `<|tool_call_end|>` keeps the calls (`call_unclosed`); a
 * marker not followed by `[` stays content; a list that is not calls stays content; a call written inside `<think>` is
 * reasoning text, not a call.
 *
 * @example
 * lfm2.parse("<|tool_call_start|>[get_weather(city='Tokyo')]<|tool_call_end|>").toolCalls[0].function;
 * // { name: "get_weather", arguments: '{"city": "Tokyo"}' }
 */
export const lfm2: ToolCallSyntax = defineSyntax({
  id: "lfm2",
  name: "LiquidAI LFM2 (<|tool_call_start|>[f(a=1), …]<|tool_call_end|>)",
  startMarkers: [LFM2_CALL_START],
  plain: plainCheck(LFM2_CALL_START, [BARE_THINK.open]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [LFM2_CALL_START],
      reasoning: BARE_THINK,
      // LFM2.5 thinks about calls with their markers and calls after `</think>` (llama.cpp's LFM2.5 test): a call
      // written while it thinks is quoted text, as in Seed-OSS; read as a call, it would run twice.
      callsInReasoning: false,
      *onCall(marker, channel) {
        const space = yield* reader.space();
        const next = yield* reader.peekChar();
        if (next === "{" || (next === "[" && (yield* reader.peek(CALL_LIST_START)) !== null))
          return yield* readJsonCalls(reader, out, context, channel, marker + space);
        if (next !== "[") {
          out.text(channel, marker + space);
          return;
        }
        const before = out.index;
        yield* readPythonicList(reader, out, context, channel, marker + space);
        if (out.index === before) return;
        yield* closeCalls(reader, out, channel);
      },
    });
  },
  encode: encodeLfm2,
});
