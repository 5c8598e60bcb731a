import type OpenAI from "openai";
import { type Fetch, type GuardFetchOptions, guardFetch } from "./guard-fetch.js";

/**
 * What `guardOpenAI` takes: `guardFetch`'s options (core's `ToolcallOptions`, `contentCalls` included), and the
 * `fetch` the client sends with when it has its own.
 */
export interface GuardOpenAIOptions extends GuardFetchOptions {
  /**
   * The `fetch` the guarded client sends with, when the client was built with one of its own (`new OpenAI({ fetch
   * })`): the SDK keeps a client's `fetch` private, so it is given again here. Default: the global `fetch`.
   */
  fetch?: Fetch;
}

/**
 * Guards an `OpenAI` client in one call: a client like it (same configuration, through the SDK's own `withOptions`)
 * whose transport is {@link guardFetch}. Everything the SDK sends and receives goes through it, so every resource and
 * helper is guarded: `chat.completions.create`, `.stream()`, `.runTools()`, `.parse()`, `responses.create`,
 * `.stream()`, `.parse()`, and clients made from it with `withOptions`. Histories are sanitized on the way out (R4),
 * answers repaired whole or streamed (R1, R6, R7, R9); `withResponse()` gives the `x-toolcall-repairs` header. The
 * client passed in is not changed. No private SDK member is used.
 *
 * @example
 * import OpenAI from "openai";
 * import { coreRepairs } from "@toolcall/core";
 * import { guardOpenAI } from "@toolcall/openai";
 *
 * const client = guardOpenAI(new OpenAI(), { repairs: coreRepairs, onReport: (report) => console.warn(report) });
 *
 * // Qwen3-Coder calls a server left in `content`, read into tool calls:
 * import { qwen3Coder } from "@toolcall/model-formats";
 * const recovering = guardOpenAI(new OpenAI(), { repairs: coreRepairs, contentCalls: [qwen3Coder] });
 */
export function guardOpenAI<C extends OpenAI>(client: C, options: GuardOpenAIOptions = {}): C {
  const { fetch, ...repairOptions } = options;
  return client.withOptions({ fetch: guardFetch(fetch, repairOptions) }) as C;
}
