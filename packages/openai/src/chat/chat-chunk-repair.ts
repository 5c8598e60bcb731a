import type { FinishReason } from "@toolcall/core";
import { type StreamCall, StreamDecider, type StreamEvent, type WorkMeter } from "@toolcall/core/kit";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ArgumentsReport, OpenAIRepairOptions } from "../options.js";
import { streamReport } from "../repair-arguments.js";
import type { RepairedEvent } from "../repaired-event.js";

type ChunkChoice = ChatCompletionChunk.Choice;
type Delta = ChunkChoice["delta"];
type DeltaToolCall = ChatCompletionChunk.Choice.Delta.ToolCall;

/** What changed in one choice of a chunk: its delta, and its finish when that moves to a chunk of its own. */
export interface ChoiceEdit {
  delta: Delta;
  finishReason?: null;
}

interface ChoiceState {
  decider: StreamDecider;
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
 * const repair = new ChatChunkRepair({ repairs: coreRepairs });
 * for (const chunk of chunks) for (const out of repair.push(chunk)) send(out.chunk);
 * for (const out of repair.end()) send(out.chunk);
 */
export class ChatChunkRepair {
  readonly #options: OpenAIRepairOptions;
  readonly #meter: WorkMeter | undefined;
  readonly #choices = new Map<number, ChoiceState>();
  #template: ChatCompletionChunk | undefined;
  /** The template without `choices` and `usage`, made once: each chunk this repair writes starts from it. */
  #base: Record<string, unknown> | undefined;
  #out: RepairedEvent<ChatCompletionChunk>[] = [];
  /** What goes after the chunk being read: the rest of calls its finish decided, then that finish. */
  #after: RepairedEvent<ChatCompletionChunk>[] = [];
  /** Reports of the calls decided so far, in order. */
  readonly reports: ArgumentsReport[] = [];

  /** `meter`: charged the work of the stream's decider (a test counts it; nothing is limited by it). */
  constructor(options: OpenAIRepairOptions & { meter?: WorkMeter } = {}) {
    this.#options = options;
    this.#meter = options.meter;
  }

  /** Whether a call is still undecided: the choice's finish must then be read, even in a chunk without calls. */
  get open(): boolean {
    // Asked for every event of a byte stream: no iterator is made while no choice has a call (nearly every event).
    if (this.#choices.size === 0) return false;
    for (const state of this.#choices.values()) if (state.decider.open) return true;
    return false;
  }

  /**
   * Reads a chunk that holds nothing but one argument fragment of a call already begun (the bulk of a streamed call),
   * without the chunk object: `true` when the chunk goes on as it came, `false` when its fragment is held (the chunk
   * is then left out), `undefined` when the chunk must be read whole with {@link push} (nothing was changed). The
   * same outcome `push` gives that chunk.
   */
  pushFragment(args: { choice: number; index: number; fragment: string }): boolean | undefined {
    return this.#choices.get(args.choice)?.decider.pushText({ index: args.index, text: args.fragment });
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
    for (const [index, state] of this.#choices) this.#finish(index, state, null);
    return this.#out;
  }

  #state(index: number): ChoiceState {
    let state = this.#choices.get(index);
    if (state === undefined) {
      state = {
        decider: new StreamDecider({
          repairs: this.#options.repairs ?? [],
          maxDepth: this.#options.maxDepth,
          meter: this.#meter,
          ...(this.#options.tools === undefined ? {} : { tools: this.#options.tools }),
          splitMergedCalls: this.#options.splitMergedCalls === true,
        }),
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
        if (isEmptyDelta(next)) for (const out of decided) this.#out.push(out);
        else {
          // The chunk still carries text for the client: the rest of the calls and the finish come after it.
          for (const out of decided) this.#after.push(out);
          this.#after.push(this.#finishChunk(choice));
          return { delta: next, finishReason: null };
        }
      }
    }
    if (next === delta) return undefined;
    if (isEmptyDelta(next) && !finishing && choice.logprobs == null) return null;
    return { delta: next };
  }

  /** The fields every chunk of the stream repeats (id, model, …), read once from the first chunk. */
  #baseOf(): Record<string, unknown> {
    if (this.#base === undefined) {
      const { choices: _choices, usage: _usage, ...base } = this.#template as ChatCompletionChunk;
      this.#base = base;
    }
    return this.#base;
  }

  #finishChunk(choice: ChunkChoice): RepairedEvent<ChatCompletionChunk> {
    const base = this.#baseOf();
    return {
      kind: "new",
      value: {
        ...base,
        choices: [{ index: choice.index, delta: {}, finish_reason: choice.finish_reason, logprobs: null }],
      } as ChatCompletionChunk,
    };
  }

  /**
   * One tool-call delta, read by core's `StreamDecider`: itself when it goes on as it came, a changed one, or
   * `undefined` when nothing of it goes on now. What the decider releases or decides meanwhile goes before it.
   */
  #toolCall(choiceIndex: number, state: ChoiceState, toolCall: DeltaToolCall): DeltaToolCall | undefined {
    const fragment = toolCall.function?.arguments;
    const name = toolCall.function?.name;
    const known = state.decider.calls.length;
    let own: Exclude<StreamEvent, { type: "decided" }> | undefined;
    for (const event of state.decider.push({
      index: typeof toolCall.index === "number" ? toolCall.index : undefined,
      id: typeof toolCall.id === "string" ? toolCall.id : undefined,
      name: typeof name === "string" ? name : undefined,
      arguments: typeof fragment === "string" ? fragment : undefined,
    })) {
      if (event.type !== "decided" && event.own) own = event;
      else this.#event(choiceIndex, event);
    }
    if (own === undefined) return undefined;
    const isNew = own.type === "open" || state.decider.calls.length > known;
    const passes = own.type === "open" ? own.text === (fragment ?? "") : !own.held;
    // A name repeated whole in a later delta would be appended by clients that append names.
    const repeatedName = !isNew && typeof name === "string" && name !== "" && name === own.call.call.name;
    const reindexed = own.call.clientIndex !== toolCall.index;
    if (passes && !repeatedName && !reindexed) return toolCall;
    const fn: Record<string, unknown> = { ...(toolCall.function ?? {}) };
    if (repeatedName) delete fn.name;
    if (!passes) {
      if (!isNew) delete fn.arguments;
      else fn.arguments = own.text;
    }
    const hasHeader = toolCall.id != null || toolCall.type != null || fn.name != null;
    if (!passes && !isNew && !hasHeader) return undefined;
    const out: DeltaToolCall = { ...toolCall, index: own.call.clientIndex };
    if (Object.keys(fn).length > 0) out.function = fn as DeltaToolCall["function"];
    else delete out.function;
    return out;
  }

  #finish(choiceIndex: number, state: ChoiceState, finishReason: FinishReason | null): void {
    for (const event of state.decider.finish(finishReason)) this.#event(choiceIndex, event);
  }

  /** A call the decider opened (its header and text so far) or decided (the rest its client needs, and its report). */
  #event(choiceIndex: number, event: StreamEvent): void {
    const call = event.call;
    if (event.type === "open") {
      this.#send(choiceIndex, this.#header(call, event.text));
      return;
    }
    if (event.type === "text") {
      if (event.text !== "")
        this.#send(choiceIndex, { index: call.clientIndex, function: { arguments: event.text } });
      return;
    }
    const decision = event.decision;
    const report = streamReport({
      api: "chat.completions",
      index: choiceIndex,
      id: call.call.id,
      name: call.call.name,
      decision,
      options: this.#options,
    });
    if (report !== undefined) this.reports.push(report);
    if (decision.rest !== "")
      this.#send(choiceIndex, { index: call.clientIndex, function: { arguments: decision.rest } });
    // Calls merged into this one: each further call goes whole, at the index and with the id the decider gave it.
    for (const part of decision.split?.slice(1) ?? [])
      this.#send(choiceIndex, {
        index: part.index,
        id: part.id,
        type: "function",
        function: { name: call.call.name, arguments: part.arguments },
      });
  }

  #header(call: StreamCall, text: string): DeltaToolCall {
    return {
      index: call.clientIndex,
      ...(call.call.id === undefined ? {} : { id: call.call.id }),
      type: "function",
      function: { name: call.call.name, arguments: text },
    };
  }

  #send(choiceIndex: number, toolCall: DeltaToolCall): void {
    const base = this.#baseOf();
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
