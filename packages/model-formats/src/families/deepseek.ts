import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsText } from "../engine/arguments.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { readJsonArguments } from "../engine/json-arguments.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import type { Reader, Step } from "../engine/reader.js";
import {
  type CallOutcome,
  callFailer,
  readCallEnd,
  readSection,
  type SectionSyntax,
} from "../engine/section.js";
import { BARE_THINK, plainCheck, type ReasoningSyntax, THINK, textLoop } from "../engine/text-loop.js";

export const DEEPSEEK_CALLS_BEGIN = "<｜tool▁calls▁begin｜>";
export const DEEPSEEK_CALLS_END = "<｜tool▁calls▁end｜>";
export const DEEPSEEK_CALL_BEGIN = "<｜tool▁call▁begin｜>";
export const DEEPSEEK_CALL_END = "<｜tool▁call▁end｜>";
export const DEEPSEEK_SEP = "<｜tool▁sep｜>";
/** Misspelled section openers DeepSeek R1 models emit (llama.cpp accepts the same list). */
export const DEEPSEEK_CALLS_BEGIN_VARIANTS = [
  "<｜tool_calls_begin｜>",
  "<｜tool calls begin｜>",
  "<｜tool\\_calls\\_begin｜>",
  "<｜tool▁calls｜>",
];

const SEP = new MarkerSet([DEEPSEEK_SEP]);
const CALL_END = new MarkerSet([DEEPSEEK_CALL_END]);
const FENCE_OPEN = new MarkerSet(["```json"]);
const FENCE_CLOSE = new MarkerSet(["```"]);

const SECTION: SectionSyntax = {
  sectionBegin: DEEPSEEK_CALLS_BEGIN,
  sectionBeginVariants: DEEPSEEK_CALLS_BEGIN_VARIANTS,
  callBegin: DEEPSEEK_CALL_BEGIN,
  callEnd: DEEPSEEK_CALL_END,
  sectionEnds: [DEEPSEEK_CALLS_END],
  firstCallUnmarked: true,
};

/**
 * One call after `<｜tool▁call▁begin｜>`, in either form: V3 / R1 `function<｜tool▁sep｜>NAME\n```json\n{…}\n```` or
 * V3.1 `NAME<｜tool▁sep｜>{…}`; told apart by what follows the separator (`{`, or the call's end, is V3.1).
 */
function* readCall(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  channel: Channel,
  prefix: string,
): Step<CallOutcome> {
  reader.record();
  const fail = callFailer(reader, out, { syntax: SECTION, channel, prefix });
  const truncated = "the text ends inside a tool call";
  const headParts: string[] = [];
  if ((yield* reader.until(SEP, (text) => headParts.push(text))) === null)
    return yield* fail("call_truncated", truncated);
  const head = headParts.join("").trim();
  const first = yield* reader.peekChar();
  if (first === null) return yield* fail("call_truncated", truncated);
  const fenced = first !== "{" && (yield* reader.peek(CALL_END)) === null;
  let name = head;
  if (fenced) {
    name = (yield* reader.upTo("\n<", 1024)).trim();
    yield* reader.space();
    const fence = yield* reader.peek(FENCE_OPEN);
    if (fence === null) {
      if (reader.exhausted) return yield* fail("call_truncated", truncated);
      return yield* fail("call_invalid", "expected ```json after the name");
    }
    reader.consume(fence.length);
  }
  if (name === "" || name.includes("<｜")) return yield* fail("call_invalid", "a tool call without a name");
  out.start(name, context.createId(out.index, name), channel);
  context.checkName(name, out);
  const args = yield* readJsonArguments(reader, out, { end: fenced ? null : CALL_END, tool: name });
  if (args.status === "end") return yield* fail("call_truncated", truncated);
  if (args.status === "invalid") return yield* fail("call_invalid", args.message);
  if (fenced) {
    yield* reader.space();
    const close = yield* reader.peek(FENCE_CLOSE);
    if (close === null)
      return yield* fail(
        reader.exhausted ? "call_truncated" : "call_invalid",
        "expected ``` after the arguments",
      );
    reader.consume(close.length);
  }
  if (!args.closed) {
    const end = yield* readCallEnd(reader, SECTION);
    if (end === "invalid") return yield* fail("call_invalid", `expected ${DEEPSEEK_CALL_END}`);
    if (end === "unclosed")
      out.issue({
        code: "call_unclosed",
        severity: "info",
        message: `${DEEPSEEK_CALL_END} is missing`,
        tool: name,
      });
  }
  reader.takeRecord();
  out.end(args.text);
  return "ok";
}

function createDeepSeek(options: {
  id: string;
  name: string;
  reasoning: ReasoningSyntax;
  encode: (calls: readonly EncodableToolCall[]) => string;
}): ToolCallSyntax {
  return defineSyntax({
    id: options.id,
    name: options.name,
    startMarkers: [DEEPSEEK_CALLS_BEGIN, DEEPSEEK_CALL_BEGIN, ...DEEPSEEK_CALLS_BEGIN_VARIANTS],
    // "｜" (U+FF5C) is in every section and call marker, misspelled ones too: one native scan for one rare character
    // (bench section 6: 0.69× a scan for the full marker on two-byte text; a Latin-1 text cannot hold it at all).
    plain: plainCheck("｜", ["<think>"]),
    *run(reader, out, context) {
      yield* textLoop(reader, out, context, {
        callMarkers: [DEEPSEEK_CALLS_BEGIN, ...DEEPSEEK_CALLS_BEGIN_VARIANTS, DEEPSEEK_CALL_BEGIN],
        reasoning: options.reasoning,
        onCall: (marker, channel) =>
          readSection(reader, out, {
            syntax: SECTION,
            opener: marker,
            channel,
            readCall: (prefix) => readCall(reader, out, context, channel, prefix),
          }),
      });
    },
    encode: options.encode,
  });
}

/**
 * Encodes calls as the DeepSeek V3 / R1 templates render them: the arguments as the wire text itself (these
 * templates concatenate it), calls joined by a newline.
 *
 * @example
 * encodeDeepSeekV3([{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }]);
 * // '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Tokyo"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
 */
export function encodeDeepSeekV3(calls: readonly EncodableToolCall[]): string {
  const body = calls
    .map(
      (call) =>
        `${DEEPSEEK_CALL_BEGIN}function${DEEPSEEK_SEP}${call.function.name}\n\`\`\`json\n${argumentsText(call)}\n\`\`\`${DEEPSEEK_CALL_END}`,
    )
    .join("\n");
  return `${DEEPSEEK_CALLS_BEGIN}${body}${DEEPSEEK_CALLS_END}`;
}

/**
 * Encodes calls as the DeepSeek V3.1 template renders them: `<｜tool▁call▁begin｜>NAME<｜tool▁sep｜>ARGS<｜tool▁call▁end｜>`.
 *
 * @example
 * encodeDeepSeekV31([{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }]);
 * // '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Tokyo"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
 */
export function encodeDeepSeekV31(calls: readonly EncodableToolCall[]): string {
  const body = calls
    .map(
      (call) =>
        `${DEEPSEEK_CALL_BEGIN}${call.function.name}${DEEPSEEK_SEP}${argumentsText(call)}${DEEPSEEK_CALL_END}`,
    )
    .join("");
  return `${DEEPSEEK_CALLS_BEGIN}${body}${DEEPSEEK_CALLS_END}`;
}

/**
 * DeepSeek V3 / R1 (and the R1 distills): `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME\n```json\n{…}\n```<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>`.
 *
 * Rules: the argument text is kept as written (these templates concatenate it); both call forms are read by
 * either syntax (what follows `<｜tool▁sep｜>` tells them apart); the misspelled section openers R1 emits are read
 * (`marker_variant`), a call outside a section too (`call_unopened`); a section cut short keeps its complete calls
 * (`section_unclosed`); reasoning is `<think>\n…\n</think>\n\n` (R1's generation prompt opens it: `startInReasoning`).
 *
 * @example
 * deepseekV3.parse('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Tokyo"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>').toolCalls[0].function;
 * // { name: "get_weather", arguments: '{"city": "Tokyo"}' }
 */
export const deepseekV3: ToolCallSyntax = createDeepSeek({
  id: "deepseek-v3",
  name: "DeepSeek V3 / R1 (fenced JSON)",
  reasoning: THINK,
  encode: encodeDeepSeekV3,
});

/**
 * DeepSeek V3.1: `<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>…<｜tool▁calls▁end｜>`.
 * Same rules as {@link deepseekV3}; reasoning is `…</think>` with no newlines around it (thinking mode's generation
 * prompt opens `<think>`).
 *
 * @example
 * deepseekV31.parse('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Tokyo"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>').toolCalls.length; // 1
 */
export const deepseekV31: ToolCallSyntax = createDeepSeek({
  id: "deepseek-v31",
  name: "DeepSeek V3.1 (NAME<｜tool▁sep｜>JSON)",
  // V3.1 writes `reasoning</think>content`, no newlines around it.
  reasoning: BARE_THINK,
  encode: encodeDeepSeekV31,
});
