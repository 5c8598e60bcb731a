import type { EncodableToolCall, SyntaxIssue, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsMapping, pythonJsonText } from "../engine/arguments.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import { readValue, valueUnclosed } from "../engine/read-value.js";
import type { Reader, Step } from "../engine/reader.js";
import { TextArguments } from "../engine/text-arguments.js";
import { plainCheck, type ReasoningSyntax, textLoop } from "../engine/text-loop.js";
import { isToolName, jsonCallOf } from "../engine/tool-name.js";

export const GLM_CALL_OPEN = "<tool_call>";
export const GLM_CALL_CLOSE = "</tool_call>";
export const GLM_KEY_OPEN = "<arg_key>";
export const GLM_KEY_CLOSE = "</arg_key>";
export const GLM_VALUE_OPEN = "<arg_value>";
export const GLM_VALUE_CLOSE = "</arg_value>";

const NAME_END = new MarkerSet(["\n", GLM_KEY_OPEN, GLM_CALL_CLOSE]);
/** A name followed by escaped newlines (a literal backslash and `n`, or `r` then `n`), and nothing else. */
const ESCAPED_NEWLINES_AFTER_NAME = /^([^\s\\]+?)(?:\\r)?(?:\\n)+$/;
const KEY_CLOSE = new MarkerSet([GLM_KEY_CLOSE]);
/**
 * A value runs to its `</arg_value>` followed by the next key, the call's end or the end of the text; one that runs
 * into `<arg_key>` or `</tool_call>` first lost its `</arg_value>` (GLM under load) and ends there (`value_unclosed`).
 */
const VALUE_STOPS = new MarkerSet([GLM_VALUE_CLOSE, GLM_KEY_OPEN, GLM_CALL_CLOSE]);
const VALUE_CLOSE = new MarkerSet([GLM_VALUE_CLOSE]);

/** The tags a call reads between its pairs; in an output escaped once more, each may follow a literal `\n`. */
interface CallTags {
  inCall: MarkerSet;
  valueOpen: MarkerSet;
  value: { closer: MarkerSet; followers: MarkerSet; stops: MarkerSet };
}

function callTags(escapes: readonly string[]): CallTags {
  const withEscapes = (tags: readonly string[]) =>
    new MarkerSet([...tags, ...escapes.flatMap((lead) => tags.map((tag) => lead + tag))]);
  const inCall = withEscapes([GLM_KEY_OPEN, GLM_CALL_CLOSE]);
  return {
    inCall,
    valueOpen: withEscapes([GLM_VALUE_OPEN]),
    value: { closer: VALUE_CLOSE, followers: inCall, stops: VALUE_STOPS },
  };
}

const PLAIN_TAGS = callTags([]);
const ESCAPED_TAGS = callTags(["\\n", "\\r\\n"]);

/** A tag as read, without the escaped newline before it. */
function tagOf(marker: string): string {
  return marker.slice(marker.indexOf("<"));
}

interface GlmLayout {
  /** Written before each call (GLM-4.5/4.6: `\n`). */
  beforeCall: string;
  reasoning: ReasoningSyntax;
}

function* readCall(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  layout: GlmLayout,
  marker: string,
  channel: Channel,
): Step<void> {
  reader.record();
  const fail = (code: "call_invalid" | "call_truncated" | "call_name_invalid", message: string) => {
    const raw = marker + reader.takeRecord();
    const issue: SyntaxIssue = { code, severity: "error", message, path: [], raw };
    out.abort(issue, raw, channel);
  };
  const nameParts: string[] = [];
  const after = yield* reader.until(NAME_END, (text) => nameParts.push(text));
  let name = nameParts.join("").trim();
  if (after === null) return fail("call_truncated", "the text ends inside a tool call");
  const unescaped = after === "\n" ? undefined : ESCAPED_NEWLINES_AFTER_NAME.exec(name)?.[1];
  let tags = PLAIN_TAGS;
  if (unescaped !== undefined && isToolName(unescaped)) {
    tags = ESCAPED_TAGS;
    // The newline GLM-4.5 writes after the name, escaped with the rest of an output escaped once more (SGLang's
    // GLM-4.5 detector reads it): no tool name holds a backslash, so the name before it is the one reading.
    out.issue({
      code: "separator_escaped",
      severity: "warning",
      message: `${JSON.stringify(name.slice(unescaped.length))} after the tool name read as a newline`,
      tool: unescaped,
    });
    name = unescaped;
  }
  if (name === "" || name.includes("<")) return fail("call_invalid", "a tool call without a name");
  if (!isToolName(name)) {
    if (after === GLM_CALL_CLOSE && name.startsWith("{")) {
      // A JSON call inside GLM's tags (a model trained on Hermes data): one reading, and only when it is whole.
      const call = jsonCallOf(name);
      if (call !== undefined) {
        reader.takeRecord();
        out.start(call.name, context.createId(out.index, call.name), channel, layout.beforeCall);
        out.issue({
          code: "call_json_form",
          severity: "warning",
          message: `a JSON call object inside ${GLM_CALL_OPEN}: read as a call`,
          tool: call.name,
        });
        context.checkName(call.name, out);
        out.end(call.arguments);
        return;
      }
    }
    // `multiply a=1 b=2`: no one reading of the arguments, so no call.
    return fail("call_name_invalid", `${JSON.stringify(name)} is not a tool name`);
  }
  out.start(name, context.createId(out.index, name), channel, layout.beforeCall);
  context.checkName(name, out);
  const args = new TextArguments(name, context, out);
  let next: string | null = after === "\n" ? null : after;
  for (;;) {
    if (next === null) {
      yield* reader.space();
      next = yield* reader.peek(tags.inCall);
      if (next === null) {
        if (reader.exhausted) {
          // The last pair was complete and the text ends: a call without its closing tag.
          out.issue({
            code: "call_unclosed",
            severity: "info",
            message: `${GLM_CALL_CLOSE} is missing`,
            tool: name,
          });
          reader.takeRecord();
          out.end(args.finish());
          return;
        }
        return fail("call_invalid", `expected ${GLM_KEY_OPEN} or ${GLM_CALL_CLOSE}`);
      }
      reader.consume(next.length);
    }
    if (tagOf(next) === GLM_CALL_CLOSE) {
      reader.takeRecord();
      out.end(args.finish());
      return;
    }
    // A key, then its value.
    const keyParts: string[] = [];
    if ((yield* reader.until(KEY_CLOSE, (text) => keyParts.push(text))) === null)
      return fail("call_truncated", "the text ends inside a tool call");
    const key = keyParts.join("").trim();
    yield* reader.space();
    const opened = yield* reader.peek(tags.valueOpen);
    if (opened !== null) reader.consume(opened.length);
    else {
      if ((yield* reader.peek(tags.inCall)) !== null) {
        out.issue({
          code: "value_missing",
          severity: "warning",
          message: `${JSON.stringify(key)} has no ${GLM_VALUE_OPEN}: read as an empty value`,
          tool: name,
          parameter: key,
        });
        args.addText(key, "");
        next = null;
        continue;
      }
      // GLM-4.7 under load drops the opening tag (vLLM #49248): the value runs to </arg_value>.
      out.issue({
        code: "value_unopened",
        severity: "warning",
        message: `${GLM_VALUE_OPEN} is missing; the value runs to ${GLM_VALUE_CLOSE}`,
        tool: name,
        parameter: key,
      });
    }
    const value = yield* readValue(reader, tags.value);
    if (value.status === "end") return fail("call_truncated", "the text ends inside a tool call");
    if (value.unclosed) valueUnclosed(out, { tool: name, parameter: key, closer: GLM_VALUE_CLOSE });
    args.addText(key, value.text);
    next = null;
  }
}

function createGlm(options: {
  id: string;
  name: string;
  layout: GlmLayout;
  encode: (calls: readonly EncodableToolCall[]) => string;
}): ToolCallSyntax {
  const { layout } = options;
  return defineSyntax({
    id: options.id,
    name: options.name,
    startMarkers: [GLM_CALL_OPEN],
    plain: plainCheck(GLM_CALL_OPEN, ["<think>"]),
    *run(reader, out, context) {
      yield* textLoop(reader, out, context, {
        callMarkers: [GLM_CALL_OPEN],
        reasoning: layout.reasoning,
        onCall: (marker, channel) => readCall(reader, out, context, layout, marker, channel),
      });
    },
    encode: options.encode,
  });
}

/** A value as GLM's template writes it: strings as they are, anything else as `tojson(ensure_ascii=False)`. */
function glmValue(value: unknown): string {
  return typeof value === "string" ? value : pythonJsonText(value);
}

/**
 * Encodes calls as the GLM-4.5 / 4.6 template renders them: `\n<tool_call>NAME\n` and, per argument,
 * `<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n`, then `</tool_call>`.
 *
 * @example
 * encodeGlm45([{ function: { name: "get_weather", arguments: '{"city": "Tokyo", "days": 3}' } }]);
 * // "\n<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Tokyo</arg_value>\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>"
 */
export function encodeGlm45(calls: readonly EncodableToolCall[]): string {
  return calls
    .map((call) => {
      const pairs = Object.entries(argumentsMapping(call))
        .map(
          ([k, v]) =>
            `${GLM_KEY_OPEN}${k}${GLM_KEY_CLOSE}\n${GLM_VALUE_OPEN}${glmValue(v)}${GLM_VALUE_CLOSE}\n`,
        )
        .join("");
      return `\n${GLM_CALL_OPEN}${call.function.name}\n${pairs}${GLM_CALL_CLOSE}`;
    })
    .join("");
}

/**
 * Encodes calls as the GLM-4.7 / GLM-5 templates render them: `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>…</tool_call>`.
 *
 * @example
 * encodeGlm47([{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }]);
 * // "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Tokyo</arg_value></tool_call>"
 */
export function encodeGlm47(calls: readonly EncodableToolCall[]): string {
  return calls
    .map((call) => {
      const pairs = Object.entries(argumentsMapping(call))
        .map(
          ([k, v]) => `${GLM_KEY_OPEN}${k}${GLM_KEY_CLOSE}${GLM_VALUE_OPEN}${glmValue(v)}${GLM_VALUE_CLOSE}`,
        )
        .join("");
      return `${GLM_CALL_OPEN}${call.function.name}${pairs}${GLM_CALL_CLOSE}`;
    })
    .join("");
}

/**
 * GLM-4.5 / 4.6 / 4.6V: `<tool_call>NAME\n<arg_key>K</arg_key>\n<arg_value>V</arg_value>\n…</tool_call>`, reasoning
 * `<think>…</think>`, a newline before each call and around the reasoning block.
 *
 * Rules: each value is text typed by the tool's JSON Schema (core's `convertParameterValue`; without a schema it
 * stays text); a value ends at the first `</arg_value>` followed by `<arg_key>`, `</tool_call>` or the end of the
 * text (another `</arg_value>` is part of it); a missing `<arg_value>` makes the value run to `</arg_value>`
 * (`value_unopened`); a key with no value reads as `""` (`value_missing`); a zero-argument call is `{}`. The name
 * ends at a newline, `<arg_key>` or `</tool_call>`, so the GLM-4.7 form is read too.
 *
 * @example
 * glm45.parse("<tool_call>get_weather\n<arg_key>days</arg_key>\n<arg_value>3</arg_value>\n</tool_call>", { tools }).toolCalls[0].function.arguments;
 * // '{"days": 3}' with a tool whose `days` is an integer, '{"days": "3"}' without tools
 */
export const glm45: ToolCallSyntax = createGlm({
  id: "glm45",
  name: "GLM-4.5 / 4.6 (<arg_key>/<arg_value>, newlines)",
  layout: {
    beforeCall: "\n",
    reasoning: { open: "<think>", close: "</think>", lead: "", trail: "", after: "\n", before: "\n" },
  },
  encode: encodeGlm45,
});

/**
 * GLM-4.7 / GLM-5: `<tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>…</tool_call>` with no newlines; the
 * generation prompt opens `<think>` (pass `startInReasoning: true`). Same rules as {@link glm45}.
 *
 * @example
 * glm47.parse("I should check.</think><tool_call>get_weather<arg_key>city</arg_key><arg_value>Tokyo</arg_value></tool_call>", { startInReasoning: true });
 * // { reasoning: "I should check.", content: null, toolCalls: [{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' }, … }], issues: [] }
 */
export const glm47: ToolCallSyntax = createGlm({
  id: "glm47",
  name: "GLM-4.7 / GLM-5 (<arg_key>/<arg_value>, no newlines)",
  layout: {
    beforeCall: "",
    reasoning: { open: "<think>", close: "</think>", lead: "", trail: "", after: "", before: "" },
  },
  encode: encodeGlm47,
});
