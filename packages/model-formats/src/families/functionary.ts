import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsMapping, argumentsText, pythonJsonText } from "../engine/arguments.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { readJsonArguments } from "../engine/json-arguments.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import type { Reader, Step } from "../engine/reader.js";
import { plainCheck, textLoop } from "../engine/text-loop.js";

export const FUNCTIONARY_FUNCTION_OPEN = "<function=";
export const FUNCTIONARY_FUNCTION_CLOSE = "</function>";
export const FUNCTIONARY_PYTHON_TAG = "<|python_tag|>";
export const FUNCTIONARY_RECIPIENT = ">>>";
const FUNCTION_CLOSE = new MarkerSet([FUNCTIONARY_FUNCTION_CLOSE]);
const PYTHON_TAG = new MarkerSet([FUNCTIONARY_PYTHON_TAG]);
const STOP = new MarkerSet(["<|eom_id|>", "<|eot_id|>"]);
const RECIPIENT = new MarkerSet([FUNCTIONARY_RECIPIENT]);
const NAME_CHAR = /[A-Za-z0-9_.-]/;
const NAME_LIMIT = 256;

/** A `python` call holding code, as the template writes it (`{"code": …}`); `undefined` for any other call. */
function pythonCode(call: EncodableToolCall): string | undefined {
  if (call.function.name !== "python") return undefined;
  const args = argumentsMapping(call);
  const keys = Object.keys(args);
  return keys.length === 1 && typeof args.code === "string" ? args.code : undefined;
}

/** Code for the code interpreter, up to a stop token or `until`: a `python` call (`{"code": …}`), as llama.cpp reads it. */
function* readCode(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  options: { channel: Channel; prefix: string; until: MarkerSet },
): Step<void> {
  const parts: string[] = [];
  yield* reader.before(options.until, (text) => parts.push(text));
  const code = parts.join("");
  if (code.trim() === "") {
    out.text(options.channel, options.prefix + code);
    return;
  }
  out.start("python", context.createId(out.index, "python"), options.channel);
  out.end(pythonJsonText({ code }));
}

/** A function name (letters, digits, `_`, `.`, `-`), up to a limit; consumes it. */
function* readName(reader: Reader): Step<string> {
  let name = "";
  for (;;) {
    const c = yield* reader.peekChar();
    if (c === null || !NAME_CHAR.test(c) || name.length >= NAME_LIMIT) return name;
    name += reader.consume(1);
  }
}

/** v3.1: `NAME>{…}</function>` after `<function=`. */
function* readFunction(reader: Reader, out: Output, context: FamilyContext, channel: Channel): Step<void> {
  reader.record();
  const fail = (code: "call_invalid" | "call_truncated", message: string) => {
    const raw = FUNCTIONARY_FUNCTION_OPEN + reader.takeRecord();
    out.abort({ code, severity: "error", message, raw }, raw, channel);
  };
  const name = yield* readName(reader);
  const gt = yield* reader.peekChar();
  if (gt === null) return fail("call_truncated", "the text ends inside a tool call");
  if (gt !== ">" || name === "") return fail("call_invalid", "a function tag without a name");
  reader.consume(1);
  out.start(name, context.createId(out.index, name), channel);
  context.checkName(name, out);
  const args = yield* readJsonArguments(reader, out, { end: FUNCTION_CLOSE, tool: name });
  if (args.status === "end") return fail("call_truncated", "the text ends inside a tool call");
  if (args.status === "invalid") return fail("call_invalid", args.message);
  let after = "";
  if (!args.closed) {
    after = yield* reader.space();
    const close = yield* reader.peek(FUNCTION_CLOSE);
    if (close !== null) {
      reader.consume(close.length);
      after = "";
    } else
      out.issue({
        code: "call_unclosed",
        severity: "info",
        message: `${FUNCTIONARY_FUNCTION_CLOSE} is missing; the call ends with its JSON object`,
        tool: name,
      });
  }
  reader.takeRecord();
  out.end(args.text);
  out.text(channel, after);
}

/**
 * Encodes calls as Functionary v3.1's template renders them: `<function=NAME>ARGS</function>` per call, the arguments
 * as the wire text (the template concatenates the string); a `python` call holding code as `<|python_tag|>CODE`.
 *
 * @example
 * encodeFunctionaryV31([{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }]);
 * // '<function=get_weather>{"city": "Tokyo"}</function>'
 */
export function encodeFunctionaryV31(calls: readonly EncodableToolCall[]): string {
  return calls
    .map((call) => {
      const code = pythonCode(call);
      if (code !== undefined) return FUNCTIONARY_PYTHON_TAG + code;
      return `${FUNCTIONARY_FUNCTION_OPEN}${call.function.name}>${argumentsText(call)}${FUNCTIONARY_FUNCTION_CLOSE}`;
    })
    .join("");
}

/**
 * MeetKai Functionary v3.1 (on Llama 3.1): `<function=NAME>{…}</function>`, one after another; code for the code
 * interpreter as `<|python_tag|>CODE`.
 *
 * Rules: the arguments keep the model's bytes (an object; `</function>` with nothing before it is `{}`); a missing
 * `</function>` ends the call at its JSON (`call_unclosed`); `<|python_tag|>` where the text begins or right after a
 * call starts code up to `<|eom_id|>` or the end: a `python` call with `{"code": …}` (llama.cpp reads it so); the
 * `<|eom_id|>` the template writes after calls is syntax.
 *
 * @example
 * functionaryV31.parse('<function=get_weather>{"city": "Tokyo"}</function>').toolCalls[0].function;
 * // { name: "get_weather", arguments: '{"city": "Tokyo"}' }
 */
export const functionaryV31: ToolCallSyntax = defineSyntax({
  id: "functionary-v31",
  name: "Functionary v3.1 (<function=NAME>{…}</function>)",
  startMarkers: [FUNCTIONARY_FUNCTION_OPEN, FUNCTIONARY_PYTHON_TAG],
  plain: plainCheck(FUNCTIONARY_FUNCTION_OPEN, [FUNCTIONARY_PYTHON_TAG]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [FUNCTIONARY_FUNCTION_OPEN],
      // After calls the template writes <|eom_id|> (the end of a message that waits for results): syntax.
      afterCallMarkers: [FUNCTIONARY_PYTHON_TAG, ...STOP.markers],
      *atStart() {
        out.text("content", yield* reader.space());
        reader.journalCommit();
        const tag = yield* reader.peek(PYTHON_TAG);
        if (tag === null) return;
        reader.consume(tag.length);
        reader.journalStart(tag);
        yield* readCode(reader, out, context, { channel: "content", prefix: tag, until: STOP });
      },
      *onCall(marker, channel) {
        if (STOP.markers.includes(marker)) return;
        if (marker === FUNCTIONARY_PYTHON_TAG)
          yield* readCode(reader, out, context, { channel, prefix: marker, until: STOP });
        else yield* readFunction(reader, out, context, channel);
      },
    });
  },
  encode: encodeFunctionaryV31,
});

/**
 * v3.2: after `>>>` (or at the start, where the generation prompt wrote it): `RECIPIENT\n`, then the message for it.
 * `all` is text; `python` is code; any other name is a call whose arguments are JSON. At the start (`quiet`), a line
 * that is not a recipient followed by what it takes is content.
 */
function* readRecipient(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  options: { channel: Channel; marker: string; quiet: boolean },
): Step<void> {
  const { channel } = options;
  reader.record();
  const back = () => out.text(channel, options.marker + reader.takeRecord());
  const name = yield* readName(reader);
  const newline = yield* reader.peekChar();
  if (name === "" || newline !== "\n") return back();
  reader.consume(1);
  if (name === "all") {
    reader.takeRecord();
    return;
  }
  if (name === "python") {
    const head = options.marker + reader.takeRecord();
    yield* readCode(reader, out, context, { channel, prefix: head, until: RECIPIENT });
    return;
  }
  if (options.quiet) {
    yield* reader.space();
    if ((yield* reader.peekChar()) !== "{") return back();
  }
  out.start(name, context.createId(out.index, name), channel);
  context.checkName(name, out);
  const args = yield* readJsonArguments(reader, out, { end: null, tool: name });
  if (args.status !== "ok") {
    const raw = options.marker + reader.takeRecord();
    const truncated = args.status === "end";
    out.abort(
      {
        code: truncated ? "call_truncated" : "call_invalid",
        severity: "error",
        message: truncated ? "the text ends inside a tool call" : args.message,
        raw,
      },
      raw,
      channel,
    );
    return;
  }
  reader.takeRecord();
  out.end(args.text);
}

/** The characters a recipient's name is made of (`isNameChar`). */
const NAME_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-";

const isNameChar = (c: number): boolean =>
  (c >= 0x61 && c <= 0x7a) ||
  (c >= 0x41 && c <= 0x5a) ||
  (c >= 0x30 && c <= 0x39) ||
  c === 0x5f ||
  c === 0x2e ||
  c === 0x2d;

/**
 * Whether the text's first line, from `at`, is a recipient: `all`, `python`, or a name (up to 256 of `A-Za-z0-9_.-`)
 * whose JSON arguments follow. Prose fails at its first space, so a plain answer costs a few characters.
 */
function startsWithRecipient(text: string, at: number): boolean {
  let i = at;
  const limit = Math.min(text.length, at + 257);
  while (i < limit && isNameChar(text.charCodeAt(i))) i++;
  if (i === at || i - at > 256 || text.charCodeAt(i) !== 0x0a) return false;
  const name = text.slice(at, i);
  if (name === "all" || name === "python") return true;
  i++;
  for (
    let c = text.charCodeAt(i);
    c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
    c = text.charCodeAt(++i)
  );
  return text.charCodeAt(i) === 0x7b;
}

/**
 * Encodes calls as Functionary v3.2's template renders them: `>>>NAME\nARGS` per call (the arguments as the wire
 * text), a `python` call holding code as `>>>python\nCODE`. The generation prompt ends with the first `>>>`.
 *
 * @example
 * encodeFunctionaryV32([{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }]);
 * // '>>>get_weather\n{"city": "Tokyo"}'
 */
export function encodeFunctionaryV32(calls: readonly EncodableToolCall[]): string {
  return calls
    .map((call) => {
      const code = pythonCode(call);
      return `${FUNCTIONARY_RECIPIENT}${call.function.name}\n${code ?? argumentsText(call)}`;
    })
    .join("");
}

/**
 * MeetKai Functionary v3.2 (on Llama 3): messages addressed `>>>RECIPIENT\n…`: `>>>all\n` text for the user,
 * `>>>NAME\n{…}` a call, `>>>python\n` code. The generation prompt ends with `>>>`, so the model's text starts with a
 * recipient.
 *
 * Rules: a recipient line starts a message where the text begins (the prompt's `>>>`) or after `>>>`; `all`'s text
 * is content; a call's arguments are JSON whose bytes are kept (text that is not JSON after `>>>NAME\n` stays in
 * content: `call_invalid`); `python`'s text up to the next `>>>` is a `python` call with `{"code": …}`. At the start,
 * a first line that is not `all`, `python` or a name followed by a JSON object is content; after `>>>`, a line that
 * is not a recipient (`>>> x = 1` in a Python session) is content.
 *
 * @example
 * functionaryV32.parse('all\nLet me check.>>>get_weather\n{"city": "Tokyo"}');
 * // { content: "Let me check.", toolCalls: [{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' }, … }], … }
 */
export const functionaryV32: ToolCallSyntax = defineSyntax({
  id: "functionary-v32",
  name: "Functionary v3.2 (>>>NAME\\n{…})",
  startMarkers: [FUNCTIONARY_RECIPIENT],
  plain: plainCheck(FUNCTIONARY_RECIPIENT, [], { firstChars: NAME_CHARS, test: startsWithRecipient }),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [FUNCTIONARY_RECIPIENT],
      *atStart() {
        out.text("content", yield* reader.space());
        reader.journalCommit();
        yield* readRecipient(reader, out, context, { channel: "content", marker: "", quiet: true });
      },
      onCall: (marker, channel) => readRecipient(reader, out, context, { channel, marker, quiet: false }),
    });
  },
  encode: encodeFunctionaryV32,
});
