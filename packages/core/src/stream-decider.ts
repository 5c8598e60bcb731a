import { CallIds } from "./call-ids.js";
import { parseWithoutStack } from "./parse-json.js";
import { toolSchemasOf } from "./repair-tool-name.js";
import type { RepairRule } from "./repairs/repair-rule.js";
import { decideStreamedCall, type StreamDecision } from "./stream-decision.js";
import { StreamedArguments } from "./streamed-arguments.js";
import {
  type AccumulatingToolCall,
  finishReasonAtStreamEnd,
  ToolCallAccumulator,
} from "./tool-call-accumulator.js";
import type { FinishReason } from "./types.js";
import type { WorkMeter } from "./work-budget.js";

function readField(object: unknown, key: string): unknown {
  if (typeof object !== "object" || object === null) return undefined;
  try {
    return (object as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function stringField(object: unknown, key: string): string | undefined {
  const value = readField(object, key);
  return typeof value === "string" ? value : undefined;
}

/** One streamed piece of a tool call, in any SDK's shape mapped onto this one. */
export interface StreamCallDelta {
  /** The stream's index for the call (absent: 0). A different `id` at an index in use begins a new call. */
  index?: number;
  id?: string;
  /** The call's name, or a piece of it. */
  name?: string;
  /** A piece of the call's argument text. */
  arguments?: string;
}

/** A call as the decider follows it. */
export interface StreamCall {
  /** The accumulated call: id, name, the whole text so far. */
  readonly call: AccumulatingToolCall;
  /** The call's place among the calls begun, from 0. */
  readonly position: number;
  /** The index its client knows it by: the server's, unless the server reused one for another call. */
  readonly clientIndex: number;
  /** Whether its header reached the client (it does not while it waits behind a held call). */
  readonly opened: boolean;
  /** The decision, once made (each call is decided once). */
  readonly decision: StreamDecision | undefined;
}

/**
 * What the client gets, in order:
 * - `open`: the call's header (id, name) with `text`, the argument text it may have now (`""` when held);
 * - `text`: more argument text of an open call (`held`: the delta's text was held, `text` is `""`);
 * - `decided`: the call was decided; `decision.rest` is what the client still needs.
 *
 * `own` marks the event that stands for the delta just pushed (an adapter may hand that delta on as it came when
 * its text is the delta's own).
 */
export type StreamEvent =
  | { type: "open"; call: StreamCall; text: string; own: boolean }
  | { type: "text"; call: StreamCall; text: string; own: true; held: boolean }
  | { type: "decided"; call: StreamCall; decision: StreamDecision };

/** What a `StreamDecider` takes: repairs, the nesting limit, and a meter that counts its work. */
export interface StreamDeciderOptions {
  /** Repairs (R6) tried on arguments that are not strict JSON. Default: none. */
  repairs?: readonly RepairRule[];
  /** Nesting limit for argument text (default 1000). */
  maxDepth?: number;
  /**
   * The request's tools (OpenAI `{ type, function: { name, parameters } }`, bare `{ name, parameters }` or
   * Anthropic's `{ name, input_schema }`): each call's arguments are typed by its tool's JSON Schema, lossless
   * conversions only (core's `schemaTypedArguments`), as a whole answer's are.
   */
  tools?: readonly unknown[];
  /**
   * A call whose text holds several distinct complete objects (`{"a":1}{"b":2}`) becomes one call per object, as a
   * whole answer does with the same option: the decision's `split` lists them, the first keeping the call's id, the
   * others with fresh ids (`${id}_2`, … as `CallIds` gives) and stream indexes after every index in use. Default
   * `false`.
   */
  splitMergedCalls?: boolean;
  /**
   * Charged the characters parsed to learn whether a call is complete and one unit per call each scan visits (a
   * test counts them; nothing is limited by it).
   */
  meter?: WorkMeter;
}

interface CallState extends StreamCall {
  opened: boolean;
  decision: StreamDecision | undefined;
  gate: StreamedArguments;
  /** The caller said the call is complete. */
  complete: boolean;
  /** Counted among the calls that block later ones. */
  blocking: boolean;
  /** The length of its text when last found not to be whole JSON. */
  brokenAt: number;
}

/**
 * The one stream decider (R9) every SDK's stream maps onto: `push` each piece of a call, `complete` a call its
 * protocol says is whole, `finish` with the stream's finish reason. It returns, each time, what the client gets.
 *
 * - Argument text goes on as it came while everything so far can begin a JSON object (core's `StreamedArguments`);
 *   from the first piece that cannot, the call is *held*.
 * - While an earlier call is held, later calls wait: their header and text reach the client once every earlier call
 *   is decided or passing again, in the order the calls began. Calls never overtake each other.
 * - A call is decided once. It is decided as soon as it is complete (its protocol says so, or a later call began),
 *   its text is whole JSON (no finish reason can change that decision) and every call before it is decided. Any
 *   other call is decided at `finish`, with the stream's finish reason (a call a length stop cut is never repaired
 *   into one that runs). Decisions reach the client in the order the calls began.
 *
 * Work is linear in the pieces and in the number of calls: each call is opened, released and decided once, and a
 * broken call is parsed again only when its text has doubled.
 *
 * @example
 * const decider = new StreamDecider({ repairs: coreRepairs });
 * decider.push({ index: 0, id: "c1", name: "w", arguments: "{'city': 'Paris'}" }); // [{ type: "open", text: "", … }]
 * const [decided] = decider.finish("tool_calls");
 * decided.type === "decided" && decided.decision.rest; // '{"city":"Paris"}'
 */
export class StreamDecider {
  readonly #options: StreamDeciderOptions;
  readonly #accumulator: ToolCallAccumulator;
  readonly #states = new Map<AccumulatingToolCall, CallState>();
  readonly #order: CallState[] = [];
  readonly #byIndex = new Map<number, CallState>();
  readonly #usedIndexes = new Set<number>();
  #maxIndex = -1;
  /** The first call that waits behind a held one; every later call waits too. */
  #waitingFrom = 0;
  /** Calls held and not yet decided among those that reached the client. */
  #blocking = 0;
  #undecided = 0;
  /** Every call before this one is decided. */
  #firstUndecided = 0;
  #events: StreamEvent[] = [];
  readonly #schemas: Map<string, unknown>;
  /** Ids the calls use, for the fresh ones split calls get. */
  readonly #ids = new CallIds();

  constructor(options: StreamDeciderOptions = {}) {
    this.#options = options;
    this.#schemas = toolSchemasOf(options.tools);
    this.#accumulator = new ToolCallAccumulator({ meter: options.meter });
  }

  /** Whether a call is still undecided. */
  get open(): boolean {
    return this.#undecided > 0;
  }

  /** Every call begun, in order. */
  get calls(): readonly StreamCall[] {
    return this.#order;
  }

  /**
   * Reads a delta that is nothing but a piece of text of a call already begun and open: `true` when it goes on as it
   * came, `false` when it is held (from here, or as the call already was: nothing to send for it), `undefined` when it must be read with
   * {@link push} (nothing was read). What `push` would give, without building events.
   */
  pushText(args: { index: number; text: string }): boolean | undefined {
    const state = this.#byIndex.get(args.index);
    if (state === undefined || !state.opened || state.decision !== undefined) return undefined;
    if (state.clientIndex !== args.index) return undefined;
    this.#accumulator.push({ index: args.index, function: { arguments: args.text } });
    // A held call keeps holding: the fragment is kept, the chunk left out (what `push` gives it).
    if (state.gate.holding) return false;
    if (state.gate.push(args.text)) return true;
    this.#hold(state);
    return false;
  }

  /** Reads one piece of a call; returns what the client gets now, in order. */
  push(delta: StreamCallDelta): StreamEvent[] {
    const events: StreamEvent[] = [];
    this.#events = events;
    // A delta from outside: a field whose getter throws reads as absent, anything but its type as absent too.
    const index = readField(delta, "index");
    const text = readField(delta, "arguments");
    const [call] = this.#accumulator.push({
      index: typeof index === "number" ? index : undefined,
      id: stringField(delta, "id"),
      function: { name: stringField(delta, "name"), arguments: typeof text === "string" ? text : undefined },
    });
    if (call === undefined) return events;
    let state = this.#states.get(call);
    if (state === undefined) {
      state = this.#begin(call, typeof index === "number" ? index : 0);
      // A later call began: earlier calls whose text is whole are complete.
      for (const done of this.#accumulator.takeCompleted())
        this.#completeState(this.#states.get(done) as CallState);
      if (state.opened || this.#waitingFrom < this.#order.length) return events;
      // Nothing holds it back: it opens with what it holds so far, through its gate.
      this.#open(state, true);
      return events;
    }
    if (!state.opened || state.decision !== undefined) return events;
    if (typeof text !== "string" || text === "" || state.gate.holding) {
      events.push({ type: "text", call: state, text: "", own: true, held: state.gate.holding });
      return events;
    }
    const passes = state.gate.push(text);
    if (!passes) this.#hold(state);
    events.push({ type: "text", call: state, text: passes ? text : "", own: true, held: !passes });
    return events;
  }

  /**
   * The caller's protocol says a call is whole (the AI SDK's `tool-input-end`, Anthropic's `content_block_stop`):
   * decided now when its text is whole JSON, else at `finish`.
   */
  complete(args: { index: number }): StreamEvent[] {
    const events: StreamEvent[] = [];
    this.#events = events;
    const state = this.#byIndex.get(readField(args, "index") as number);
    if (state !== undefined) this.#completeState(state);
    return events;
  }

  /**
   * The stream finished (`finishReason`: its own; `null` or absent when it ended without one, which reads as cut):
   * every call still undecided is decided, in order.
   */
  finish(finishReason?: FinishReason | null): StreamEvent[] {
    const events: StreamEvent[] = [];
    this.#events = events;
    const reason = finishReasonAtStreamEnd(finishReason);
    for (; this.#firstUndecided < this.#order.length; this.#firstUndecided++) {
      const state = this.#order[this.#firstUndecided] as CallState;
      this.#options.meter?.charge(1);
      if (state.decision === undefined) this.#decide(state, reason);
    }
    this.#waitingFrom = this.#order.length;
    return events;
  }

  #begin(call: AccumulatingToolCall, serverIndex: number): CallState {
    let clientIndex = serverIndex;
    // A server that sends every call at one index: the client would merge them, so later ones get new indexes.
    if (this.#usedIndexes.has(clientIndex)) clientIndex = this.#maxIndex + 1;
    this.#usedIndexes.add(clientIndex);
    if (clientIndex > this.#maxIndex) this.#maxIndex = clientIndex;
    const state: CallState = {
      call,
      position: this.#order.length,
      clientIndex,
      opened: false,
      decision: undefined,
      gate: new StreamedArguments({ maxDepth: this.#options.maxDepth }),
      complete: false,
      blocking: false,
      brokenAt: 0,
    };
    if (this.#blocking === 0 && this.#waitingFrom === this.#order.length) this.#waitingFrom++;
    if (typeof call.id === "string") this.#ids.add(call.id);
    this.#states.set(call, state);
    this.#order.push(state);
    this.#byIndex.set(serverIndex, state);
    this.#undecided++;
    return state;
  }

  /** Opens a call: its header and the text it holds so far, through its gate. */
  #open(state: CallState, own: boolean): void {
    state.opened = true;
    const text = state.call.arguments;
    const passes = text === "" || state.gate.push(text);
    if (!passes) this.#hold(state);
    this.#events.push({ type: "open", call: state, text: passes ? text : "", own });
  }

  #hold(state: CallState): void {
    if (state.blocking) return;
    state.blocking = true;
    this.#blocking++;
  }

  #completeState(state: CallState): void {
    state.complete = true;
    this.#decideReady();
  }

  /**
   * Decides, in order, the calls at the front that are open, complete and whole JSON: a call is never decided
   * before the calls that began before it, so decisions reach the client in the order the calls began.
   */
  #decideReady(): void {
    for (;;) {
      this.#skipDecided();
      const state = this.#order[this.#firstUndecided];
      if (state === undefined || !state.opened || !state.complete || !this.#isWhole(state)) return;
      this.#decide(state, null);
      this.#release();
    }
  }

  #skipDecided(): void {
    while ((this.#order[this.#firstUndecided] as CallState | undefined)?.decision !== undefined) {
      this.#options.meter?.charge(1);
      this.#firstUndecided++;
    }
  }

  /**
   * Whether a call's text is whole JSON: then no finish reason changes its decision. Text found broken is parsed
   * again only once it has doubled, so a long broken call costs work linear in its text.
   */
  #isWhole(state: CallState): boolean {
    const text = state.call.arguments;
    if (text === "" || text.length < 2 * state.brokenAt) return false;
    this.#options.meter?.charge(text.length);
    try {
      parseWithoutStack(text);
      return true;
    } catch {
      state.brokenAt = text.length;
      return false;
    }
  }

  #decide(state: CallState, finishReason: FinishReason | null): void {
    const decision = decideStreamedCall({
      raw: state.call.arguments,
      finishReason,
      gate: state.gate,
      repairs: this.#options.repairs,
      maxDepth: this.#options.maxDepth,
      schema: this.#schemas.get(state.call.name),
      splitMergedCalls: this.#options.splitMergedCalls,
    });
    if (decision.split !== undefined) this.#placeSplit(state, decision.split);
    const repeats = state.call.repeats;
    if (repeats !== undefined) {
      decision.repeats = [...repeats];
      decision.notable = true;
    }
    state.decision = decision;
    this.#undecided--;
    if (state.blocking) {
      state.blocking = false;
      this.#blocking--;
    }
    if (!state.opened) {
      // Never sent: its header goes with the whole decided text.
      state.opened = true;
      this.#events.push({ type: "open", call: state, text: decision.text, own: false });
      this.#events.push({ type: "decided", call: state, decision: { ...decision, rest: "" } });
      return;
    }
    this.#events.push({ type: "decided", call: state, decision });
  }

  /** The calls a split call became get ids (the first its own) and stream indexes after every one in use. */
  #placeSplit(state: CallState, parts: NonNullable<StreamDecision["split"]>): void {
    const base = state.call.id ?? "call";
    const probes = this.#ids.probes;
    for (const [at, part] of parts.entries()) {
      if (at === 0) {
        part.id = base;
        part.index = state.clientIndex;
        continue;
      }
      part.id = this.#ids.fresh(base);
      part.index = ++this.#maxIndex;
      this.#usedIndexes.add(part.index);
    }
    // One unit per call placed and per id looked up for it (a test counts them).
    this.#options.meter?.charge(parts.length + this.#ids.probes - probes);
  }

  /** Calls waiting behind held ones go on, in order, until one of them is held in turn. */
  #release(): void {
    while (this.#blocking === 0 && this.#waitingFrom < this.#order.length) {
      const state = this.#order[this.#waitingFrom++] as CallState;
      this.#options.meter?.charge(1);
      if (state.opened) continue;
      this.#open(state, false);
    }
  }
}
