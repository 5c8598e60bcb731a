import type { SanitizeChange, SanitizeOptions, ToolcallOptions } from "@toolcall/core";
import type { ToolCallSyntax } from "@toolcall/core/kit";
import { contentCallSyntaxes } from "@toolcall/model-formats";
import type { LanguageModelMiddleware } from "ai";
import type { CallOptions } from "./ai-sdk-types.js";
import { repairGenerateResult } from "./repair-generate-result.js";
import { repairToolCallStream } from "./repair-tool-call-stream.js";
import { sanitizeAiSdkMessages } from "./sanitize-model-messages.js";

/** `toolcallMiddleware`'s options: core's `ToolcallOptions`, and the nesting limit. */
export interface ToolcallMiddlewareOptions extends ToolcallOptions {
  /** Nesting limit for argument text (default 1000, core's); deeper text is `invalid`. */
  maxDepth?: number;
}

/**
 * The syntaxes a door reads content calls in (model-formats' `contentCallSyntaxes`), or an error thrown at
 * construction: a door asked to guess a syntax it cannot name must not run calls the model did not write.
 *
 * @example
 * resolveContentCalls({ contentCalls: [qwen3Coder] }); // [qwen3Coder]
 */
export function resolveContentCalls(
  options: Pick<ToolcallOptions, "contentCalls" | "chatTemplate">,
): readonly ToolCallSyntax[] {
  const resolved = contentCallSyntaxes(options);
  if (!resolved.success) throw new TypeError(`${resolved.error.message} (${resolved.error.code})`);
  return resolved.value;
}

/** The request's function tools as `{ name, parameters }`: what types each call's arguments. */
function toolsOf(params: CallOptions): { name: string; parameters: unknown }[] {
  const tools: { name: string; parameters: unknown }[] = [];
  for (const tool of params.tools ?? [])
    if (tool.type === "function") tools.push({ name: tool.name, parameters: tool.inputSchema });
  return tools;
}

/**
 * A language-model middleware (`LanguageModelMiddleware`, specification V3) for `wrapLanguageModel`: the prompt's
 * history is sanitized before each call (R4: a call the SDK kept as the model's broken text, or as an array, is
 * replayed as a JSON object a strict provider accepts, repaired when a named repair can, else under
 * `_raw_arguments`; with `provider`, also what that provider's profile asks: ids, roles, reasoning); each tool call
 * of the answer is decided knowing why the model stopped (`doGenerate`: all at once; `doStream`: by core's
 * `StreamDecider`, text passes as it comes, a call's tool-input deltas pass while its input can still begin a JSON
 * object and are held from there, and a `tool-call` part waits only until it can be decided): repaired calls run, a
 * call cut by a length stop never does. Each call is typed by its tool's `inputSchema` (lossless conversions only).
 * With `contentCalls`, calls a server left in the text are read out and decided like the others; with
 * `splitMergedCalls`, merged calls become one call each, whole or streamed. What it did is reported in
 * `providerMetadata.toolcall` (per call, and as core's `ToolcallReport` on the answer or the `finish` part) and to
 * `onReport`. Throws at construction when `contentCalls: "auto"` cannot name the template's syntax.
 *
 * @example
 * const model = wrapLanguageModel({
 *   model: provider.chatModel("qwen3"),
 *   middleware: toolcallMiddleware({ repairs: coreRepairs }),
 * });
 */
export function toolcallMiddleware(options: ToolcallMiddlewareOptions = {}): LanguageModelMiddleware {
  const contentCalls = resolveContentCalls(options);
  const decideOptions = {
    ...(options.repairs === undefined ? {} : { repairs: options.repairs }),
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
    ...(options.splitMergedCalls === undefined ? {} : { splitMergedCalls: options.splitMergedCalls }),
    ...(contentCalls.length === 0 ? {} : { contentCalls }),
    ...(options.onReport === undefined ? {} : { onReport: options.onReport }),
  };
  const sanitize = options.sanitize ?? true;
  // What sanitizing changed, by the params object the model is called with (the transformed one).
  const historyOf = new WeakMap<object, SanitizeChange[]>();
  return {
    specificationVersion: "v3",
    async transformParams({ params }) {
      if (sanitize === false) return params;
      const sanitizeOptions: SanitizeOptions = {
        ...(sanitize === true ? {} : sanitize),
        ...(options.repairs === undefined ? {} : { repairs: options.repairs }),
        ...(options.provider === undefined ? {} : { provider: options.provider }),
      };
      const result = sanitizeAiSdkMessages(params.prompt, sanitizeOptions, "prompt");
      if (result.messages === params.prompt) return params;
      const next: CallOptions = { ...params, prompt: result.messages };
      historyOf.set(next, result.changes);
      return next;
    },
    async wrapGenerate({ doGenerate, params }) {
      const history = historyOf.get(params);
      return repairGenerateResult({
        ...decideOptions,
        result: await doGenerate(),
        tools: toolsOf(params),
        ...(history === undefined ? {} : { history }),
      });
    },
    async wrapStream({ doStream, params }) {
      const result = await doStream();
      const history = historyOf.get(params);
      return {
        ...result,
        stream: repairToolCallStream({
          ...decideOptions,
          stream: result.stream,
          tools: toolsOf(params),
          ...(history === undefined ? {} : { history }),
        }),
      };
    },
  };
}
