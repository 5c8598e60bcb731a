import type { ProviderOption, SanitizeChange, SanitizeOptions } from "@toolcall/core";
import type { LanguageModelMiddleware } from "ai";
import type { CallOptions } from "./ai-sdk-types.js";
import type { DecideOptions } from "./decide-tool-call.js";
import { repairGenerateResult } from "./repair-generate-result.js";
import { repairToolCallStream } from "./repair-tool-call-stream.js";
import { sanitizeAiSdkMessages } from "./sanitize-model-messages.js";

export interface ToolcallMiddlewareOptions extends DecideOptions {
  /**
   * Sanitize the prompt's history before each call (R4): `true` (default) with core's defaults, an object with R4's
   * options (`policy`, `missingResult`, `syntheticResult`; the repairs are this middleware's), or `false`.
   */
  sanitize?: boolean | Omit<SanitizeOptions, "repairs" | "provider">;
  /**
   * The provider the model's requests go to (`"mistral"`, `"anthropic"`, `"qwen-dashscope"` …; see core's
   * `listProviderProfiles`): the prompt is also made one that provider accepts (ids, roles, reasoning …), as core's
   * `sanitizeHistory` does with a provider profile.
   */
  provider?: ProviderOption;
}

/**
 * A language-model middleware (`LanguageModelMiddleware`, specification V3) for `wrapLanguageModel`: the prompt's
 * history is sanitized before each call (R4: a call the SDK kept as the model's broken text, or as an array, is
 * replayed as a JSON object a strict provider accepts, repaired when a named repair can, else under
 * `_raw_arguments`; with `provider`, also what that provider's profile asks: ids, roles, reasoning); each tool call of the answer is decided knowing why the model stopped (`doGenerate`: all at
 * once; `doStream`: by core's `StreamDecider`, text passes as it comes, a call's tool-input deltas pass while its
 * input can still begin a JSON object and are held from there, and a `tool-call` part waits only until it can be
 * decided): repaired calls run, a call cut by a length stop never does. What it did is reported in
 * `providerMetadata.toolcall` (per call, and summed up on the answer or the `finish` part).
 *
 * @example
 * const model = wrapLanguageModel({
 *   model: provider.chatModel("qwen3"),
 *   middleware: toolcallMiddleware({ repairs: coreRepairs }),
 * });
 */
export function toolcallMiddleware(options: ToolcallMiddlewareOptions = {}): LanguageModelMiddleware {
  const decideOptions: DecideOptions = {
    ...(options.repairs === undefined ? {} : { repairs: options.repairs }),
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }),
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
      return repairGenerateResult(await doGenerate(), decideOptions, historyOf.get(params));
    },
    async wrapStream({ doStream, params }) {
      const result = await doStream();
      return {
        ...result,
        stream: repairToolCallStream(result.stream, decideOptions, historyOf.get(params)),
      };
    },
  };
}
