import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type {
  BaseLanguageModelInput,
  StructuredOutputMethodOptions,
} from "@langchain/core/language_models/base";
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
  type LangSmithParams,
} from "@langchain/core/language_models/chat_models";
import type { AIMessageChunk, BaseMessage, InvalidToolCall } from "@langchain/core/messages";
import { ChatGenerationChunk, type ChatResult } from "@langchain/core/outputs";
import { type Runnable, RunnableLambda } from "@langchain/core/runnables";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { toJsonSchema } from "@langchain/core/utils/json_schema";
import type { SerializableSchema } from "@langchain/core/utils/standard_schema";
import type { InteropZodType } from "@langchain/core/utils/types";
import type { ToolcallOptions } from "@toolcall/core";
import type { ToolCallSyntax } from "@toolcall/core/kit";
import { contentCallSyntaxes } from "@toolcall/model-formats";
import { repairToolCallStream } from "./repair-tool-call-stream.js";
import { type RepairToolCallsOptions, repairToolCalls } from "./repair-tool-calls.js";
import { sanitizeMessages } from "./sanitize-messages.js";
import { safeStructuredOutput } from "./structured-output.js";

/** The chat model itself under the bindings `bindTools` and `withConfig` make (`undefined` when there is none). */
function innerChatModel(model: ChatModelLike): BaseChatModel | undefined {
  let current: unknown = model;
  for (let depth = 0; depth < 16 && typeof current === "object" && current !== null; depth++) {
    const candidate = current as { _llmType?: unknown; getLsParams?: unknown; bound?: unknown };
    if (typeof candidate._llmType === "function" && typeof candidate.getLsParams === "function")
      return candidate as BaseChatModel;
    current = candidate.bound;
  }
  return undefined;
}

type StructuredSchema<T> = InteropZodType<T> | SerializableSchema<T> | Record<string, unknown>;

/** A chat model, or a chat model with tools bound (what `bindTools` returns). */
export type ChatModelLike = Runnable<BaseLanguageModelInput, BaseMessage> & {
  bindTools?(tools: BindToolsInput[], kwargs?: Record<string, unknown>): ChatModelLike;
};

/**
 * What `withSafeToolCalls` takes: core's `ToolcallOptions` (the same names and meanings at every door: `repairs`,
 * `provider`, `sanitize`, `contentCalls`, `chatTemplate`, `splitMergedCalls`, `onReport`), and this package's own
 * (`finishReason`, `lossless`, `maxDepth`, `tools`).
 */
export interface SafeToolCallsOptions
  extends Omit<RepairToolCallsOptions, "contentCalls" | "onReport" | "recovered">,
    ToolcallOptions {}

/** What `SafeToolCallsChatModel` is built from: the model to guard and the options of every door. */
export interface SafeToolCallsChatModelFields extends SafeToolCallsOptions, BaseChatModelParams {
  /** The model to guard: any LangChain chat model (`ChatOpenAI`, …) or one with tools bound. */
  model: ChatModelLike;
}

/**
 * A chat model that guards another one: the history is sanitized before each call (R4: no stored arguments a
 * strict provider rejects, every `ToolMessage` paired with its call), and the output's tool calls are repaired
 * with core's rules, whole or streamed (see `repairToolCalls`, `repairToolCallStream`). `bindTools` binds on the
 * guarded model and stays guarded, so agents that bind tools themselves keep the protection.
 *
 * @example
 * const model = new SafeToolCallsChatModel({ model: new ChatOpenAI({ model: "gpt-4.1" }), repairs: coreRepairs });
 * const message = await model.bindTools([weather]).invoke(history);
 */
type StreamEvents = ReturnType<BaseChatModel["_streamChatModelEvents"]>;
type StreamEvent = StreamEvents extends AsyncGenerator<infer E> ? E : never;

/** A LangChain chat model that wraps another and repairs, decides and reports its tool calls, whole and streamed (what `withSafeToolCalls` returns). */
export class SafeToolCallsChatModel extends BaseChatModel<BaseChatModelCallOptions, AIMessageChunk> {
  static override lc_name(): string {
    return "SafeToolCallsChatModel";
  }

  override lc_serializable = false;

  /** The guarded model. */
  readonly model: ChatModelLike;

  /** What is repaired and sanitized. */
  readonly settings: SafeToolCallsOptions;

  // The invalid calls of the stream run with these options, for the content-block event protocol.
  readonly #invalidCalls = new WeakMap<object, InvalidToolCall[]>();

  // Runs of the content-block event protocol, whose bridge cannot merge a call's fragments: calls go whole.
  readonly #wholeCalls = new WeakSet<object>();

  /** The syntaxes calls left in text are read in (`contentCalls`, `"auto"` resolved). */
  readonly #syntaxes: readonly ToolCallSyntax[];

  constructor(fields: SafeToolCallsChatModelFields) {
    const {
      model,
      repairs,
      finishReason,
      lossless,
      maxDepth,
      sanitize,
      provider,
      contentCalls,
      chatTemplate,
      splitMergedCalls,
      onReport,
      tools,
      ...params
    } = fields;
    super(params);
    this.model = model;
    this.settings = {
      repairs,
      finishReason,
      lossless,
      maxDepth,
      sanitize,
      provider,
      contentCalls,
      chatTemplate,
      splitMergedCalls,
      onReport,
      tools,
    };
    const syntaxes = contentCallSyntaxes({ contentCalls, chatTemplate });
    if (!syntaxes.success) throw new TypeError(`${syntaxes.error.message} (${syntaxes.error.code})`);
    this.#syntaxes = syntaxes.value;
  }

  _llmType(): string {
    return "toolcall-safe";
  }

  #repairOptions(): RepairToolCallsOptions {
    const { repairs, finishReason, lossless, maxDepth, tools, onReport, splitMergedCalls } = this.settings;
    return {
      ...(splitMergedCalls === undefined ? {} : { splitMergedCalls }),
      ...(maxDepth === undefined ? {} : { maxDepth }),
      ...(repairs === undefined ? {} : { repairs }),
      ...(finishReason === undefined ? {} : { finishReason }),
      ...(lossless === undefined ? {} : { lossless }),
      ...(tools === undefined ? {} : { tools }),
      ...(this.#syntaxes.length === 0 ? {} : { contentCalls: this.#syntaxes }),
      ...(onReport === undefined ? {} : { onReport }),
    };
  }

  #sanitized(messages: BaseMessage[]): BaseMessage[] {
    const { sanitize, repairs, provider } = this.settings;
    if (sanitize === false) return messages;
    return sanitizeMessages(messages, {
      ...(sanitize === true || sanitize === undefined ? {} : sanitize),
      ...(repairs === undefined ? {} : { repairs }),
      ...(provider === undefined ? {} : { provider }),
    }).messages;
  }

  #innerOptions(options: this["ParsedCallOptions"]): Record<string, unknown> {
    // The guarded model reports to no callback: this model's run reports the repaired output, and handlers that
    // stream tokens would otherwise also receive the raw ones.
    return { ...options, callbacks: [] };
  }

  async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    _runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const output = await this.model.invoke(this.#sanitized(messages), this.#innerOptions(options));
    const { message } = repairToolCalls(output, this.#repairOptions());
    return { generations: [{ text: message.text, message }] };
  }

  override async *_streamResponseChunks(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): AsyncGenerator<ChatGenerationChunk> {
    const stream = await this.model.stream(this.#sanitized(messages), this.#innerOptions(options));
    const wholeCalls = this.#wholeCalls.has(options);
    for await (const message of repairToolCallStream(stream, { ...this.#repairOptions(), wholeCalls })) {
      const invalid = (message as AIMessageChunk).invalid_tool_calls ?? [];
      if (invalid.length > 0) this.#invalidCalls.set(options, invalid);
      const chunk = new ChatGenerationChunk({ message: message as AIMessageChunk, text: message.text });
      yield chunk;
      await runManager?.handleLLMNewToken(chunk.text, undefined, undefined, undefined, undefined, { chunk });
    }
  }

  /**
   * The content-block event protocol (`streamEvents()` without a version) is bridged from the repaired chunks by
   * LangChain; it reads calls from `tool_call_chunks` only, so the invalid calls are added as `invalid_tool_call`
   * blocks before the message finishes, as LangChain reports calls it cannot parse.
   */
  override async *_streamChatModelEvents(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
    runManager?: CallbackManagerForLLMRun,
  ): StreamEvents {
    let next = 0;
    this.#wholeCalls.add(options);
    for await (const event of super._streamChatModelEvents(messages, options, runManager)) {
      const found = event as StreamEvent & { event: string; index?: number };
      if (typeof found.index === "number") next = Math.max(next, found.index + 1);
      if (found.event === "message-finish") {
        for (const call of this.#invalidCalls.get(options) ?? []) {
          const content = { ...call, type: "invalid_tool_call" } as never;
          const index = next++;
          yield { event: "content-block-start", index, content } as StreamEvent;
          yield { event: "content-block-finish", index, content } as StreamEvent;
        }
      }
      yield event;
    }
  }

  /**
   * Tracing names the model that answers: the wrapped model's `ls_provider`, `ls_model_name` and settings, not the
   * wrapper's class.
   */
  override getLsParams(options: this["ParsedCallOptions"]): LangSmithParams {
    const own = super.getLsParams(options);
    const inner = innerChatModel(this.model);
    return inner === undefined ? own : { ...own, ...inner.getLsParams(options) };
  }

  /**
   * Structured output through the wrapped model's own `withStructuredOutput` (its method and parser), with the
   * history sanitized and the answer repaired when that parser cannot read it (see `safeStructuredOutput`). A wrapped
   * model without one gets a tool call through this wrapper, read the same way.
   */
  override withStructuredOutput<RunOutput extends Record<string, unknown> = Record<string, unknown>>(
    outputSchema: StructuredSchema<RunOutput>,
    config?: StructuredOutputMethodOptions<false>,
  ): Runnable<BaseLanguageModelInput, RunOutput>;
  override withStructuredOutput<RunOutput extends Record<string, unknown> = Record<string, unknown>>(
    outputSchema: StructuredSchema<RunOutput>,
    config?: StructuredOutputMethodOptions<true>,
  ): Runnable<BaseLanguageModelInput, { raw: BaseMessage; parsed: RunOutput }>;
  override withStructuredOutput<RunOutput extends Record<string, unknown> = Record<string, unknown>>(
    outputSchema: StructuredSchema<RunOutput>,
    config?: StructuredOutputMethodOptions<boolean>,
  ):
    | Runnable<BaseLanguageModelInput, RunOutput>
    | Runnable<BaseLanguageModelInput, { raw: BaseMessage; parsed: RunOutput }> {
    const schema = outputSchema as Record<string, unknown>;
    const inner = innerChatModel(this.model) as
      | (BaseChatModel & { withStructuredOutput?: (schema: unknown, config: unknown) => Runnable })
      | undefined;
    const structured =
      typeof inner?.withStructuredOutput === "function"
        ? inner.withStructuredOutput(outputSchema, { ...config, includeRaw: true })
        : this.#toolCallOutput(schema, config);
    return safeStructuredOutput({
      structured: structured as Runnable<BaseLanguageModelInput, { raw: BaseMessage; parsed: unknown }>,
      toMessages: (input) =>
        this.#sanitized(SafeToolCallsChatModel._convertInputToPromptValue(input).toChatMessages()),
      schema,
      config,
      options: this.#repairOptions(),
    }) as Runnable<BaseLanguageModelInput, RunOutput>;
  }

  /** A structured-output tool call through this wrapper, for a wrapped model with no structured output of its own. */
  #toolCallOutput(
    schema: Record<string, unknown>,
    config: StructuredOutputMethodOptions<boolean> | undefined,
  ) {
    const name = config?.name ?? "extract";
    const bound = this.bindTools([
      {
        type: "function",
        function: { name, parameters: toJsonSchema(schema as never) as Record<string, unknown> },
      },
    ]);
    return RunnableLambda.from(async (messages: BaseMessage[], runConfig) => ({
      raw: await bound.invoke(messages, runConfig),
      parsed: null,
    }));
  }

  override bindTools(
    tools: BindToolsInput[],
    kwargs?: Partial<BaseChatModelCallOptions>,
  ): SafeToolCallsChatModel {
    const bindTools = this.model.bindTools;
    if (typeof bindTools !== "function") {
      throw new TypeError("SafeToolCallsChatModel.bindTools: the guarded model has no bindTools");
    }
    return new SafeToolCallsChatModel({
      ...this.settings,
      // The tools bound type each call's arguments by their schemas (unless the options named tools).
      tools: this.settings.tools ?? toolSchemas(tools),
      model: bindTools.call(this.model, tools, kwargs as Record<string, unknown>),
    });
  }
}

/** The bound tools in OpenAI's shape (what types the calls), those LangChain cannot convert left out. */
function toolSchemas(tools: readonly BindToolsInput[]): unknown[] {
  return tools.flatMap((tool) => {
    try {
      return [convertToOpenAITool(tool as never)];
    } catch {
      return [];
    }
  });
}

/**
 * Guards a LangChain chat model in one line: histories are sanitized before each call so strict providers stop
 * answering HTTP 400 (session poisoning), and tool calls in its output, whole or streamed, are repaired with core's
 * rules. Repairs are opt-in, as in core: pass `coreRepairs` and any others (e.g. `gemmaQuoteMarkers`).
 *
 * @example
 * import { ChatOpenAI } from "@langchain/openai";
 * import { coreRepairs, withSafeToolCalls } from "@toolcall/langchain";
 *
 * const model = withSafeToolCalls(new ChatOpenAI({ model: "gpt-4.1" }), { repairs: coreRepairs });
 * const message = await model.bindTools([weather]).invoke(history);
 * message.tool_calls; // what can run; message.invalid_tool_calls: what cannot, with an issue code
 */
export function withSafeToolCalls(
  model: ChatModelLike,
  options: SafeToolCallsOptions = {},
): SafeToolCallsChatModel {
  return new SafeToolCallsChatModel({ ...options, model });
}
