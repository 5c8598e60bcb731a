import type { EncodableToolCall, SyntaxIssue, ToolCallSyntax } from "@toolcall/core/kit";
import { argumentsJson } from "../engine/arguments.js";
import { defineSyntax, type FamilyContext } from "../engine/define-syntax.js";
import { readJsonArguments } from "../engine/json-arguments.js";
import { MarkerSet } from "../engine/marker-set.js";
import type { Output } from "../engine/output.js";
import type { Reader, Step } from "../engine/reader.js";
import { plainCheck } from "../engine/text-loop.js";

export const HARMONY_START = "<|start|>";
export const HARMONY_CHANNEL = "<|channel|>";
export const HARMONY_MESSAGE = "<|message|>";
export const HARMONY_END = "<|end|>";
export const HARMONY_CALL = "<|call|>";
export const HARMONY_RETURN = "<|return|>";
export const HARMONY_CONSTRAIN = "<|constrain|>";

const HEADER_END = new MarkerSet([HARMONY_MESSAGE, HARMONY_START, HARMONY_END, HARMONY_CALL, HARMONY_RETURN]);
const BODY_END = new MarkerSet([HARMONY_END, HARMONY_CALL, HARMONY_RETURN, HARMONY_START]);

/** A message header: `<|channel|>commentary to=functions.get_weather <|constrain|>json`, or with the recipient first. */
export interface HarmonyHeader {
  role: string;
  channel: string | undefined;
  recipient: string | undefined;
}

/**
 * Reads a header's text (what stands between `<|start|>` or the generation prompt and `<|message|>`).
 *
 * @example
 * harmonyHeader(" to=functions.get_weather<|channel|>commentary json");
 * // { role: "", channel: "commentary", recipient: "functions.get_weather" }
 */
export function harmonyHeader(text: string): HarmonyHeader {
  const flat = text.replaceAll(HARMONY_CONSTRAIN, " ");
  const channelAt = flat.indexOf(HARMONY_CHANNEL);
  const channel =
    channelAt === -1
      ? undefined
      : /^\s*([A-Za-z_]+)/.exec(flat.slice(channelAt + HARMONY_CHANNEL.length))?.[1];
  const recipient = /(?:^|\s)to=([^\s<]+)/.exec(flat)?.[1];
  const roleEnd = Math.min(...[channelAt, flat.search(/(?:^|\s)to=/)].filter((i) => i !== -1), flat.length);
  return { role: flat.slice(0, roleEnd).trim(), channel, recipient };
}

/** A recipient's tool name: `functions.get_weather` → `get_weather`; other recipients (`browser.search`) as they are. */
export function harmonyToolName(recipient: string): string {
  return recipient.startsWith("functions.") ? recipient.slice("functions.".length) : recipient;
}

function* readCallBody(
  reader: Reader,
  out: Output,
  context: FamilyContext,
  recipient: string,
  head: string,
  ends: MarkerSet = BODY_END,
): Step<void> {
  const name = harmonyToolName(recipient);
  const fail = (code: "call_invalid" | "call_truncated", message: string) => {
    const raw = head + reader.takeRecord();
    const issue: SyntaxIssue = { code, severity: "error", message, path: [], raw };
    out.abort(issue, raw, "content");
  };
  if (name === "") return fail("call_invalid", "a recipient without a name");
  out.start(name, context.createId(out.index, name), "content");
  context.checkName(name, out);
  const args = yield* readJsonArguments(reader, out, { end: ends, tool: name });
  if (args.status === "end") return fail("call_truncated", "the text ends inside a tool call");
  if (args.status === "invalid") return fail("call_invalid", args.message);
  if (!args.closed) {
    yield* reader.space();
    const end = yield* reader.peek(ends);
    // `<|call|>` is a stop token servers often strip: the call ends with its JSON. A next message is left to be read.
    if (end !== null && end !== HARMONY_START && ends === BODY_END) reader.consume(end.length);
    else if (end === null && !reader.exhausted)
      return fail("call_invalid", `expected ${HARMONY_CALL} after the arguments`);
  }
  reader.takeRecord();
  out.end(args.text);
}

/** How the first message's header may begin (the generation prompt ends with `<|start|>assistant`). */
const FIRST_HEADER = new MarkerSet([HARMONY_CHANNEL, " to=", "to="]);
/** Outside a message: the next message, or a header that lost its `<|start|>`. */
const OUTSIDE = new MarkerSet([HARMONY_START, HARMONY_CHANNEL]);

function* run(reader: Reader, out: Output, context: FamilyContext): Step<void> {
  // The text starts inside the first header when it starts like one; otherwise it is content up to a message.
  let header: string | null = (yield* reader.peek(FIRST_HEADER)) !== null ? "" : null;
  for (;;) {
    if (header === null) {
      const marker = yield* reader.until(OUTSIDE, (text) => out.text("content", text));
      if (marker === null) return;
      // The marker starts the header's text, so a header that fails goes back to content whole.
      header = marker;
    }
    const prefix = header;
    header = null;
    reader.journalStart(prefix);
    reader.record();
    const parts: string[] = [prefix];
    const marker = yield* reader.until(HEADER_END, (text) => parts.push(text));
    const parsed = harmonyHeader(parts.join(""));
    // A header names a channel, or a recipient followed by more of the message.
    const isHeader = parsed.channel !== undefined || (parsed.recipient !== undefined && marker !== null);
    if (marker !== HARMONY_MESSAGE || !isHeader) {
      const raw = prefix + reader.takeRecord();
      if (isHeader)
        out.issue({
          code: marker === null ? "call_truncated" : "call_invalid",
          severity: "error",
          message:
            marker === null
              ? "the text ends inside a message header"
              : "a message header without <|message|>",
          raw,
        });
      if (marker === HARMONY_START) {
        out.text("content", raw.slice(0, raw.length - HARMONY_START.length));
        header = HARMONY_START;
      } else out.text("content", raw);
      if (marker === null) return;
      continue;
    }
    if (parsed.recipient !== undefined) {
      // The recipient decides, whatever the channel: gpt-oss writes many calls on `analysis`.
      yield* readCallBody(reader, out, context, parsed.recipient, prefix);
      reader.journalEnd();
      continue;
    }
    reader.takeRecord();
    reader.journalEnd();
    const channel = parsed.channel === "analysis" ? "reasoning" : "content";
    if (channel === "reasoning") out.openReasoning();
    const end = yield* reader.until(BODY_END, (text) => out.text(channel, text));
    out.separator(channel, "");
    if (end === null) return;
    if (end === HARMONY_START) header = HARMONY_START;
  }
}

/**
 * Encodes calls as gpt-oss's template renders them: each call its own message,
 * `<|start|>assistant to=functions.NAME<|channel|>commentary json<|message|>ARGS<|call|>`, the arguments as `tojson`
 * writes a mapping (the template renders only a message's first call; parallel calls are separate messages).
 *
 * @example
 * encodeHarmony([{ function: { name: "get_weather", arguments: '{"city":"Tokyo"}' } }]);
 * // '<|start|>assistant to=functions.get_weather<|channel|>commentary json<|message|>{"city": "Tokyo"}<|call|>'
 */
export function encodeHarmony(calls: readonly EncodableToolCall[]): string {
  return calls
    .map(
      (call) =>
        `${HARMONY_START}assistant to=functions.${call.function.name}${HARMONY_CHANNEL}commentary json${HARMONY_MESSAGE}${argumentsJson(call)}${HARMONY_CALL}`,
    )
    .join("");
}

/**
 * gpt-oss harmony: messages `<|channel|>analysis<|message|>…<|end|>`, calls
 * `<|start|>assistant<|channel|>commentary to=functions.NAME <|constrain|>json<|message|>{…}<|call|>` (or with the
 * recipient before the channel, as the template writes it), answers `<|channel|>final<|message|>…<|return|>`.
 *
 * Rules: the text starts inside the first header (the generation prompt ends with `<|start|>assistant`); a
 * message with a recipient is a call whatever its channel (gpt-oss writes many on `analysis`, with `code` or no
 * constraint); `functions.NAME` gives the name, other recipients (`browser.search`) are kept as the name; `<|call|>`
 * may be missing (a stripped stop token); `analysis` is reasoning, `final` and `commentary` without a recipient are
 * content; text with no header at all is content. Argument bytes are kept.
 *
 * @example
 * harmony.parse('<|channel|>analysis<|message|>Need the weather.<|end|><|start|>assistant<|channel|>commentary to=functions.get_weather <|constrain|>json<|message|>{"city":"Berlin"}<|call|>');
 * // { reasoning: "Need the weather.", content: null, issues: [],
 * //   toolCalls: [{ id: "call_…", type: "function", function: { name: "get_weather", arguments: '{"city":"Berlin"}' } }] }
 */
export const harmony: ToolCallSyntax = defineSyntax({
  id: "harmony",
  name: "gpt-oss harmony (channels, to=functions.NAME)",
  startMarkers: [HARMONY_CHANNEL, " to=functions."],
  // Any special token (`<|`), or a header that starts the text (` to=…`).
  plain: plainCheck("<|", ["to="]),
  run,
  encode: encodeHarmony,
});

const CHANNEL_WORDS = new MarkerSet(["analysis", "commentary", "final"]);
const JOINTS = new MarkerSet(["assistantanalysis", "assistantcommentary", "assistantfinal"]);
const RECIPIENT = new MarkerSet([" to="]);

function* runStripped(reader: Reader, out: Output, context: FamilyContext): Step<void> {
  let channel = yield* reader.peek(CHANNEL_WORDS);
  if (channel === null) {
    // Not harmony: content, all of it.
    yield* reader.rest((text) => out.text("content", text));
    return;
  }
  let word = reader.consume(channel.length);
  for (;;) {
    reader.journalStart(word);
    reader.record();
    const to = channel === "final" ? null : yield* reader.peek(RECIPIENT);
    let marker: string | null;
    if (to !== null) {
      reader.consume(to.length);
      const recipient = yield* reader.upTo(" \n{", 256);
      yield* reader.upTo("{", 64); // the constraint (` json`, ` code`) stood here
      const head = channel;
      yield* readCallBody(reader, out, context, recipient, head, JOINTS);
      marker = yield* reader.until(JOINTS, (text) => out.text("content", text));
    } else {
      reader.takeRecord();
      const kind = channel === "analysis" ? "reasoning" : "content";
      if (kind === "reasoning") out.openReasoning();
      marker = yield* reader.until(JOINTS, (text) => out.text(kind, text));
      out.separator(kind, "");
    }
    reader.journalEnd();
    if (marker === null) return;
    channel = marker.slice("assistant".length);
    word = "";
  }
}

/**
 * gpt-oss output from a server that strips special tokens (`skip_special_tokens`):
 * `analysisNeed the weather.assistantcommentary to=functions.get_weather json{"city":"Tokyo"}` — the boundaries
 * survive only as `assistant` glued to the next channel name.
 *
 * Rules: only text that starts with `analysis`, `commentary` or `final` is read this way (anything else is content);
 * a message ends where `assistantanalysis`, `assistantcommentary` or `assistantfinal` begins; ` to=RECIPIENT`
 * after the channel makes a call whose arguments are the JSON object that follows (the constraint word before it
 * is dropped). The text is ambiguous by nature; use {@link harmony} whenever the tokens are kept.
 *
 * @example
 * harmonyStripped.parse('analysisNeed the weather.assistantcommentary to=functions.get_weather json{"city":"Tokyo"}').toolCalls[0].function.name;
 * // "get_weather"
 */
export const harmonyStripped: ToolCallSyntax = defineSyntax({
  id: "harmony-stripped",
  name: "gpt-oss harmony with special tokens stripped",
  startMarkers: ["assistantcommentary to=", "commentary to="],
  plain: plainCheck(null, ["analysis", "commentary", "final"]),
  run: runStripped,
  encode: (calls) =>
    calls
      .map(
        (call, index) =>
          `${index === 0 ? "" : "assistant"}commentary to=functions.${call.function.name} json${argumentsJson(call)}`,
      )
      .join(""),
});
