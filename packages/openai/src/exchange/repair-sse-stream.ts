import { parseJson } from "@toolcall/core";
import { numbersRoundTrip, serializeJson } from "@toolcall/core/kit";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import { ChatChunkRepair } from "../chat/chat-chunk-repair.js";
import type { RepairedEvent } from "../repaired-event.js";
import { ResponsesEventRepair } from "../responses/responses-event-repair.js";
import { ArgumentFrames } from "./argument-frames.js";
import { asciiBytes, indexOfBytes, joinBytes, utf8 } from "./bytes.js";
import { REPAIRS_HEADER, RepairSummary } from "./repair-summary.js";
import { parseSseFrame, type SseFrame, SseFrames, writeSseFrame } from "./sse-frames.js";

export type {
  ChunkStep,
  SseFaultVerdict,
  SseRepair,
  SseRepairOptions,
  SseStreamFault,
} from "./sse-repair-types.js";

import type { SseRepair, SseRepairOptions, SseStreamFault } from "./sse-repair-types.js";

interface Read {
  /** The event's bytes: `source[from, to)`. */
  source: Uint8Array;
  from: number;
  to: number;
  frame: SseFrame;
}

type AnyRepair = {
  readonly open: boolean;
  push(value: unknown): Array<RepairedEvent<unknown>>;
  end(): Array<RepairedEvent<unknown>>;
};

const TOOL_CALLS = asciiBytes("tool_calls");
const FUNCTION_CALL = asciiBytes("function_call");
const DONE = asciiBytes("[DONE]");
/** Decodes whole events only (no `stream` option), so one serves every repair. */
const decoder = new TextDecoder();

/**
 * What {@link createSseRepair} hands back: a class with its getter on the prototype. An object literal with a getter
 * is made by V8 (Node 20) where a young-generation collection cannot free it, so it and every closure it reaches (the
 * whole stream's state) survived each collection made while the stream was open, and were copied out of the young
 * generation one stream after another.
 */
class SseRepairHandle implements SseRepair {
  readonly push: SseRepair["push"];
  readonly end: SseRepair["end"];
  readonly #held: () => number;

  constructor(parts: Pick<SseRepair, "push" | "end"> & { held: () => number }) {
    this.push = parts.push;
    this.end = parts.end;
    this.#held = parts.held;
  }

  get heldBytes(): number {
    return this.#held();
  }
}

/**
 * Repairs an SSE answer of the Chat Completions or Responses API as bytes, for every door onto it (a `fetch`
 * body, a `node:http` response): events are found by their blank lines and only events that can hold a tool call
 * (their bytes name `tool_calls` or `function_call`, or a call is open) are read; the rest go on as the very bytes
 * that came, in pieces as large as they came. Events read go through `ChatChunkRepair` or
 * `ResponsesEventRepair`; those handed on unchanged are sent as their own bytes, changed ones as new JSON (every
 * number as written: an event whose numbers would not read back the same is rewritten from a lossless reading).
 * When anything was repaired, a comment `: x-toolcall-repairs {…}` goes before `data: [DONE]` (or at the end): SSE
 * parsers skip comments, so no client is disturbed. No `node:` module: it runs in browsers and edge runtimes too.
 *
 * @example
 * const repair = createSseRepair({ api: "chat.completions", options: { repairs: coreRepairs } });
 * for await (const piece of body) for (const out of repair.push(piece)) write(out);
 * for (const out of repair.end()) write(out);
 */
export function createSseRepair(args: SseRepairOptions): SseRepair {
  const summary = args.summary ?? new RepairSummary(args.options);
  const options = summary.options;
  const chat = args.api === "chat.completions";
  const chatRepair = chat ? new ChatChunkRepair(options) : undefined;
  const repair: AnyRepair = (chatRepair ?? new ResponsesEventRepair(options)) as unknown as AnyRepair;
  // Chat Completions events that carry one argument fragment each are read by their template (no parse).
  const fragments = chat && args.prepare === undefined ? new ArgumentFrames() : undefined;
  const needle = chat ? TOOL_CALLS : FUNCTION_CALL;
  const anchor = needle.indexOf(0x5f);
  const frames = new SseFrames();
  // Events held and handed on later (the Responses API's `.done` events) are written with their own bytes, found
  // here; a Chat Completions chunk is handed on unchanged only as the chunk being read (`current`).
  const reads = chat ? undefined : new WeakMap<object, Read>();
  let current: (Read & { value: unknown }) | undefined;
  let out: Uint8Array[] = [];
  let summarized = false;
  // The last piece to send is kept as a range of its source until something else follows or the pieces are handed
  // on: a run of events that continues it in the same bytes only moves its end (no view per event), and a range that
  // is a whole piece goes on as that piece (no view at all).
  let runBytes: Uint8Array | undefined;
  let runFrom = 0;
  let runTo = 0;
  /** Adds `bytes[from, to)` to send, extending the run in the same bytes when it continues it (no copy). */
  const sendRange = (bytes: Uint8Array, from: number, to: number): void => {
    if (runBytes === bytes && runTo === from) {
      runTo = to;
      return;
    }
    settle();
    runBytes = bytes;
    runFrom = from;
    runTo = to;
  };
  /** Adds a piece to send. */
  const send = (piece: Uint8Array): void => sendRange(piece, 0, piece.length);
  /** Makes the run a piece in `out`. */
  const settle = (): void => {
    const bytes = runBytes;
    if (bytes === undefined) return;
    runBytes = undefined;
    const piece = runFrom === 0 && runTo === bytes.length ? bytes : bytes.subarray(runFrom, runTo);
    // The first piece makes an array of one (a push onto an empty one reserves room for 17, per frame).
    if (out.length === 0) out = [piece];
    else out.push(piece);
  };

  let eventField = false;

  const prepare = chat ? args.prepare : undefined;
  let stopped = false;
  const readAll = args.readAll === true || prepare !== undefined;
  const checkEvents = args.checkEvents === true && !readAll;
  const sendSummary = (): void => {
    if (summarized) return;
    const text = summary.text();
    if (text === undefined) return;
    summarized = true;
    send(utf8(`: ${REPAIRS_HEADER} ${text}\n\n`));
  };

  const write = (result: RepairedEvent<unknown>, read: Read | undefined): void => {
    const value = result.value as Record<string, unknown>;
    if (result.kind === "same") {
      const own = value === current?.value ? current : reads?.get(value);
      if (own !== undefined) {
        sendRange(own.source, own.from, own.to);
        return;
      }
    }
    let data: string | undefined;
    const source = result.kind === "edited" ? (reads?.get(value) ?? read) : undefined;
    if (
      result.kind === "edited" &&
      source?.frame.data !== undefined &&
      !numbersRoundTrip(source.frame.data)
    ) {
      const exact = parseJson(source.frame.data, { lossless: true });
      if (exact.success) {
        const written = serializeJson(result.redo(exact.value));
        if (written.success) data = written.value;
      }
    }
    data ??= JSON.stringify(value);
    const event = chat ? undefined : eventField ? (value.type as string) : undefined;
    send(utf8(writeSseFrame({ event, data, fields: source?.frame.fields ?? [] })));
  };

  /** What the step and the repair still hold, handed on (once). */
  const flush = (): void => {
    if (prepare !== undefined) for (const chunk of prepare.end()) repairChunk(chunk, undefined);
    for (const result of repair.end()) write(result, undefined);
  };

  const repairChunk = (value: unknown, read: (Read & { value: unknown }) | undefined): boolean => {
    current = read;
    let same = false;
    for (const result of repair.push(value as ChatCompletionChunk | ResponseStreamEvent)) {
      if (result.kind === "same" && result.value === value && read !== undefined) same = true;
      write(result, read);
    }
    current = undefined;
    return same;
  };

  const fault = (found: { code: SseStreamFault["code"]; data: string; read: Read }): void => {
    const { code, data, read } = found;
    const verdict =
      args.onFault?.({ code, data, text: decoder.decode(read.source.subarray(read.from, read.to)) }) ??
      "pass";
    if (verdict === "stop") {
      stopped = true;
      return;
    }
    if (verdict === "end") {
      flush();
      stopped = true;
    }
    sendRange(read.source, read.from, read.to);
  };

  /** Reads the event `source[from, to)`. */
  const readFrame = (source: Uint8Array, from: number, to: number): void => {
    const bytes = source.subarray(from, to);
    const frame = parseSseFrame(decoder.decode(bytes));
    const data = frame.data;
    if (data === undefined || data === "[DONE]") {
      if (data !== undefined) {
        flush();
        sendSummary();
      }
      sendRange(source, from, to);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(data);
    } catch {
      fault({ code: "invalid_event", data, read: { source, from, to, frame } });
      return;
    }
    const shaped =
      typeof value === "object" &&
      value !== null &&
      (chat
        ? Array.isArray((value as ChatCompletionChunk).choices)
        : typeof (value as { type?: unknown }).type === "string");
    if (!shaped) {
      const isError =
        typeof value === "object" && value !== null && (value as { error?: unknown }).error !== undefined;
      fault({ code: isError ? "upstream_error" : "invalid_event", data, read: { source, from, to, frame } });
      return;
    }
    if (frame.event !== undefined) eventField = true;
    const read = { source, from, to, frame, value };
    reads?.set(value as object, read);
    if (prepare === undefined) {
      // A chunk held whole (a call that must be repaired at its end) teaches the template as well as one passed on.
      repairChunk(value, read);
      fragments?.learn(bytes, value);
      return;
    }
    // Chunks the step made are new: written as new JSON; the chunk itself, when it comes out, keeps its bytes.
    for (const chunk of prepare.push(value as ChatCompletionChunk))
      repairChunk(chunk, chunk === value ? read : undefined);
  };

  /**
   * Sends `bytes[from, to)`, whole events only: untouched runs as they came, the others read. Each search runs once
   * over the range and again only past the event that held what it found, so an event costs a few byte looks.
   */
  const handle = (bytes: Uint8Array, from: number, to: number): void => {
    let call = readAll ? -1 : indexOfBytes({ haystack: bytes, needle, anchor, from, to });
    // `[DONE]` is looked for once anything was repaired (the summary goes before it), from where that happened.
    let done = -2;
    if (call === -1 && !readAll && !repair.open && !checkEvents && (summarized || summary.empty)) {
      sendRange(bytes, from, to);
      return;
    }
    let runStart = from;
    for (let at = from; at < to && !stopped; ) {
      const end = frames.nextEnd(bytes, at, to);
      const stop = end === -1 ? to : end;
      let read = readAll || repair.open;
      if (call !== -1 && call < stop) {
        read = true;
        call = indexOfBytes({ haystack: bytes, needle, anchor, from: stop, to });
      }
      if (!summarized && !summary.empty) {
        if (done === -2 || (done !== -1 && done < at))
          done = indexOfBytes({ haystack: bytes, needle: DONE, from: at, to });
        if (done !== -1 && done < stop) read = true;
      }
      if (!read && checkEvents && !frames.plainObject(bytes, at, stop)) read = true;
      if (read) {
        const fragment = fragments?.match(bytes, at, stop);
        const passed = fragment === undefined ? undefined : chatRepair?.pushFragment(fragment);
        if (passed !== true) {
          if (runStart < at) sendRange(bytes, runStart, at);
          // A held fragment's event is left out (it carried nothing else).
          if (passed === undefined) readFrame(bytes, at, stop);
          runStart = stop;
        }
      }
      at = stop;
    }
    if (runStart < to && !stopped) sendRange(bytes, runStart, to);
  };

  // One piece out per piece in when joining is cheap (each piece costs a reader a turn of its loop, more than a small
  // copy); a few large ones (a read's bytes after an event it finished) go on as they are, not copied again.
  const coalesced = (): Uint8Array[] => {
    settle();
    if (out.length <= 1) return out;
    let size = 0;
    for (const piece of out) size += piece.length;
    return out.length <= 3 && size > 1024 ? out : [joinBytes(out)];
  };

  // What came after the last whole event, in the pieces it came in: joined once, when an event ends.
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  const tail: [number, number] = [-1, -1];

  return new SseRepairHandle({
    held: () => pendingBytes,
    push(chunk) {
      out = [];
      if (chunk.length === 0 || stopped) return out;
      const before0 = tail[0];
      const before1 = tail[1];
      const whole = frames.lastEnd(chunk, tail);
      if (chunk.length >= 2) {
        tail[0] = chunk[chunk.length - 2] as number;
        tail[1] = chunk[chunk.length - 1] as number;
      } else {
        tail[0] = tail[1];
        tail[1] = chunk[0] as number;
      }
      if (whole === 0) {
        pending.push(chunk);
        pendingBytes += chunk.length;
        return out;
      }
      let from = 0;
      if (pending.length > 0) {
        // The event that began in earlier pieces is joined alone; the rest of this piece is read where it lies.
        const first = frames.firstEnd(chunk, [before0, before1]);
        const head = joinBytes([...pending, chunk.subarray(0, first)]);
        pending = [];
        pendingBytes = 0;
        handle(head, 0, head.length);
        from = first;
      }
      if (whole < chunk.length) {
        pending.push(chunk.subarray(whole));
        pendingBytes = chunk.length - whole;
      }
      if (from < whole && !stopped) handle(chunk, from, whole);
      return coalesced();
    },
    end() {
      out = [];
      if (stopped) return out;
      // An event the body ended in, without its blank line, is still read (and sent as it came when untouched).
      if (pending.length > 0) {
        const rest = joinBytes(pending);
        pending = [];
        pendingBytes = 0;
        handle(rest, 0, rest.length);
      }
      if (stopped) return coalesced();
      flush();
      sendSummary();
      summary.done();
      return coalesced();
    },
  });
}

/**
 * {@link createSseRepair} over a web byte stream: the repaired body, read from `body` as its reader asks (one read of
 * the source per piece handed on, no transform queue in between); cancelling it cancels the source.
 *
 * @example
 * const repaired = repairSseStream(response.body, { api: "chat.completions", options: { repairs: coreRepairs } });
 */
export function repairSseStream(
  body: ReadableStream<Uint8Array>,
  args: SseRepairOptions,
): ReadableStream<Uint8Array> {
  const repair = createSseRepair(args);
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) {
          for (const piece of repair.end()) controller.enqueue(piece);
          controller.close();
          return;
        }
        const pieces = repair.push(value);
        if (pieces.length === 0) continue;
        for (const piece of pieces) controller.enqueue(piece);
        return;
      }
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}
