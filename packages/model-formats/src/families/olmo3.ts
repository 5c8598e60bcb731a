import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsMapping, pythonJsonText } from "../engine/arguments.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import { readCallName } from "../engine/python-values.js";
import type { Reader, Step } from "../engine/reader.js";
import { BARE_THINK, plainCheck, textLoop } from "../engine/text-loop.js";
import { readPythonCall } from "./llama.js";

export const OLMO3_CALLS_OPEN = "<function_calls>";
export const OLMO3_CALLS_CLOSE = "</function_calls>";
const CLOSE = new MarkerSet([OLMO3_CALLS_CLOSE]);
/** Where a malformed call's line ends: the next line holds the next call. */
const LINE_END = new MarkerSet(["\n", OLMO3_CALLS_CLOSE]);

/**
 * The calls after `<function_calls>`: one `NAME(k=v, …)` per line (Python literals, JSON's `true`/`false`/`null`
 * too), up to `</function_calls>`. A call that does not read goes back to content as written, up to the end of its
 * line, and the next line is read (one bad call never drops its siblings, as vLLM's OLMo 3 parser keeps them).
 */
function* readCalls(reader: Reader, out: Output, context: FamilyContext, channel: Channel): Step<void> {
  const before = out.index;
  let pending = OLMO3_CALLS_OPEN;
  for (;;) {
    pending += yield* reader.space();
    const close = yield* reader.peek(CLOSE);
    if (close !== null) {
      reader.consume(close.length);
      // A block in which no call was read is text, its end too.
      if (out.index === before) out.text(channel, pending + close);
      return;
    }
    if ((yield* reader.peekChar()) === null) {
      out.text(channel, pending);
      if (out.index > before)
        out.issue({ code: "call_unclosed", severity: "info", message: `${OLMO3_CALLS_CLOSE} is missing` });
      return;
    }
    reader.record();
    const name = yield* readCallName(reader);
    const space = yield* reader.space();
    const open = yield* reader.peekChar();
    if (name !== "" && !name.endsWith(".") && open === "(") {
      reader.consume(1);
      const head = pending;
      pending = "";
      if (yield* readPythonCall(reader, out, context, channel, name, head)) continue;
    } else {
      const raw = pending + reader.takeRecord();
      pending = "";
      if (open === null && name + space !== "") {
        // The text ends inside a call's name: nothing to read, the text is content.
        out.issue({ code: "call_truncated", severity: "error", message: "the text ends inside a call", raw });
        out.text(channel, raw);
        return;
      }
      out.issue({ code: "call_invalid", severity: "error", message: "expected NAME( on the line", raw });
      out.text(channel, raw);
    }
    // The rest of a malformed line is content; the next line may hold a call.
    if ((yield* reader.before(LINE_END, (text) => out.text(channel, text))) === null) return;
  }
}

/**
 * Encodes calls as AllenAI OLMo 3's template renders them: `<function_calls>NAME(k=v, …)\nNAME(…)</function_calls>`,
 * each value as `tojson` writes it (`"Tokyo"`, `true`, `{"a": 1}`).
 *
 * @example
 * encodeOlmo3([{ function: { name: "get_weather", arguments: '{"city": "Tokyo", "days": 3}' } }]);
 * // '<function_calls>get_weather(city="Tokyo", days=3)</function_calls>'
 */
export function encodeOlmo3(calls: readonly EncodableToolCall[]): string {
  const lines = calls.map((call) => {
    const args = Object.entries(argumentsMapping(call)).map(
      ([key, value]) => `${key}=${pythonJsonText(value)}`,
    );
    return `${call.function.name}(${args.join(", ")})`;
  });
  return `${OLMO3_CALLS_OPEN}${lines.join("\n")}${OLMO3_CALLS_CLOSE}`;
}

/**
 * AllenAI OLMo 3: `<function_calls>get_weather(city="Tokyo")\nget_time(tz="JST")</function_calls>` (pythonic calls,
 * one per line, as vLLM's `olmo3` parser reads them), reasoning in `<think>…</think>` where the model writes it.
 *
 * Rules: keyword arguments only, values read as Python literals or JSON (`true`/`false`/`null`, which the template's
 * `tojson` writes; Llama's pythonic reader, shared); each argument is passed on once read; a call that does not read
 * (`b'z'`, positional arguments, a bracket out of place) goes back to content up to the end of its line
 * (`call_invalid`) and the calls on the other lines are read; a call cut short stays in content (`call_truncated`); a
 * missing `</function_calls>` after whole calls keeps them (`call_unclosed`); a block with no call stays in content.
 *
 * @example
 * olmo3.parse('<function_calls>get_weather(city="Tokyo")\nget_time(tz="JST")</function_calls>').toolCalls.map((c) => c.function.name);
 * // ["get_weather", "get_time"]
 */
export const olmo3: ToolCallSyntax = defineSyntax({
  id: "olmo3",
  name: "AllenAI OLMo 3 (<function_calls>f(a=1)\\ng(b=2)</function_calls>)",
  startMarkers: [OLMO3_CALLS_OPEN],
  plain: plainCheck(OLMO3_CALLS_OPEN, [BARE_THINK.open]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [OLMO3_CALLS_OPEN],
      reasoning: BARE_THINK,
      onCall: (_marker, channel) => readCalls(reader, out, context, channel),
    });
  },
  encode: encodeOlmo3,
});
