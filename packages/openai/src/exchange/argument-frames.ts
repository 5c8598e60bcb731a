import { asciiBytes } from "./bytes.js";

const ARGUMENTS_KEY = asciiBytes('"arguments":"');
/** Decodes whole fragments only (no `stream` option), so one serves every reader. */
const decoder = new TextDecoder();

interface Template {
  prefix: Uint8Array;
  suffix: Uint8Array;
  choice: number;
  index: number;
}

function isPlain(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `Buffer.prototype.compare` where the runtime has one (a native `memcmp` of two ranges, no view made). */
const nativeCompare = (
  globalThis as {
    Buffer?: { prototype: { compare: (target: Uint8Array, start: number, end: number) => number } };
  }
).Buffer?.prototype.compare;

/** Whether `bytes[at, at + part.length)` is `part`. */
function matches(bytes: Uint8Array, at: number, part: Uint8Array): boolean {
  if (at < 0 || at + part.length > bytes.length) return false;
  if (nativeCompare !== undefined && part.length > 16)
    return nativeCompare.call(part, bytes, at, at + part.length) === 0;
  for (let k = 0; k < part.length; k++) if (bytes[at + k] !== part[k]) return false;
  return true;
}

/** The choice and call of a chunk that holds nothing but one argument fragment, or `undefined`. */
function fragmentOnly(chunk: unknown): { choice: number; index: number; fragment: string } | undefined {
  if (!isPlain(chunk) || !Array.isArray(chunk.choices) || chunk.choices.length !== 1) return undefined;
  if (chunk.usage != null) return undefined;
  const choice = chunk.choices[0];
  if (!isPlain(choice) || typeof choice.index !== "number" || choice.finish_reason != null) return undefined;
  if (choice.logprobs != null || !isPlain(choice.delta)) return undefined;
  for (const key in choice)
    if (!["index", "delta", "finish_reason", "logprobs"].includes(key)) return undefined;
  const keys = Object.keys(choice.delta);
  const calls = choice.delta.tool_calls;
  if (keys.length !== 1 || !Array.isArray(calls) || calls.length !== 1) return undefined;
  const call = calls[0];
  if (!isPlain(call) || typeof call.index !== "number" || !isPlain(call.function)) return undefined;
  if (Object.keys(call).length !== 2 || Object.keys(call.function).length !== 1) return undefined;
  const fragment = call.function.arguments;
  return typeof fragment === "string" ? { choice: choice.index, index: call.index, fragment } : undefined;
}

/**
 * Reads the events that carry one argument fragment each (the bulk of a streamed call) without parsing them:
 * once such an event has been parsed, its bytes before and after the fragment's text are a template, and a later
 * event with the same bytes around a well-formed JSON string holds the same structure with another fragment. The
 * string is checked by `JSON.parse` of itself alone; anything else (a new `created` second, another call, a
 * different shape) is read in full again.
 *
 * @example
 * const frames = new ArgumentFrames();
 * frames.learn(bytes, chunk); // after a full read of an argument-only chunk
 * frames.match(next, 0, next.length); // { choice: 0, index: 0, fragment: "…" } when it has the same shape
 */
export class ArgumentFrames {
  #template: Template | undefined;

  /** Takes an event read in full as the template, when it holds nothing but one argument fragment. */
  learn(bytes: Uint8Array, chunk: unknown): void {
    const only = fragmentOnly(chunk);
    if (only === undefined) {
      this.#template = undefined;
      return;
    }
    // The fragment's text starts after the one `"arguments":"` the event has and ends at its closing quote.
    let start = -1;
    for (let at = bytes.indexOf(0x22); at !== -1; at = bytes.indexOf(0x22, at + 1)) {
      if (matches(bytes, at, ARGUMENTS_KEY)) {
        if (start !== -1) return;
        start = at + ARGUMENTS_KEY.length;
      }
    }
    if (start === -1) return;
    let end = start;
    while (end < bytes.length && bytes[end] !== 0x22) end += bytes[end] === 0x5c ? 2 : 1;
    if (end >= bytes.length) return;
    const template = {
      prefix: bytes.slice(0, start),
      suffix: bytes.slice(end),
      choice: only.choice,
      index: only.index,
    };
    this.#template =
      this.#read(bytes, 0, bytes.length, template)?.fragment === only.fragment ? template : undefined;
  }

  /** The fragment of an event shaped as the template, or `undefined`. */
  match(
    bytes: Uint8Array,
    from: number,
    to: number,
  ): { choice: number; index: number; fragment: string } | undefined {
    const template = this.#template;
    return template === undefined ? undefined : this.#read(bytes, from, to, template);
  }

  #read(bytes: Uint8Array, from: number, to: number, template: Template) {
    const { prefix, suffix } = template;
    if (to - from < prefix.length + suffix.length) return undefined;
    if (!matches(bytes, from, prefix) || !matches(bytes, to - suffix.length, suffix)) return undefined;
    const start = from + prefix.length;
    const end = to - suffix.length;
    // Printable ASCII without quotes or backslashes is its own JSON string: read without a decoder or a parse.
    let plain = "";
    let at = start;
    for (; at < end; at++) {
      const byte = bytes[at] as number;
      if (byte < 0x20 || byte > 0x7e || byte === 0x22 || byte === 0x5c) break;
      plain += String.fromCharCode(byte);
    }
    if (at === end) return { choice: template.choice, index: template.index, fragment: plain };
    const text = decoder.decode(bytes.subarray(start, end));
    let fragment: unknown;
    try {
      fragment = JSON.parse(`"${text}"`);
    } catch {
      return undefined;
    }
    return typeof fragment === "string"
      ? { choice: template.choice, index: template.index, fragment }
      : undefined;
  }
}
