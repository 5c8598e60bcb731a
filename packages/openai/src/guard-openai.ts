import type OpenAI from "openai";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionCreateParams,
} from "openai/resources/chat/completions";
import type {
  Response,
  ResponseCreateParams,
  ResponseStreamEvent,
} from "openai/resources/responses/responses";
import type { OpenAIRepairOptions } from "./options.js";
import { repairChatCompletion } from "./repair-chat-completion.js";
import { repairChatCompletionStream } from "./repair-chat-completion-stream.js";
import { repairResponse } from "./repair-response.js";
import { repairResponseStream } from "./repair-response-stream.js";
import { sanitizeChatMessages } from "./sanitize-chat-messages.js";
import { sanitizeResponseInput } from "./sanitize-response-input.js";

/** The SDK's `Stream`: an async iterable with a controller, rebuilt with the same class so its type holds. */
interface SdkStream<T> extends AsyncIterable<T> {
  controller: AbortController;
}

function isSdkStream<T>(value: unknown): value is SdkStream<T> {
  return (
    typeof value === "object" && value !== null && Symbol.asyncIterator in value && "controller" in value
  );
}

function rewrapStream<T>(stream: SdkStream<T>, repaired: AsyncIterable<T>): SdkStream<T> {
  const StreamClass = stream.constructor as new (
    iterator: () => AsyncIterator<T>,
    controller: AbortController,
  ) => SdkStream<T>;
  return new StreamClass(() => repaired[Symbol.asyncIterator](), stream.controller);
}

/** The SDK's promise keeps `withResponse()` and `asResponse()` when transformed with its own `_thenUnwrap`. */
interface ThenUnwrap {
  _thenUnwrap?: (transform: (data: unknown) => unknown) => unknown;
}

function transform(promise: unknown, repair: (data: unknown) => unknown): unknown {
  const unwrap = (promise as ThenUnwrap)._thenUnwrap;
  if (typeof unwrap === "function") return unwrap.call(promise, repair);
  return (promise as Promise<unknown>).then(repair);
}

type Create = (body: unknown, requestOptions?: unknown) => unknown;

function guardChatCreate(create: Create, options: OpenAIRepairOptions): Create {
  return (body, requestOptions) => {
    const params = body as ChatCompletionCreateParams;
    const { messages } = sanitizeChatMessages(params.messages, options);
    const sent = messages === params.messages ? params : { ...params, messages };
    return transform(create(sent, requestOptions), (data) =>
      isSdkStream<ChatCompletionChunk>(data)
        ? rewrapStream(data, repairChatCompletionStream(data, options))
        : repairChatCompletion(data as ChatCompletion, options).completion,
    );
  };
}

function guardResponsesCreate(create: Create, options: OpenAIRepairOptions): Create {
  return (body, requestOptions) => {
    const params = body as ResponseCreateParams;
    const { input } =
      params.input === undefined ? { input: undefined } : sanitizeResponseInput(params.input, options);
    const sent = input === params.input ? params : { ...params, input };
    return transform(create(sent, requestOptions), (data) =>
      isSdkStream<ResponseStreamEvent>(data)
        ? rewrapStream(data, repairResponseStream(data, options))
        : repairResponse(data as Response, options).response,
    );
  };
}

/** A view of `target` whose listed members are replaced; everything else is the target's own, bound to it. */
function overlay<T extends object>(target: T, members: Record<PropertyKey, unknown>): T {
  return new Proxy(target, {
    get(object, key) {
      if (Object.hasOwn(members, key)) return members[key];
      const value = Reflect.get(object, key, object);
      return typeof value === "function" ? value.bind(object) : value;
    },
  });
}

/**
 * Guards an `OpenAI` client in one call: `chat.completions.create` and `responses.create`, streaming or not,
 * sanitize the history they send (R4) and repair the tool calls they get back (R1, R6, R9), keeping the SDK's
 * types, options and promise (`withResponse()` still works). The client itself is not changed; the guarded view
 * shares its configuration and connections. Repairs are configurable (add `gemmaQuoteMarkers` for Gemma 4 behind
 * vLLM), and `onRepair` reports every change.
 *
 * @example
 * import OpenAI from "openai";
 * import { coreRepairs } from "@toolcall/core";
 * import { guardOpenAI } from "@toolcall/openai";
 *
 * const client = guardOpenAI(new OpenAI(), { repairs: coreRepairs, onRepair: (report) => console.warn(report) });
 */
export function guardOpenAI<C extends OpenAI>(client: C, options: OpenAIRepairOptions = {}): C {
  const completions = client.chat.completions;
  const chat = overlay(client.chat, {
    completions: overlay(completions, {
      create: guardChatCreate(completions.create.bind(completions) as Create, options),
    }),
  });
  const responses = overlay(client.responses, {
    create: guardResponsesCreate(client.responses.create.bind(client.responses) as Create, options),
  });
  return overlay(client, { chat, responses });
}
