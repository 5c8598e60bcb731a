import type { EncodableToolCall, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsJson, pythonJsonText } from "../engine/arguments.js";
import { readCallList, readUnopenedList } from "../engine/call-list.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { readJsonArguments } from "../engine/json-arguments.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Channel, Output } from "../engine/output.js";
import type { Reader, Step } from "../engine/reader.js";
import { plainCheck, type ReasoningSyntax, textLoop } from "../engine/text-loop.js";

export const MISTRAL_TOOL_CALLS = "[TOOL_CALLS]";
export const MISTRAL_ARGS = "[ARGS]";
export const MISTRAL_CALL_ID = "[CALL_ID]";
const AFTER_NAME = new MarkerSet([MISTRAL_ARGS, MISTRAL_CALL_ID]);
const ARGS = new MarkerSet([MISTRAL_ARGS]);
const THINK: ReasoningSyntax = {
  open: "[THINK]",
  close: "[/THINK]",
  lead: "",
  trail: "",
  after: "",
  before: "",
};
const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/**
 * A Mistral tool call id: 9 letters and digits, what mistral-common's validator and Mistral's templates require.
 *
 * @example
 * mistralCallId(); // "a1B2c3D4e"
 */
export function mistralCallId(): string {
  const bytes = new Uint8Array(9);
  globalThis.crypto.getRandomValues(bytes);
  let id = "";
  for (const byte of bytes) id += ID_ALPHABET[byte % ID_ALPHABET.length];
  return id;
}

const ELEMENT_OPTIONS = { separator: "", argumentKeys: ["arguments", "parameters"], idKey: "id" } as const;

/** The v11+ form after `[TOOL_CALLS]`: `NAME[ARGS]{…}` or `NAME[CALL_ID]ID[ARGS]{…}` (or `NAME{…}`). */
function* readNamed(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  channel: Channel,
  prefix: string,
): Step<void> {
  reader.record();
  const fail = (code: "call_invalid" | "call_truncated", message: string) => {
    const raw = prefix + reader.takeRecord();
    out.abort({ code, severity: "error", message, raw }, raw, channel);
  };
  const truncated = () => fail("call_truncated", "the text ends inside a tool call");
  const name = (yield* reader.upTo("[{", 1024)).trim();
  let id: string | undefined;
  let marker = yield* reader.peek(AFTER_NAME);
  if (marker === MISTRAL_CALL_ID) {
    reader.consume(marker.length);
    id = (yield* reader.upTo("[", 1024)).trim();
    marker = yield* reader.peek(ARGS);
  }
  if (marker !== null) reader.consume(marker.length);
  else if ((yield* reader.peekChar()) !== "{") {
    if (reader.exhausted) return truncated();
    return fail("call_invalid", `expected ${MISTRAL_ARGS} after the name`);
  }
  if (name === "" || /[[\]{}\s]/.test(name)) return fail("call_invalid", "a tool call without a name");
  out.start(name, id || context.createId(out.index, name), channel);
  context.checkName(name, out);
  const args = yield* readJsonArguments(reader, out, { end: null, tool: name });
  if (args.status === "end") return truncated();
  if (args.status === "invalid") return fail("call_invalid", args.message);
  reader.takeRecord();
  out.end(args.text);
}

function* readCalls(reader: Reader, out: Output, context: FamilyContext, channel: Channel): Step<void> {
  // `[TOOL_CALLS] [` (Small 3.1) and `[TOOL_CALLS][` (Nemo) both start the list form.
  const prefix = MISTRAL_TOOL_CALLS + (yield* reader.space());
  if ((yield* reader.peekChar()) === "[")
    return yield* readCallList(reader, out, context, { channel, prefix, item: ELEMENT_OPTIONS });
  yield* readNamed(reader, out, context, channel, prefix);
}

function createMistral(options: {
  id: string;
  name: string;
  encode: (calls: readonly EncodableToolCall[]) => string;
}): ToolCallSyntax {
  return defineSyntax({
    id: options.id,
    name: options.name,
    startMarkers: [MISTRAL_TOOL_CALLS],
    plain: plainCheck(MISTRAL_TOOL_CALLS, ["[THINK]", "[{", "[ {", "[\n{"]),
    createId: () => mistralCallId(),
    *run(reader, out, context) {
      yield* textLoop(reader, out, context, {
        callMarkers: [MISTRAL_TOOL_CALLS],
        reasoning: THINK,
        // Magistral thinks about a call with its markers and calls after `[/THINK]` (llama.cpp's test; vLLM reads
        // calls only in what its reasoning parser leaves): read inside `[THINK]`, the call would run twice.
        callsInReasoning: false,
        *atStart() {
          yield* readUnopenedList(reader, out, context, {
            item: ELEMENT_OPTIONS,
            issue: `${MISTRAL_TOOL_CALLS} is missing before a JSON list of calls: read as calls`,
          });
        },
        onCall: (_marker, channel) => readCalls(reader, out, context, channel),
      });
    },
    encode: options.encode,
  });
}

const idOf = (call: EncodableToolCall) =>
  typeof call.id === "string" && call.id !== "" ? call.id : mistralCallId();

/**
 * Encodes calls as Mistral Nemo's template renders them (tokenizer versions before v11):
 * `[TOOL_CALLS][{"name": "NAME", "arguments": {…}, "id": "ID"}, …]`.
 *
 * @example
 * encodeMistralList([{ id: "a1b2c3d4e", function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } }]);
 * // '[TOOL_CALLS][{"name": "get_weather", "arguments": {"city": "Tokyo"}, "id": "a1b2c3d4e"}]'
 */
export function encodeMistralList(calls: readonly EncodableToolCall[]): string {
  const items = calls.map(
    (call) =>
      `{"name": ${pythonJsonText(call.function.name)}, "arguments": ${argumentsJson(call)}, "id": "${idOf(call)}"}`,
  );
  return `${MISTRAL_TOOL_CALLS}[${items.join(", ")}]`;
}

/**
 * Encodes calls as tokenizer v11 templates render them (Ministral 3, Devstral 2): `[TOOL_CALLS]NAME[ARGS]{…}` per call.
 *
 * @example
 * encodeMistralArgs([{ function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } }]);
 * // '[TOOL_CALLS]get_weather[ARGS]{"city": "Tokyo"}'
 */
export function encodeMistralArgs(calls: readonly EncodableToolCall[]): string {
  return calls
    .map((call) => `${MISTRAL_TOOL_CALLS}${call.function.name}${MISTRAL_ARGS}${argumentsJson(call)}`)
    .join("");
}

/**
 * Encodes calls as Mistral Small 3.2's template renders them: `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}` per call.
 *
 * @example
 * encodeMistralCallId([{ id: "a1b2c3d4e", function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } }]);
 * // '[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Tokyo"}'
 */
export function encodeMistralCallId(calls: readonly EncodableToolCall[]): string {
  return calls
    .map(
      (call) =>
        `${MISTRAL_TOOL_CALLS}${call.function.name}${MISTRAL_CALL_ID}${idOf(call)}${MISTRAL_ARGS}${argumentsJson(call)}`,
    )
    .join("");
}

/**
 * Mistral before tokenizer v11 (Mistral 7B v0.3, Mixtral 8x22B, Nemo, Small 3.1): `[TOOL_CALLS][{"name": …,
 * "arguments": {…}, "id": "…"}, …]` (Small 3.1 writes a space after `[TOOL_CALLS]`).
 *
 * Rules (all three Mistral syntaxes read every form after `[TOOL_CALLS]`: the list, `NAME[ARGS]{…}`,
 * `NAME[CALL_ID]ID[ARGS]{…}` and the older `NAME{…}`; they differ in how they encode): an `"id"` in a list element
 * and a `[CALL_ID]` are the call's id, otherwise 9 random letters and digits (what Mistral's templates require);
 * arguments are a JSON object whose bytes are kept; a list at the very start with `[TOOL_CALLS]` stripped is read
 * (`call_unopened`); Magistral's reasoning is `[THINK]…[/THINK]`, where a call marker is text (the model calls after
 * `[/THINK]`).
 *
 * @example
 * mistralList.parse('[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Tokyo"}, "id": "a1b2c3d4e"}]').toolCalls[0].id; // "a1b2c3d4e"
 */
export const mistralList: ToolCallSyntax = createMistral({
  id: "mistral-list",
  name: "Mistral before v11 ([TOOL_CALLS] JSON list)",
  encode: encodeMistralList,
});

/**
 * Mistral tokenizer v11 (Ministral 3, Devstral 2, Magistral): `[TOOL_CALLS]NAME[ARGS]{…}` per call. Same rules as
 * {@link mistralList}.
 *
 * @example
 * mistralArgs.parse('[TOOL_CALLS]get_weather[ARGS]{"city": "Tokyo"}').toolCalls[0].function.name; // "get_weather"
 */
export const mistralArgs: ToolCallSyntax = createMistral({
  id: "mistral-args",
  name: "Mistral v11 ([TOOL_CALLS]NAME[ARGS]{…})",
  encode: encodeMistralArgs,
});

/**
 * Mistral Small 3.2: `[TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…}` per call. Same rules as {@link mistralList}.
 *
 * @example
 * mistralCallIdSyntax.parse('[TOOL_CALLS]get_weather[CALL_ID]a1b2c3d4e[ARGS]{"city": "Tokyo"}').toolCalls[0].id; // "a1b2c3d4e"
 */
export const mistralCallIdSyntax: ToolCallSyntax = createMistral({
  id: "mistral-call-id",
  name: "Mistral Small 3.2 ([TOOL_CALLS]NAME[CALL_ID]ID[ARGS]{…})",
  encode: encodeMistralCallId,
});
