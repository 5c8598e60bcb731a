import type { BaseMessage } from "@langchain/core/messages";
import { Runnable, type RunnableConfig } from "@langchain/core/runnables";
import type { ToolcallOptions } from "@toolcall/core";
import { contentCallSyntaxes } from "@toolcall/model-formats";
import { repairToolCallStream } from "./repair-tool-call-stream.js";
import { type RepairToolCallsOptions, repairToolCalls } from "./repair-tool-calls.js";

/**
 * A `Runnable` that repairs the tool calls of the AI message it receives, for LCEL pipelines:
 * `model.pipe(createToolCallRepairer())`. Streams stay streams: text passes through as it arrives and each call is
 * decided once by core's `StreamDecider` (see `repairToolCallStream`). Other messages pass through unchanged.
 *
 * @example
 * const chain = prompt.pipe(model.bindTools(tools)).pipe(new ToolCallRepairer({ repairs: coreRepairs }));
 */
export class ToolCallRepairer extends Runnable<BaseMessage, BaseMessage> {
  static override lc_name(): string {
    return "ToolCallRepairer";
  }

  lc_namespace = ["toolcall", "langchain"];

  /** What is repaired (`contentCalls` resolved to syntaxes). */
  readonly settings: RepairToolCallsOptions;

  /**
   * `settings`: `repairToolCalls`' options, with `contentCalls` as every door takes it (core's `ToolcallOptions`:
   * syntaxes, or `"auto"` with `chatTemplate`; an error here when detection is not sure).
   */
  constructor(
    settings: Omit<RepairToolCallsOptions, "contentCalls"> &
      Pick<ToolcallOptions, "contentCalls" | "chatTemplate"> = {},
  ) {
    super();
    const { contentCalls, chatTemplate, ...rest } = settings;
    const syntaxes = contentCallSyntaxes({ contentCalls, chatTemplate });
    if (!syntaxes.success) throw new TypeError(`${syntaxes.error.message} (${syntaxes.error.code})`);
    this.settings = syntaxes.value.length === 0 ? rest : { ...rest, contentCalls: syntaxes.value };
  }

  async invoke(input: BaseMessage, options?: Partial<RunnableConfig>): Promise<BaseMessage> {
    const repair = async (message: BaseMessage) => repairToolCalls(message, this.settings).message;
    return this._callWithConfig(repair, input, options);
  }

  async *_transform(generator: AsyncGenerator<BaseMessage>): AsyncGenerator<BaseMessage> {
    yield* repairToolCallStream(generator, this.settings);
  }

  override transform(
    generator: AsyncGenerator<BaseMessage>,
    options?: Partial<RunnableConfig>,
  ): AsyncGenerator<BaseMessage> {
    return this._transformStreamWithConfig(generator, this._transform.bind(this), options);
  }
}
