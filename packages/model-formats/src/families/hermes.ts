import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsJson } from "../engine/arguments.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { type JsonBlockSyntax, readJsonBlock } from "../engine/json-block.js";
import { jsonCallFailure, readJsonCall } from "../engine/json-call.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Output } from "../engine/output.js";
import type { Reader, Step } from "../engine/reader.js";
import { plainCheck, type ReasoningSyntax, THINK, textLoop } from "../engine/text-loop.js";

export const HERMES_CALL_OPEN = "<tool_call>";
export const HERMES_CALL_CLOSE = "</tool_call>";
const ARGUMENT_KEYS = ["arguments", "parameters"];

/**
 * The tags around a JSON call object (Hermes' `<tool_call>`, LongCat's `<longcat_tool_call>`) as the engine's JSON
 * block reader takes them, with the opener and the closer's name for the unopened call.
 */
interface CallTags extends JsonBlockSyntax {
  open: string;
  closer: string;
  /** What the template writes before a call (`\n` for Hermes; LongCat writes calls right after the content). */
  separator: string;
}

function tagsOf(family: { open: string; close: string; separator: string }): CallTags {
  return {
    open: family.open,
    closer: family.close,
    close: new MarkerSet([family.close]),
    separator: family.separator,
    argumentKeys: ARGUMENT_KEYS,
    unclosed: { closer: family.close },
  };
}

/**
 * A call whose opening tag is missing: the text starts (after whitespace) with a JSON call object followed by
 * `</tool_call>` (a prompt that ended in `<tool_call>`, or a server that dropped the token). Anything else that
 * starts with `{` is content (with `arguments_key_unknown` when the closer follows a call object whose arguments
 * sit under an unknown key).
 */
function* readUnopened(reader: Reader, out: Output, context: FamilyContext, tags: CallTags): Step<void> {
  out.text("content", yield* reader.space());
  reader.journalCommit();
  if ((yield* reader.peekChar()) !== "{") return;
  reader.record();
  const result = yield* readJsonCall(reader, out, context, {
    channel: "content",
    separator: tags.separator,
    argumentKeys: tags.argumentKeys,
    deferStart: true,
  });
  if (result.status === "complete") {
    yield* reader.space();
    const close = yield* reader.peek(tags.close);
    if (close !== null) {
      reader.consume(close.length);
      reader.takeRecord();
      out.issue({
        code: "call_unopened",
        severity: "warning",
        message: `${tags.open} is missing before a JSON call followed by ${tags.closer}: read as a call`,
        tool: result.name,
      });
      out.start(
        result.name,
        result.id || context.createId(out.index, result.name),
        "content",
        tags.separator,
      );
      context.checkName(result.name, out);
      out.end(result.arguments);
      return;
    }
    out.text("content", reader.takeRecord());
    return;
  }
  if (result.status === "unknown_key") {
    // Followed by its closer, it is the call the tags would have held: the same issue, the text kept as written.
    yield* reader.space();
    const close = yield* reader.peek(tags.close);
    if (close !== null) {
      reader.consume(close.length);
      const raw = reader.takeRecord();
      out.issue({ ...jsonCallFailure(result, raw), tool: result.name });
      out.text("content", raw);
      return;
    }
  }
  out.text("content", reader.takeRecord());
}

/**
 * A family that writes Hermes' JSON call object between tags of its own (LongCat's `<longcat_tool_call>`): Hermes'
 * reader, every rule of it, with the family's tags, reasoning and encoder.
 *
 * @example
 * const tagged = defineTaggedJsonSyntax({ id: "x", name: "X", open: "<call>", close: "</call>", separator: "", reasoning: THINK, encode: encodeHermes });
 * tagged.parse('<call>{"name": "f", "arguments": {}}</call>').toolCalls.length; // 1
 */
export function defineTaggedJsonSyntax(family: {
  id: string;
  name: string;
  open: string;
  close: string;
  /** What the template writes before a call (dropped as syntax once the call is read). */
  separator: string;
  reasoning: ReasoningSyntax;
  encode: (calls: readonly EncodableToolCall[]) => string;
}): ToolCallSyntax {
  const tags = tagsOf(family);
  return defineSyntax({
    id: family.id,
    name: family.name,
    startMarkers: [family.open],
    plain: plainCheck(family.open, [family.reasoning.open, "{"]),
    *run(reader, out, context) {
      yield* textLoop(reader, out, context, {
        callMarkers: [family.open],
        reasoning: family.reasoning,
        atStart: () => readUnopened(reader, out, context, tags),
        onCall: (marker, channel) => readJsonBlock(reader, out, context, { ...tags, marker, channel }),
      });
    },
    encode: family.encode,
  });
}

/**
 * Encodes calls as Qwen2.5, QwQ, Qwen3 and Hermes 2/3 templates render them: each call
 * `<tool_call>\n{"name": "NAME", "arguments": ARGS}\n</tool_call>` with the arguments as `tojson` writes a mapping
 * (Python's `json.dumps`), calls joined by a newline.
 *
 * @example
 * encodeHermes([{ function: { name: "get_weather", arguments: '{"city":"Paris"}' } }]);
 * // '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'
 */
export function encodeHermes(calls: readonly EncodableToolCall[]): string {
  return calls
    .map(
      (call) =>
        `${HERMES_CALL_OPEN}\n{"name": "${call.function.name}", "arguments": ${argumentsJson(call)}}\n${HERMES_CALL_CLOSE}`,
    )
    .join("\n");
}

/**
 * Hermes, Qwen2.5, QwQ and Qwen3 (and the ShareGPT / glaive / Hermes function-calling datasets):
 * `<tool_call>\n{"name": …, "arguments": {…}}\n</tool_call>`, reasoning in `<think>…</think>`.
 *
 * Rules: the arguments object keeps the model's bytes (core's wire text); `"arguments"` written as a string of
 * JSON is unwrapped once, `null` or none is `{}`; a call without a name, or whose JSON is invalid, stays in content
 * (`call_invalid`); text that ends inside a call stays in content (`call_truncated`); a missing `</tool_call>` ends
 * the call at its JSON (`call_unclosed`); a JSON call followed by `</tool_call>` at the very start is a call whose
 * `<tool_call>` is missing (`call_unopened`). A `</tool_call>` inside a JSON string is data.
 *
 * @example
 * hermes.parse('Let me check.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>');
 * // { content: "Let me check.", reasoning: null, issues: [],
 * //   toolCalls: [{ id: "call_…", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } }] }
 */
export const hermes: ToolCallSyntax = defineTaggedJsonSyntax({
  id: "hermes",
  name: "Hermes / Qwen2.5 / QwQ / Qwen3 (<tool_call> JSON)",
  open: HERMES_CALL_OPEN,
  close: HERMES_CALL_CLOSE,
  separator: "\n",
  reasoning: THINK,
  encode: encodeHermes,
});
