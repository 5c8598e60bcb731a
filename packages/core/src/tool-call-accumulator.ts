import { type DecodeOptions, type DecodeResult, decodeArguments } from "./decode-arguments.js";
import { parseJson } from "./parse-json.js";
import { isArraySafe, listEntries } from "./read-history.js";
import type { FinishReason } from "./types.js";
import { isWorkMeter, type WorkMeter } from "./work-budget.js";

/** One streamed tool-call fragment, as OpenAI's `choices[].delta.tool_calls[]` carries it. */
export interface ToolCallDelta {
  index?: number;
  id?: string | null;
  type?: string | null;
  function?: { name?: string | null; arguments?: string | null } | null;
}

/** A call as accumulated so far. */
export interface AccumulatingToolCall {
  /** The stream's index for the call. */
  index: number;
  id: string | undefined;
  type: string | undefined;
  name: string;
  /** The argument text accumulated so far, unparsed. */
  arguments: string;
  /**
   * Final frames that repeated the complete arguments (R9), as they came: not appended, so the call's text holds them
   * once. Absent when none came. A door that leaves such a frame out of what its client gets says so with these.
   */
  repeats?: string[];
}

/** A finished call: the accumulated text and its single decode. */
export interface AccumulatedToolCall extends AccumulatingToolCall {
  decoded: DecodeResult;
}

/** What `ToolCallAccumulator.finish` takes: decode options and the stream's finish reason. */
export interface FinishOptions extends Omit<DecodeOptions, "finishReason"> {
  /** The stream's finish reason; `length` marks calls that do not parse `truncated`. */
  finishReason?: FinishReason | null;
}

/** A field of an object from outside; a getter or proxy trap that throws reads as absent. */
function readField(object: object, key: string): unknown {
  try {
    return (object as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function isCompleteJson(text: string): boolean {
  return parseJson(text).success;
}

/**
 * Accumulates streamed tool-call deltas per call (RULES.md R9) and decodes each call once at the end. Nothing is
 * parsed per delta for the result; a final frame repeating the complete arguments is not appended twice; a
 * different id at an index already in use starts a new call (some servers send every call at index 0).
 *
 * @example
 * const accumulator = new ToolCallAccumulator();
 * accumulator.push({ index: 0, id: "c1", function: { name: "w", arguments: '{"city":' } });
 * accumulator.push({ index: 0, function: { arguments: '"Paris"}' } });
 * accumulator.finish({ finishReason: "tool_calls" })[0].decoded.arguments; // { city: "Paris" }
 */
export class ToolCallAccumulator {
  readonly #calls: AccumulatingToolCall[] = [];
  readonly #current = new Map<number, AccumulatingToolCall>();
  readonly #finished = new Set<AccumulatingToolCall>();
  /** Calls handed out by `takeCompleted` or `takeRest`: always the first ones, in order. */
  #taken = 0;
  /** How many calls there were when `takeCompleted` last looked (it looks again only when a call begins). */
  #looked = 0;
  /** The length of each call's text when it was last found not to be whole JSON. */
  readonly #brokenAt = new WeakMap<AccumulatingToolCall, number>();
  /** A frame left out as repeating the call's whole text, until more text shows it was not the call's last. */
  readonly #pendingRepeat = new WeakMap<AccumulatingToolCall, string>();
  readonly #meter: WorkMeter | undefined;

  /**
   * `meter`: charged the characters `takeCompleted` parses and one unit per call it looks at (a test counts them;
   * nothing is limited by it).
   */
  constructor(options: { meter?: WorkMeter } = {}) {
    this.#meter = isWorkMeter(options?.meter) ? options.meter : undefined;
  }

  /**
   * Feeds one delta, or the `tool_calls` list of one chunk. Returns the call each delta was added to. Entries that are
   * not objects (`null`, a string) are no delta and are skipped; a field that cannot be read (its getter throws)
   * counts as absent.
   */
  push(delta: ToolCallDelta | readonly ToolCallDelta[]): AccumulatingToolCall[] {
    const deltas = isArraySafe(delta) ? (listEntries(delta)?.values ?? []) : [delta];
    const calls: AccumulatingToolCall[] = [];
    for (const d of deltas) {
      const call = this.#pushOne(d);
      if (call !== undefined) calls.push(call);
    }
    return calls;
  }

  #pushOne(value: unknown): AccumulatingToolCall | undefined {
    if (typeof value !== "object" || value === null) return undefined;
    const delta = value as Record<string, unknown>;
    const fn = readField(delta, "function");
    const fields = {
      index: readField(delta, "index"),
      id: readField(delta, "id"),
      type: readField(delta, "type"),
      name: typeof fn === "object" && fn !== null ? readField(fn, "name") : undefined,
      arguments: typeof fn === "object" && fn !== null ? readField(fn, "arguments") : undefined,
    };
    const index = typeof fields.index === "number" ? fields.index : 0;
    const id = typeof fields.id === "string" && fields.id !== "" ? fields.id : undefined;
    let call = this.#current.get(index);
    if (call === undefined || (id !== undefined && call.id !== undefined && call.id !== id)) {
      call = { index, id, type: undefined, name: "", arguments: "" };
      this.#current.set(index, call);
      this.#calls.push(call);
    }
    if (call.id === undefined && id !== undefined) call.id = id;
    if (typeof fields.type === "string" && fields.type !== "") call.type = fields.type;
    const name = fields.name;
    if (typeof name === "string" && name !== "" && name !== call.name) call.name += name;
    const fragment = fields.arguments;
    if (typeof fragment === "string" && fragment !== "") {
      // Text after a frame left out as a repeat: that frame was no final frame (R9 holds only at the call's end), so
      // it goes back where it came; `{A}` `{A}` `{B}` is the text `{A}{A}{B}` as a whole answer would hold it.
      const pending = this.#pendingRepeat.get(call);
      if (pending !== undefined) {
        this.#pendingRepeat.delete(call);
        call.arguments += pending;
        call.repeats?.pop();
        if (call.repeats?.length === 0) delete call.repeats;
      }
      const text = appendArguments(call.arguments, fragment);
      // A length other than both together: the fragment was a final frame repeating the arguments (kept, not lost).
      if (text.length !== call.arguments.length + fragment.length) {
        call.repeats ??= [];
        call.repeats.push(fragment);
        if (text === call.arguments) this.#pendingRepeat.set(call, fragment);
      }
      call.arguments = text;
    }
    return call;
  }

  /** Every call seen so far, in the order each began. */
  get calls(): readonly AccumulatingToolCall[] {
    return this.#calls;
  }

  /**
   * Decodes one call now (its stream moved on to another call, or the caller knows it is complete); a call is
   * decoded at most once, so `finish` skips it.
   */
  finishCall(call: AccumulatingToolCall, options: FinishOptions = {}): AccumulatedToolCall {
    this.#finished.add(call);
    return { ...call, decoded: decodeArguments(call.arguments === "" ? undefined : call.arguments, options) };
  }

  /**
   * Calls known to be complete before the stream ends, handed out once each and in order: when a later call has
   * begun, the earlier calls not yet handed out that hold whole JSON text, up to the first that does not (calls sent
   * one after another, as OpenAI sends them). A call that may still grow (empty or broken text: the server may
   * interleave calls) and every call after it wait for a later look or for `takeRest`. Looks only when a new call
   * has begun; each look parses the calls it hands out and at most one more, so the work is linear in the calls.
   */
  takeCompleted(): AccumulatingToolCall[] {
    if (this.#calls.length === this.#looked) return [];
    this.#looked = this.#calls.length;
    const completed: AccumulatingToolCall[] = [];
    const last = this.#calls.length - 1;
    while (this.#taken < last) {
      const call = this.#calls[this.#taken] as AccumulatingToolCall;
      this.#meter?.charge(1);
      if (!this.#isWhole(call)) break;
      completed.push(call);
      this.#taken++;
    }
    return completed;
  }

  /**
   * Whether a call's text is whole JSON. Text found broken is parsed again only once it has doubled: a long broken
   * call is not re-read each time a call begins (it then waits for `takeRest`, as an interleaved call would).
   */
  #isWhole(call: AccumulatingToolCall): boolean {
    const text = call.arguments;
    if (text === "") return false;
    const brokenAt = this.#brokenAt.get(call);
    if (brokenAt !== undefined && text.length < 2 * brokenAt) return false;
    this.#meter?.charge(text.length);
    if (parseJson(text).success) return true;
    this.#brokenAt.set(call, text.length);
    return false;
  }

  /** Every call not yet handed out, in the order each began: what the stream's finish completes. */
  takeRest(): AccumulatingToolCall[] {
    const rest = this.#calls.slice(this.#taken);
    this.#taken = this.#calls.length;
    return rest;
  }

  /** Decodes every call not yet finished, once each, with the stream's finish reason. */
  finish(options: FinishOptions = {}): AccumulatedToolCall[] {
    return this.#calls
      .filter((call) => !this.#finished.has(call))
      .map((call) => this.finishCall(call, options));
  }
}

/**
 * The finish reason a stream's calls are decoded with at its end (R9): the stream's own, or `length` when it ended
 * without one. A stream whose protocol closes with a finish reason (OpenAI's `finish_reason`; in LangChain, the
 * metadata of every provider that reports one) and did not was cut: a call open at that point is treated as after a length stop, so text cut
 * off is `truncated` and never repaired into a call that looks whole (`{"path": "/tmp/a` must not become a call on
 * `/tmp/a`). Complete arguments still decode as objects.
 *
 * @example
 * finishReasonAtStreamEnd("tool_calls"); // "tool_calls"
 * finishReasonAtStreamEnd(undefined); // "length"
 */
export function finishReasonAtStreamEnd(reason: FinishReason | null | undefined): FinishReason {
  return typeof reason === "string" && reason !== "" ? reason : "length";
}

/** Appends a fragment, unless it is a final frame that repeats the complete arguments. */
export function appendArguments(buffer: string, fragment: string): string {
  if (typeof buffer !== "string") return typeof fragment === "string" ? fragment : "";
  if (typeof fragment !== "string") return buffer;
  if (buffer === "") return fragment;
  if (fragment === buffer && isCompleteJson(buffer)) return buffer;
  if (fragment.length > buffer.length && fragment.startsWith(buffer) && isCompleteJson(fragment)) {
    if (!isCompleteJson(buffer + fragment)) return fragment;
  }
  return buffer + fragment;
}
