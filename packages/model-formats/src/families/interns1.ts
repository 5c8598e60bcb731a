import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsJson } from "../engine/arguments.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { type JsonBlockSyntax, readJsonBlock } from "../engine/json-block.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import type { Reader, Step } from "../engine/reader.js";
import { plainCheck, THINK, textLoop } from "../engine/text-loop.js";

/** Opens an action (a tool call, or code for the interpreter). */
export const INTERN_ACTION_START = "<|action_start|>";
/** Names the action's target: a common tool (the other target, `<|interpreter|>`, runs code). */
export const INTERN_PLUGIN = "<|plugin|>";
/** Closes an action. */
export const INTERN_ACTION_END = "<|action_end|>";
const CALL: JsonBlockSyntax = {
  argumentKeys: ["parameters", "arguments"],
  close: new MarkerSet([INTERN_ACTION_END]),
  unclosed: { closer: "the call's closing marker" },
};

/**
 * One action after `<|action_start|>`: `<|plugin|>` (white space around it allowed), a JSON object
 * `{"name": …, "parameters": {…}}`, then `<|action_end|>`. An action for another target (the code interpreter) is
 * content; a cut or malformed call goes back to content as written; a missing `<|action_end|>` at the end of the text
 * ends the call at its JSON (`call_unclosed`).
 */
function* readAction(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  marker: string,
  channel: Channel,
): Step<void> {
  reader.record();
  yield* reader.space();
  const plugin = yield* reader.prefixOf(INTERN_PLUGIN);
  const atEnd = reader.exhausted;
  if (plugin < INTERN_PLUGIN.length) {
    const raw = marker + reader.takeRecord();
    if (atEnd)
      out.abort(
        { code: "call_truncated", severity: "error", message: "the text ends inside a tool call", raw },
        raw,
        channel,
      );
    else out.text(channel, raw);
    return;
  }
  yield* readJsonBlock(reader, out, context, { ...CALL, marker, channel, recorded: true });
}

/**
 * Encodes calls as InternLM2 and Intern-S1 write them: per call
 * `<|action_start|><|plugin|>\n{"name": "NAME", "parameters": ARGS}<|action_end|>`, the arguments as `json.dumps`
 * writes them.
 *
 * @example
 * encodeInternS1([{ function: { name: "get_weather", arguments: '{"city":"Shanghai"}' } }]);
 * // '<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": {"city": "Shanghai"}}<|action_end|>'
 */
export function encodeInternS1(calls: readonly EncodableToolCall[]): string {
  return calls
    .map(
      (call) =>
        `${INTERN_ACTION_START}${INTERN_PLUGIN}\n{"name": "${call.function.name}", "parameters": ${argumentsJson(call)}}${INTERN_ACTION_END}`,
    )
    .join("");
}

/**
 * Shanghai AI Lab Intern-S1 / Intern-S1-mini (and InternLM2 / 2.5, whose format it keeps):
 * `<|action_start|><|plugin|>\n{"name": …, "parameters": {…}}<|action_end|>`, reasoning in `<think>…</think>`
 * (opened by the generation prompt in thinking mode: pass `startInReasoning: true`).
 *
 * Rules: the call object needs `name` and `parameters` (or `arguments`; other keys are reported, never read as `{}`),
 * and keeps the model's bytes; white space around `<|plugin|>` is the model's; several actions are several calls; an
 * action for the code interpreter (`<|action_start|><|interpreter|>`) is content; a missing `<|action_end|>` at the
 * end of the text ends the call at its JSON (`call_unclosed`); a call cut short or invalid stays in content as written.
 *
 * @example
 * internS1.parse('<think>\nThe user wants the weather.\n</think>\n\nSure.<|action_start|><|plugin|>\n{"name": "get_weather", "parameters": {"city": "Shanghai"}}<|action_end|>').content;
 * // "Sure."
 */
export const internS1: ToolCallSyntax = defineSyntax({
  id: "interns1",
  name: "Intern-S1 / InternLM2 (<|action_start|><|plugin|> JSON)",
  startMarkers: [INTERN_ACTION_START],
  plain: plainCheck(INTERN_ACTION_START, [THINK.open]),
  *run(reader, out, context) {
    yield* textLoop(reader, out, context, {
      callMarkers: [INTERN_ACTION_START],
      reasoning: THINK,
      onCall: (marker, channel) => readAction(reader, out, context, marker, channel),
    });
  },
  encode: encodeInternS1,
});
