import type { ArgumentsMapping, EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsMapping } from "../engine/arguments.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import { Reader, type Step } from "../engine/reader.js";
import { type CallOutcome, callFailer, type SectionSyntax } from "../engine/section.js";
import { TextArguments } from "../engine/text-arguments.js";
import { plainCheck, type ReasoningSyntax, textLoop } from "../engine/text-loop.js";
import { isToolName } from "../engine/tool-name.js";
import { encodeGemmaToolCall } from "./gemma4-encode.js";
import {
  GEMMA_CALL_OPEN,
  GEMMA4_TOKENS,
  type GemmaRepair,
  type GemmaTokens,
  readGemmaArguments,
} from "./gemma4-values.js";

/** Opens a channel (`<|channel>thought\n…<channel|>`). */
export const GEMMA_CHANNEL_OPEN = "<|channel>";
/** Closes a channel. */
export const GEMMA_CHANNEL_CLOSE = "<channel|>";

/** Gemma 4's thought channel, as its template writes it: `<|channel>thought\n…\n<channel|>`. */
const THOUGHT: ReasoningSyntax = {
  open: `${GEMMA_CHANNEL_OPEN}thought`,
  close: GEMMA_CHANNEL_CLOSE,
  lead: "\n",
  trail: "\n",
  after: "",
  before: "",
};

/** What a call reader needs of a family's tokens, built once. */
interface CallTokens {
  tokens: GemmaTokens;
  /** A call is its own section: a malformed one is skipped to its closer, or to the next call's opener. */
  section: SectionSyntax;
  close: MarkerSet;
}
/** The call reader's view of a family's tokens (Gemma 4's, or FunctionGemma's). */
export function gemmaCallTokens(tokens: GemmaTokens): CallTokens {
  return {
    tokens,
    section: {
      sectionBegin: tokens.callOpen,
      callBegin: tokens.callOpen,
      callEnd: tokens.callClose,
      sectionEnds: [],
    },
    close: new MarkerSet([tokens.callClose]),
  };
}
const GEMMA4_CALL = gemmaCallTokens(GEMMA4_TOKENS);
const CALL_KEYWORD = "call:";
/** A tool's name is short: a name that runs further than this without its `{` is not one. */
const MAX_NAME = 1024;

/** Whether the text ends in a prefix of `literal` (a marker cut by the end of the text). */
const endsInPrefixOf = (reader: Reader, literal: string) =>
  reader.ended && literal.startsWith(reader.text.slice(reader.pos));

/**
 * One call after `<|tool_call>`: `call:NAME{…}` then `<tool_call|>`. The call is announced once its name is read and
 * its arguments pass on pair by pair. The call ends where its arguments end (a string may hold `<tool_call|>`); a
 * whole call that the text ends after without `<tool_call|>` is a call (`call_unclosed`); a cut call
 * (`call_truncated`) or a malformed one (`call_invalid`) goes back to content exactly as written.
 */
export function* readGemmaCall(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  channel: Channel,
  call: CallTokens = GEMMA4_CALL,
): Step<CallOutcome> {
  const { tokens } = call;
  reader.record();
  const fail = callFailer(reader, out, { syntax: call.section, channel, prefix: tokens.callOpen });
  yield* reader.space();
  const keyword = yield* reader.prefixOf(CALL_KEYWORD);
  if (keyword < CALL_KEYWORD.length)
    return yield* fail(reader.exhausted ? "call_truncated" : "call_invalid", "expected call:NAME{…}");
  const name = (yield* reader.upTo("{<", MAX_NAME)).trim();
  const brace = yield* reader.peekChar();
  if (brace === null) return yield* fail("call_truncated", "the text ends inside a tool call");
  if (brace !== "{" || !isToolName(name)) return yield* fail("call_invalid", "expected call:NAME{…}");
  out.start(name, context.createId(out.index, name), channel);
  context.checkName(name, out);
  const args = new TextArguments(name, context, out);
  const repairs = new Set<GemmaRepair>();
  const read = yield* readGemmaArguments(reader, {
    add: (key, value) => args.addTypedValue(key, value),
    note: (code) => repairs.add(code),
    tokens,
  });
  if (read.status === "end")
    return yield* read.sawClose
      ? fail("call_invalid", "a string that does not close")
      : fail("call_truncated", "the text ends inside a tool call");
  if (read.status === "invalid") return yield* fail("call_invalid", read.message);
  // Readings of malformed text are told on the call they made, never on one that goes back to content.
  const tell = () => {
    for (const code of repairs)
      out.issue({
        code,
        severity: "info",
        message: "a string written in single quotes, read as the text between them",
        tool: name,
      });
  };
  yield* reader.space();
  if ((yield* reader.peek(call.close)) !== null) {
    reader.consume(tokens.callClose.length);
    reader.takeRecord();
    tell();
    out.end(args.finish());
    return "ok";
  }
  if (reader.exhausted) {
    // A whole call, then the end of the text: a server stripped `<tool_call|>` as a stop token. Read as every family reads it.
    out.issue({
      code: "call_unclosed",
      severity: "info",
      message: `${tokens.callClose} is missing`,
      tool: name,
    });
    reader.takeRecord();
    tell();
    out.end(args.finish());
    return "ended";
  }
  if (endsInPrefixOf(reader, tokens.callClose))
    return yield* fail("call_truncated", "the text ends inside a tool call");
  return yield* fail("call_invalid", "text after the arguments");
}

/**
 * Encodes calls as the Gemma 4 template renders them: `<|tool_call>call:NAME{key:value,…}<tool_call|>` per call.
 *
 * @example
 * encodeGemma4([{ function: { name: "get_weather", arguments: '{"city": "Paris"}' } }]);
 * // '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>'
 */
export function encodeGemma4(calls: readonly EncodableToolCall[]): string {
  return calls
    .map((call) => encodeGemmaToolCall({ name: call.function.name, arguments: argumentsMapping(call) }))
    .join("");
}

/**
 * Google Gemma 4: `<|tool_call>call:NAME{key:<|"|>text<|"|>,n:42}<tool_call|>`, reasoning in the thought channel
 * `<|channel>thought\n…\n<channel|>` (pass `startInReasoning: true` when the prompt opened it). A call written inside
 * the thought is thinking, not a call (reasoning text); any other channel is content.
 *
 * Rules: keys run to the colon, or sit between quote tokens, or are JSON-quoted (`"url":`, read as `url`). A string
 * ends at the first `<|"|>` followed by the end of its container, or by a comma and then a key and a colon (in an
 * object) or another value (in an array); any other `<|"|>` inside it is a literal `"`. `true`, `false`,
 * `null`/`none`/`None`/`nil` and JSON numbers are bare; other bare text up to `,`, `}` or `]` is a string (a server
 * stripped the quote tokens); a JSON string is read as JSON reads it. A call ends where its arguments end, so a
 * string may hold `<tool_call|>`; a string still open at the next `<|tool_call>` never closed. A call the text ends
 * after without `<tool_call|>` is a call (`call_unclosed`); a cut call stays in content (`call_truncated`), and so
 * does a malformed one (`call_invalid`: a missing comma, a string that never closes, text after the arguments).
 * Arguments stream pair by pair, written as Python's `json.dumps` writes the mapping.
 *
 * @example
 * gemma4.parse('<|channel>thought\nThe user wants the weather.\n<channel|><|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>');
 * // { reasoning: "The user wants the weather.", content: null, toolCalls: [{ function: { name: "get_weather", arguments: '{"city": "Paris"}' }, … }], issues: [] }
 */
export const gemma4: ToolCallSyntax = defineSyntax({
  id: "gemma4",
  name: "Gemma 4 (<|tool_call>call:NAME{…}<tool_call|>)",
  startMarkers: [GEMMA_CALL_OPEN],
  plain: plainCheck(GEMMA_CALL_OPEN, [THOUGHT.open]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [GEMMA_CALL_OPEN],
      reasoning: THOUGHT,
      // The template writes calls after the thought; one written inside it is the model thinking about a call.
      callsInReasoning: false,
      *onCall(_marker, channel) {
        yield* readGemmaCall(reader, out, context, channel);
      },
    });
  },
  encode: encodeGemma4,
});

/** The argument object read alone, or where and why it could not be. */
export type GemmaArgumentsResult =
  | { ok: true; value: ArgumentsMapping; end: number }
  | { ok: false; error: string; position: number };

/**
 * Reads one Gemma 4 argument object (`{city:<|"|>Paris<|"|>,days:3}`) from `start` by the rules of {@link gemma4},
 * in work linear in the text. Numbers keep their digits (core's `JsonNumber`).
 *
 * @example
 * parseGemmaArguments('{city:<|"|>Paris<|"|>,days:3}'); // { ok: true, value: { city: "Paris", days: JsonNumber("3") }, end: 29 }
 */
export function parseGemmaArguments(text: string, start = 0): GemmaArgumentsResult {
  if (typeof text !== "string") return { ok: false, error: "expected {", position: 0 };
  const from = typeof start === "number" && start >= 0 ? Math.floor(start) : 0;
  const reader = new Reader();
  reader.feed(text.slice(from));
  reader.close();
  const value: ArgumentsMapping = {};
  const at = () => from + reader.pos;
  let skip = 0;
  while (skip < reader.text.length && /\s/.test(reader.text.charAt(skip))) skip++;
  reader.consume(skip);
  if (reader.text[reader.pos] !== "{") return { ok: false, error: "expected {", position: at() };
  const steps = readGemmaArguments(reader, {
    add(key, item) {
      Object.defineProperty(value, key, {
        value: item,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    },
    note() {},
  });
  let step = steps.next();
  while (!step.done) step = steps.next();
  const read = step.value;
  if (read.status === "ok") return { ok: true, value, end: at() };
  return {
    ok: false,
    error: read.status === "end" ? "the text ends inside the arguments" : read.message,
    position: at(),
  };
}
