import type { FinishReason } from "@toolcall/core";
import {
  type AccumulatingToolCall,
  finishReasonAtStreamEnd,
  StreamedArguments,
  ToolCallAccumulator,
} from "@toolcall/core/kit";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ArgumentsReport, OpenAIRepairOptions } from "./options.js";
import { decideStreamedArguments } from "./repair-arguments.js";
import type { RepairedEvent } from "./repaired-event.js";

type ChunkChoice = ChatCompletionChunk.Choice;
type Delta = ChunkChoice["delta"];
type DeltaToolCall = ChatCompletionChunk.Choice.Delta.ToolCall;

/** What changed in one choice of a chunk: its delta, and its finish when that moves to a chunk of its own. */
export interface ChoiceEdit {
  delta: Delta;
  finishReason?: null;
}

interface CallState {
  call: AccumulatingToolCall;
  gate: StreamedArguments;
  /** The index the client knows the call by (the server's, unless it reused one for another call). */
  clientIndex: number;
  /** Waiting behind an earlier call that is held: nothing of it was sent yet. */
  deferred: boolean;
  decided: boolean;
}

interface ChoiceState {
  accumulator: ToolCallAccumulator;
  calls: Map<AccumulatingToolCall, CallState>;
  order: CallState[];
  usedIndexes: Set<number>;
  /** Whether a call of this choice is held, so later calls wait for it. */
  blocked: boolean;
  /** The call each server index names now. */
  byIndex: Map<number, CallState>;
}

/** The same edits made on another reading of the chunk (positions of `choices` are the same). */
function withEdits(exact: unknown, edits: ReadonlyArray<ChoiceEdit | null | undefined>): unknown {
  const chunk = exact as { choices: Array<Record<string, unknown>> };
  const choices: Array<Record<string, unknown>> = [];
  chunk.choices.forEach((choice, position) => {
    const edit = edits[position];
    if (edit === undefined) choices.push(choice);
    else if (edit !== null)
      choices.push(
        edit.finishReason === null
          ? { ...choice, delta: edit.delta, finish_reason: null }
          : { ...choice, delta: edit.delta },
      );
  });
  return { ...chunk, choices };
}

function isEmptyDelta(delta: Delta): boolean {
  for (const key in delta) {
    const value = (delta as Record<string, unknown>)[key];
    if (value !== undefined && value !== null) return false;
  }
  return true;
}

/**
 * The Chat Completions stream repair, one chunk at a time and synchronously, for every door onto it (an async
 * iterable of SDK chunks, an SSE byte stream). Argument fragments go on as they come while core's
 * `StreamedArguments` allows (the text can still begin a JSON object); a call that cannot go on is held to its end,
 * and later calls of its choice wait behind it; once a call is complete (a later call began and its text is whole
 * JSON, or the choice finished) it is decided by core's fresh-answer rule and the rest its client needs is sent in
 * one chunk. Content and every other field pass at once. A chunk nothing was changed in comes back as itself, so a
 * byte stream can send its bytes unchanged.
 *
 * @example
 * const repair = new ChatCompletionStreamRepair({ repairs: coreRepairs });
 * for (const chunk of chunks) for (const out of repair.push(chunk)) send(out.chunk);
 * for (const out of repair.end()) send(out.chunk);
 */
export class ChatCompletionStreamRepair {
  readonly #options: OpenAIRepairOptions;
  readonly #choices = new Map<number, ChoiceState>();
  #template: ChatCompletionChunk | undefined;
  #out: RepairedEvent<ChatCompletionChunk>[] = [];
  /** What goes after the chunk being read: the rest of calls its finish decided, then that finish. */
  #after: RepairedEvent<ChatCompletionChunk>[] = [];
  /** Reports of the calls decided so far, in order. */
  readonly reports: ArgumentsReport[] = [];

  constructor(options: OpenAIRepairOptions = {}) {
    this.#options = options;
  }

  /** Whether a call is still undecided: the choice's finish must then be read, even in a chunk without calls. */
  get open(): boolean {
    for (const state of this.#choices.values())
      for (const call of state.order) if (!call.decided) return true;
    return false;
  }

  /**
   * Reads a chunk that holds nothing but one argument fragment of a call already begun (the bulk of a streamed call),
   * without the chunk object: `true` when the chunk goes on as it came, `false` when its fragment is held (the chunk
   * is then left out), `undefined` when the chunk must be read whole with {@link push} (nothing was changed). The
   * same outcome `push` gives that chunk.
   */
  pushFragment(args: { choice: number; index: number; fragment: string }): boolean | undefined {
    const state = this.#choices.get(args.choice);
    const entry = state?.byIndex.get(args.index);
    if (state === undefined || entry === undefined || entry.deferred || entry.decided) return undefined;
    if (entry.clientIndex !== args.index || entry.gate.holding) return undefined;
    state.accumulator.push({ index: args.index, function: { arguments: args.fragment } });
    if (entry.gate.push(args.fragment)) return true;
    state.blocked = true;
    return false;
  }

  /** Reads one chunk; returns what to hand on, in order. */
  push(chunk: ChatCompletionChunk): RepairedEvent<ChatCompletionChunk>[] {
    this.#out = [];
    const choices = (chunk as { choices?: unknown }).choices;
    if (!Array.isArray(choices)) {
      // Not a chunk (an error object a server put in the stream): handed on as it came.
      this.#out.push({ kind: "same", value: chunk });
      return this.#out;
    }
    this.#template ??= chunk;
    this.#after = [];
    let edits: Array<ChoiceEdit | null | undefined> | undefined;
    for (let position = 0; position < choices.length; position++) {
      const choice = choices[position] as ChunkChoice;
      const edit = this.#choice(choice);
      if (edit === undefined) continue;
      edits ??= new Array(choices.length);
      edits[position] = edit;
    }
    if (edits === undefined) this.#out.push({ kind: "same", value: chunk });
    else {
      const edited = edits;
      const value = withEdits(chunk, edited) as ChatCompletionChunk;
      if (value.choices.length > 0 || chunk.usage != null)
        this.#out.push({ kind: "edited", value, redo: (exact) => withEdits(exact, edited) });
    }
    for (const out of this.#after) this.#out.push(out);
    return this.#out;
  }

  /**
   * The stream ended. Calls still open were cut (no finish reason came): they are decided as after a length stop,
   * so text cut off stays as it is.
   */
  end(): RepairedEvent<ChatCompletionChunk>[] {
    this.#out = [];
    for (const [index, state] of this.#choices) this.#finish(index, state, finishReasonAtStreamEnd(null));
    return this.#out;
  }

  #state(index: number): ChoiceState {
    let state = this.#choices.get(index);
    if (state === undefined) {
      state = {
        accumulator: new ToolCallAccumulator(),
        calls: new Map(),
        order: [],
        usedIndexes: new Set(),
        blocked: false,
        byIndex: new Map(),
      };
      this.#choices.set(index, state);
    }
    return state;
  }

  /** One choice of a chunk: its edit (`null` to leave it out), or `undefined` when nothing changed. */
  #choice(choice: ChunkChoice): ChoiceEdit | null | undefined {
    const delta = choice.delta;
    const toolCalls = delta?.tool_calls;
    const finishing = choice.finish_reason != null;
    let next: Delta = delta;
    if (Array.isArray(toolCalls) && toolCalls.length > 0) {
      const state = this.#state(choice.index);
      let forwarded: DeltaToolCall[] | undefined;
      toolCalls.forEach((toolCall, position) => {
        const out = this.#toolCall(choice.index, state, toolCall);
        if (out === toolCall && forwarded === undefined) return;
        forwarded ??= toolCalls.slice(0, position);
        if (out !== undefined) forwarded.push(out);
      });
      if (forwarded !== undefined) {
        const { tool_calls: _held, ...rest } = delta;
        next = forwarded.length > 0 ? { ...rest, tool_calls: forwarded } : rest;
      }
    }
    if (finishing && this.#choices.has(choice.index)) {
      const at = this.#out.length;
      this.#finish(choice.index, this.#state(choice.index), choice.finish_reason);
      const decided = this.#out.splice(at);
      if (decided.length > 0) {
        if (isEmptyDelta(next)) this.#out.push(...decided);
        else {
          // The chunk still carries text for the client: the rest of the calls and the finish come after it.
          this.#after.push(...decided, this.#finishChunk(choice));
          return { delta: next, finishReason: null };
        }
      }
    }
    if (next === delta) return undefined;
    if (isEmptyDelta(next) && !finishing && choice.logprobs == null) return null;
    return { delta: next };
  }

  #finishChunk(choice: ChunkChoice): RepairedEvent<ChatCompletionChunk> {
    const { choices: _choices, usage: _usage, ...base } = this.#template as ChatCompletionChunk;
    return {
      kind: "new",
      value: {
        ...base,
        choices: [{ index: choice.index, delta: {}, finish_reason: choice.finish_reason, logprobs: null }],
      } as ChatCompletionChunk,
    };
  }

  /** One tool-call delta: itself when it goes on as it came, a changed one, or `undefined` when held. */
  #toolCall(choiceIndex: number, state: ChoiceState, toolCall: DeltaToolCall): DeltaToolCall | undefined {
    const [call] = state.accumulator.push(toolCall) as [AccumulatingToolCall];
    let entry = state.calls.get(call);
    const isNew = entry === undefined;
    if (entry === undefined) {
      const serverIndex = typeof toolCall.index === "number" ? toolCall.index : 0;
      let clientIndex = serverIndex;
      // A server that sends every call at one index: the client would merge them, so later ones get new indexes.
      if (state.usedIndexes.has(clientIndex)) clientIndex = Math.max(...state.usedIndexes) + 1;
      state.usedIndexes.add(clientIndex);
      entry = {
        call,
        gate: new StreamedArguments({ maxDepth: this.#options.maxDepth }),
        clientIndex,
        deferred: state.blocked,
        decided: false,
      };
      state.calls.set(call, entry);
      state.byIndex.set(serverIndex, entry);
      state.order.push(entry);
      const waiting = entry.deferred;
      this.#takeCompleted(choiceIndex, state);
      // Released by the decision just made: what it holds so far (this delta included) went on already.
      if (waiting && !entry.deferred) return undefined;
    }
    if (entry.deferred || entry.decided) return undefined;
    const fragment = toolCall.function?.arguments;
    const passes = typeof fragment !== "string" || entry.gate.push(fragment);
    if (!passes) state.blocked = true;
    const name = toolCall.function?.name;
    // A name repeated whole in a later delta would be appended by clients that append names.
    const repeatedName = !isNew && typeof name === "string" && name !== "" && name === call.name;
    const reindexed = entry.clientIndex !== toolCall.index;
    if (passes && !repeatedName && !reindexed) return toolCall;
    const fn: Record<string, unknown> = { ...(toolCall.function ?? {}) };
    if (repeatedName) delete fn.name;
    if (!passes) {
      if (!isNew) delete fn.arguments;
      else fn.arguments = "";
    }
    const hasHeader = toolCall.id != null || toolCall.type != null || fn.name != null;
    if (!passes && !isNew && !hasHeader) return undefined;
    const out: DeltaToolCall = { ...toolCall, index: entry.clientIndex };
    if (Object.keys(fn).length > 0) out.function = fn as DeltaToolCall["function"];
    else delete out.function;
    return out;
  }

  /** Calls core knows complete before the finish (a later call began): decided now, before the later call's text. */
  #takeCompleted(choiceIndex: number, state: ChoiceState): void {
    const completed = state.accumulator.takeCompleted();
    if (completed.length === 0) return;
    for (const call of completed) this.#decide(choiceIndex, state.calls.get(call) as CallState, null);
    this.#release(choiceIndex, state);
  }

  #finish(choiceIndex: number, state: ChoiceState, finishReason: FinishReason | null): void {
    const rest = state.accumulator.takeRest();
    for (const call of rest) {
      const entry = state.calls.get(call) as CallState;
      if (entry.deferred) this.#sendDeferred(choiceIndex, entry, finishReason);
      else this.#decide(choiceIndex, entry, finishReason);
    }
    state.blocked = false;
  }

  /** Calls waiting behind one that was just decided: what they hold so far goes on through their own gates. */
  #release(choiceIndex: number, state: ChoiceState): void {
    state.blocked = state.order.some((entry) => !entry.decided && !entry.deferred && entry.gate.holding);
    if (state.blocked) return;
    for (const entry of state.order) {
      if (!entry.deferred || entry.decided) continue;
      entry.deferred = false;
      const text = entry.call.arguments;
      const passes = text === "" || entry.gate.push(text);
      this.#send(choiceIndex, this.#header(entry, passes ? text : ""));
      if (!passes) {
        state.blocked = true;
        return;
      }
    }
  }

  #header(entry: CallState, text: string): DeltaToolCall {
    const call = entry.call;
    return {
      index: entry.clientIndex,
      ...(call.id === undefined ? {} : { id: call.id }),
      type: "function",
      function: { name: call.name, arguments: text },
    };
  }

  /** Decides a call that was never sent (it waited behind another until the finish): header and text at once. */
  #sendDeferred(choiceIndex: number, entry: CallState, finishReason: FinishReason | null): void {
    entry.deferred = false;
    const text = this.#decideText(choiceIndex, entry, finishReason);
    this.#send(choiceIndex, this.#header(entry, text));
  }

  #decide(choiceIndex: number, entry: CallState, finishReason: FinishReason | null): void {
    if (entry.decided) return;
    const sentBefore = entry.gate.sent;
    const text = this.#decideText(choiceIndex, entry, finishReason);
    const rest = text.slice(sentBefore.length);
    if (rest !== "") this.#send(choiceIndex, { index: entry.clientIndex, function: { arguments: rest } });
  }

  /** Core's decision on a whole call, reported once; returns the whole text the client ends up holding. */
  #decideText(choiceIndex: number, entry: CallState, finishReason: FinishReason | null): string {
    entry.decided = true;
    const call = entry.call;
    const end = decideStreamedArguments({
      api: "chat.completions",
      index: choiceIndex,
      id: call.id,
      name: call.name,
      raw: call.arguments,
      finishReason,
      gate: entry.gate,
      options: this.#options,
    });
    if (end.report !== undefined) this.reports.push(end.report);
    return end.text;
  }

  #send(choiceIndex: number, toolCall: DeltaToolCall): void {
    const { choices: _choices, usage: _usage, ...base } = this.#template as ChatCompletionChunk;
    this.#out.push({
      kind: "new",
      value: {
        ...base,
        choices: [
          { index: choiceIndex, delta: { tool_calls: [toolCall] }, finish_reason: null, logprobs: null },
        ],
      } as ChatCompletionChunk,
    });
  }
}
