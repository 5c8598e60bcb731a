// The shapes of the byte-level SSE repair: what `createSseRepair` takes, what it returns, what it tells of a fault.
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { OpenAIApi, OpenAIRepairOptions } from "../options.js";
import type { RepairSummary } from "./repair-summary.js";

/** Something in the stream the repair could not read. */
export interface SseStreamFault {
  code: "invalid_event" | "upstream_error";
  /** The event's data. */
  data: string;
  /** The event as it came (its lines and blank line). */
  text: string;
}

/**
 * What becomes of the stream after a fault: `pass` (default) hands the event on as it came and goes on; `end` hands
 * on what the repair holds, then the event, and reads nothing more; `stop` hands on nothing more (the caller ends
 * the stream its own way, with an error of its own).
 */
export type SseFaultVerdict = "pass" | "end" | "stop";

/** A step on Chat Completions chunks before the repair (native calls left in content, for instance). */
export interface ChunkStep {
  /** The chunks one chunk gives (itself when unchanged). */
  push(chunk: ChatCompletionChunk): ChatCompletionChunk[];
  /** What the step still holds when the stream ends. */
  end(): ChatCompletionChunk[];
}

/** What `createSseRepair` takes: the API the stream speaks, the repair options, and where to collect the exchange's repairs. */
export interface SseRepairOptions {
  api: OpenAIApi;
  /** Repairs, `onRepair`, … (`sanitize` is not used on an answer). */
  options?: OpenAIRepairOptions;
  /** Where the exchange's repairs are collected (one is made when not given). */
  summary?: RepairSummary;
  /**
   * Told of an event that is not JSON or not of the API's shape (`invalid_event`), or an error object a server put
   * in the stream (`upstream_error`); what it returns decides what follows (default `pass`: the event goes on as
   * it came).
   */
  onFault?: (fault: SseStreamFault) => SseFaultVerdict | undefined;
  /** Chat Completions: a step every chunk goes through before the repair; every event is then read. */
  prepare?: ChunkStep;
  /**
   * Read every event, so one that is not JSON or not of the API's shape is always found (`onFault`); by default
   * events that cannot hold a call go on unread, and a client's own parser reports such an event. Costs a parse per
   * event.
   */
  readAll?: boolean;
  /**
   * Events left unread are still checked by their bytes (`data: {…}` on one line, not opening with an `"error"` key
   * or `"object":"error"`): one that is not plainly such a JSON object is read, so `onFault` hears of it. A few byte
   * looks per event, no search and no parse.
   */
  checkEvents?: boolean;
}

/** The byte-level stream repair: pieces of an SSE body in, the pieces to send out. */
export interface SseRepair {
  /** Reads a piece of the body; returns what to send now (pieces of the input itself where nothing changed). */
  push(chunk: Uint8Array): Uint8Array[];
  /** The body ended: what is still held, and the summary comment when anything was repaired. */
  end(): Uint8Array[];
  /** Bytes of an event not yet ended (held until its blank line comes): for a caller that bounds an event's size. */
  readonly heldBytes: number;
}
