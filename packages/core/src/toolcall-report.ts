import type { DecodeStatus } from "./types.js";

/**
 * The key under which every adapter puts its {@link ToolcallReport}: `providerMetadata.toolcall` (AI SDK),
 * `response_metadata.toolcall` (LangChain); on HTTP, the `x-toolcall-repairs` header and the end-of-stream
 * `: x-toolcall-repairs {…}` comment carry the same JSON.
 *
 * @example
 * import { TOOLCALL_REPORT_KEY } from "@toolcall/core";
 * TOOLCALL_REPORT_KEY; // "toolcall"
 */
export const TOOLCALL_REPORT_KEY = "toolcall";

/** One call of an answer that was not clean object text, or was recovered from content, as every adapter reports it. */
export interface ToolcallCallReport {
  /** The call's id, as the client got it. */
  id?: string;
  name?: string;
  /** Chat Completions: the choice the call is in. */
  choice?: number;
  /** Responses API: the output item the call is. */
  item?: number;
  /** Core's decode status (`repaired`, `empty`, `truncated`, `invalid`, …), or `recovered` for a call read from content. */
  status: DecodeStatus | "recovered";
  /** The repairs applied, in order (`content-call` for a call read from content, `call_split` for a split). */
  repairs: string[];
  /** Whether a tool can run on the call as the client got it. */
  usable: boolean;
  /** Why it cannot: the first R3 error code (`arguments_truncated`, `arguments_invalid_json`, …). */
  issue?: string;
  /** Streams: how the client's text ends, when not byte for byte the repaired text. */
  fit?: "equivalent" | "conflict";
  /** A call recovered from content: the id of the syntax it was written in (`qwen3-coder`, `gemma4`, …). */
  syntax?: string;
  /** Calls merged into this one's arguments: the ids of the calls it became, its own first. */
  split?: string[];
  /**
   * The arguments as the model wrote them, when they were changed or cannot run (on a call's own metadata; the HTTP
   * header leaves them out).
   */
  raw?: string;
}

/**
 * What an adapter did to one exchange, the same shape at every door (`guardFetch`, `guardOpenAI`, the AI SDK
 * middleware, `withSafeToolCalls`, `guardAnthropic`): handed to `onReport` and put under {@link TOOLCALL_REPORT_KEY}.
 * Plain JSON.
 *
 * @example
 * import type { ToolcallReport } from "@toolcall/core";
 * const report: ToolcallReport = {
 *   history: { "r4-encode": 1 },
 *   calls: [{ id: "call_1", name: "get_weather", status: "recovered", repairs: ["content-call"], usable: true, syntax: "qwen3-coder" }],
 * };
 */
export interface ToolcallReport {
  /** What sanitizing the outgoing history changed, counted by rule (absent: nothing). */
  history?: Record<string, number>;
  /** Each call of the answer that was not clean object text or came from content (absent: none). */
  calls?: ToolcallCallReport[];
}
