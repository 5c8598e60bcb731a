import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { pyRepr, toPython } from "@toolcall/jinja";
import { argumentsJson, argumentsMapping, pythonJsonText } from "../engine/arguments.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import {
  bareCallIssue,
  type JsonCallOptions,
  jsonCallFailure,
  listNext,
  readJsonCall,
} from "../engine/json-call.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import {
  type PythonRepairs,
  readCallName,
  readIdentifier,
  readPythonValue,
} from "../engine/python-values.js";
import type { Reader, Step } from "../engine/reader.js";
import { TextArguments } from "../engine/text-arguments.js";
import { plainCheck, textLoop } from "../engine/text-loop.js";

const CALL_METHOD = new MarkerSet([".call("]);

export const LLAMA_PYTHON_TAG = "<|python_tag|>";
export const LLAMA_PYTHON_START = "<|python_start|>";
export const LLAMA_PYTHON_END = "<|python_end|>";
const STOP = new MarkerSet(["<|eom_id|>", "<|eot_id|>"]);
const PYTHON_END = new MarkerSet([LLAMA_PYTHON_END]);
const CALL_OPTIONS = { separator: "", argumentKeys: ["parameters", "arguments"] } satisfies Omit<
  JsonCallOptions,
  "channel"
>;

/** `{"name": …, "parameters": {…}}` calls separated by `;` (the reader is at `{`). */
function* readJsonCalls(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  channel: Channel,
  prefix: string,
  committed: boolean,
): Step<void> {
  let pending = prefix;
  for (;;) {
    reader.record();
    const result = yield* readJsonCall(reader, out, context, {
      channel,
      ...CALL_OPTIONS,
      // Prose can hold `{"name": "Alice"}`: without <|python_tag|>, a call is announced once its arguments begin.
      announceWithArguments: !committed,
    });
    const raw = pending + reader.takeRecord();
    if (result.status !== "complete") {
      if (!committed && !out.inCall) {
        const issue = bareCallIssue(result, raw, context);
        if (issue !== null) out.issue(issue);
        out.text(channel, raw);
        return;
      }
      out.abort(jsonCallFailure(result, raw), raw, channel);
      return;
    }
    if (!out.inCall) {
      // A JSON object with a name but no arguments key, without <|python_tag|>: content.
      out.text(channel, raw);
      return;
    }
    out.end(result.arguments);
    pending = yield* reader.space();
    if ((yield* reader.peekChar()) !== ";") {
      out.text(channel, pending);
      return;
    }
    pending += reader.consume(1);
    pending += yield* reader.space();
    if ((yield* reader.peekChar()) !== "{") {
      out.text(channel, pending);
      return;
    }
    committed = true;
  }
}

/** Keyword arguments up to `)` (the reader is after `(`), each passed on as a delta once read. */
function* readKeywordArguments(
  reader: Reader,
  args: TextArguments,
  repairs: PythonRepairs,
): Step<{ ok: true } | { ok: false; end: boolean; message: string; code?: string }> {
  for (;;) {
    yield* reader.space();
    const c = yield* reader.peekChar();
    if (c === null) return { ok: false, end: true, message: "the text ends inside a call" };
    if (c === ")") {
      reader.consume(1);
      return { ok: true };
    }
    const key = yield* readIdentifier(reader);
    if (key === "") return { ok: false, end: false, message: "expected a keyword argument" };
    yield* reader.space();
    const eq = yield* reader.peekChar();
    if (eq === null) return { ok: false, end: true, message: "the text ends inside a call" };
    if (eq !== "=") return { ok: false, end: false, message: "positional arguments are not supported" };
    reader.consume(1);
    const value = yield* readPythonValue(reader, 0, repairs);
    if (value.status === "end") return { ok: false, end: true, message: "the text ends inside a call" };
    if (value.status === "invalid")
      return { ok: false, end: false, message: value.message, code: value.code };
    args.addValue(key, value.value);
    yield* reader.space();
    const after = yield* reader.peekChar();
    if (after === ",") reader.consume(1);
    else if (after !== ")") return { ok: false, end: after === null, message: "expected , or )" };
  }
}

/**
 * One `NAME(k=v, …)` whose name and `(` are already read (recorded since the name began); returns whether it
 * completed. A call that fails goes back to content, `head` first. OLMo 3's newline-separated calls share it.
 */
export function* readPythonCall(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  channel: Channel,
  name: string,
  head: string,
): Step<boolean> {
  out.start(name, context.createId(out.index, name), channel);
  context.checkName(name, out);
  const args = new TextArguments(name, context, out);
  const repairs: PythonRepairs = { setAsList: 0, lineBreaks: 0 };
  const read = yield* readKeywordArguments(reader, args, repairs);
  if (!read.ok) {
    const raw = head + reader.takeRecord();
    const code = read.end ? "call_truncated" : (read.code ?? "call_invalid");
    out.abort({ code, severity: "error", message: read.message, raw }, raw, channel);
    return false;
  }
  reader.takeRecord();
  // Recorded only now: a cut call goes back to content whole, repaired in nothing.
  if (repairs.setAsList > 0)
    out.issue({
      code: "set_as_list",
      severity: "warning",
      message: "a Python set is read as the list of its items, in the order written (JSON has no set)",
      tool: name,
    });
  if (repairs.lineBreaks > 0)
    out.issue({
      code: "string_line_break",
      severity: "warning",
      message: "a raw line break inside a Python string is read as a line break (Python refuses it)",
      tool: name,
    });
  out.end(args.finish());
  return true;
}

/**
 * `[f(a=1), g(b='x')]` (the reader is at `[`). The list is a call list once `[` is followed by a name and `(`;
 * before that it may be content (a Markdown link), and is held until it is known.
 */
export function* readPythonicList(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  channel: Channel,
  prefix: string,
): Step<void> {
  let pending = prefix + reader.consume(1);
  for (let first = true; ; first = false) {
    pending += yield* reader.space();
    reader.record();
    const name = yield* readCallName(reader);
    yield* reader.space();
    const open = yield* reader.peekChar();
    if (name === "" || name.endsWith(".") || open !== "(") {
      const raw = pending + reader.takeRecord();
      if (first) {
        // Not a call list (a Markdown link, a JSON array): content.
        out.text(channel, raw);
        return;
      }
      if (name === "" && open === "]") {
        reader.consume(1); // a trailing comma
        return;
      }
      out.issue({ code: "call_invalid", severity: "error", message: "expected a call in the list", raw });
      out.text(channel, raw);
      return;
    }
    reader.consume(1);
    const head = pending;
    pending = "";
    if (!(yield* readPythonCall(reader, out, context, channel, name, head))) return;
    const next = yield* listNext(reader, out, channel);
    if (!next.more) return;
    pending = next.pending;
  }
}

/** After `<|python_tag|>`: JSON calls, a built-in `NAME.call(k=v)`, or code for the code interpreter. */
function* readPythonTag(reader: Reader, out: Output, context: FamilyContext, channel: Channel): Step<void> {
  const space = yield* reader.space();
  const first = yield* reader.peekChar();
  if (first === "{")
    return yield* readJsonCalls(reader, out, context, channel, LLAMA_PYTHON_TAG + space, true);
  reader.record();
  const name = yield* readIdentifier(reader);
  if (name !== "" && (yield* reader.peek(CALL_METHOD)) !== null) {
    reader.consume(".call(".length);
    yield* readPythonCall(reader, out, context, channel, name, LLAMA_PYTHON_TAG + space);
    return;
  }
  // Code for the code interpreter, up to a stop token or the end: a `python` call, as llama.cpp reads it.
  const parts = [reader.takeRecord()];
  const stop = yield* reader.until(STOP, (text) => parts.push(text));
  const code = parts.join("");
  if (code.trim() === "") out.text(channel, LLAMA_PYTHON_TAG + space + code);
  else {
    out.start("python", context.createId(out.index, "python"), channel);
    out.end(pythonJsonText({ code }));
  }
  if (stop !== null) out.text(channel, stop);
}

/**
 * Encodes a call as the Llama 3.1 / 3.2 / 3.3 templates render it: `{"name": "NAME", "parameters": ARGS}` (the
 * templates render one call per message and raise on more; more are joined by `; `, the convention fine-tunes use).
 *
 * @example
 * encodeLlama3Json([{ function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } }]);
 * // '{"name": "get_weather", "parameters": {"city": "Tokyo"}}'
 */
export function encodeLlama3Json(calls: readonly EncodableToolCall[]): string {
  return calls
    .map((call) => `{"name": "${call.function.name}", "parameters": ${argumentsJson(call)}}`)
    .join("; ");
}

/**
 * Encodes calls in the pythonic form of Llama 3.2 / Llama 4: `[NAME(k=v, …), …]`, values as Python's `repr`.
 *
 * @example
 * encodeLlamaPythonic([{ function: { name: "get_weather", arguments: '{"city":"Tokyo","days":3}' } }]);
 * // "[get_weather(city='Tokyo', days=3)]"
 */
export function encodeLlamaPythonic(calls: readonly EncodableToolCall[]): string {
  const items = calls.map((call) => {
    const args = Object.entries(argumentsMapping(call)).map(([k, v]) => `${k}=${pyRepr(toPython(v))}`);
    return `${call.function.name}(${args.join(", ")})`;
  });
  return `[${items.join(", ")}]`;
}

/**
 * Llama 3.1 / 3.2 / 3.3 JSON calls: `{"name": …, "parameters": {…}}` (also `"arguments"`, and a leading
 * `"type": "function"`), optionally after `<|python_tag|>` or inside Llama 4's `<|python_start|>…<|python_end|>`,
 * several separated by `;`; built-in tools as
 * `<|python_tag|>brave_search.call(query="…")`.
 *
 * Rules: without `<|python_tag|>` a call is read only at the very start of the text, and only once its arguments
 * key begins (prose can hold `{"name": "Alice"}`); after `<|python_tag|>`, JSON calls, a built-in call (keyword
 * arguments as Python literals) or code for the code interpreter (a `python` call with `{"code": …}`, as llama.cpp
 * reads it); argument bytes are kept.
 *
 * @example
 * llama3Json.parse('{"name": "get_weather", "parameters": {"city": "Tokyo"}}').toolCalls[0].function;
 * // { name: "get_weather", arguments: '{"city": "Tokyo"}' }
 */
export const llama3Json: ToolCallSyntax = defineSyntax({
  id: "llama3-json",
  name: 'Llama 3.x JSON ({"name", "parameters"}, <|python_tag|>)',
  startMarkers: [LLAMA_PYTHON_TAG, LLAMA_PYTHON_START, "{"],
  // Both markers begin `<|python_`: text without it holds neither.
  plain: plainCheck("<|python_", ["{"]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [LLAMA_PYTHON_TAG, LLAMA_PYTHON_START],
      *atStart() {
        out.text("content", yield* reader.space());
        reader.journalCommit();
        if ((yield* reader.peekChar()) === "{")
          yield* readJsonCalls(reader, out, context, "content", "", false);
      },
      *onCall(marker, channel) {
        if (marker === LLAMA_PYTHON_TAG) return yield* readPythonTag(reader, out, context, channel);
        // Llama 4 writes a JSON call inside `<|python_start|>…<|python_end|>` too (seen from served models).
        const space = yield* reader.space();
        if ((yield* reader.peekChar()) !== "{") {
          out.text(channel, marker + space);
          return;
        }
        yield* readJsonCalls(reader, out, context, channel, marker + space, true);
        const after = yield* reader.space();
        const end = yield* reader.peek(PYTHON_END);
        if (end !== null) reader.consume(end.length);
        else {
          out.text(channel, after);
          out.issue({
            code: "call_unclosed",
            severity: "info",
            message: `${LLAMA_PYTHON_END} is missing after the calls`,
          });
        }
      },
    });
  },
  encode: encodeLlama3Json,
});

/**
 * Llama 3.2 / Llama 4 pythonic calls: `[get_weather(city='Tokyo'), get_time(tz='JST')]`, at the start of the text or
 * inside `<|python_start|>…<|python_end|>`.
 *
 * Rules: keyword arguments only; values are Python literals (what `ast.literal_eval` reads, plus JSON's
 * `true`/`false`/`null`), tuples become lists, numbers keep their digits and a number a double cannot hold stays
 * text; a `[` not followed by `NAME(` is content (a Markdown link); each argument is passed on as soon as it is read.
 *
 * @example
 * llamaPythonic.parse("[get_weather(city='San Francisco', metric='celsius')]").toolCalls[0].function.arguments;
 * // '{"city": "San Francisco", "metric": "celsius"}'
 */
export const llamaPythonic: ToolCallSyntax = defineSyntax({
  id: "llama-pythonic",
  name: "Llama 3.2 / 4 pythonic ([f(a=1), …])",
  startMarkers: [LLAMA_PYTHON_START, "["],
  plain: plainCheck(LLAMA_PYTHON_START, ["["]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [LLAMA_PYTHON_START],
      *atStart() {
        out.text("content", yield* reader.space());
        reader.journalCommit();
        if ((yield* reader.peekChar()) === "[") yield* readPythonicList(reader, out, context, "content", "");
      },
      *onCall(marker, channel) {
        const space = yield* reader.space();
        if ((yield* reader.peekChar()) !== "[") {
          out.text(channel, marker + space);
          return;
        }
        yield* readPythonicList(reader, out, context, channel, marker + space);
        yield* reader.space();
        const end = yield* reader.peek(PYTHON_END);
        if (end !== null) reader.consume(end.length);
      },
    });
  },
  encode: encodeLlamaPythonic,
});
