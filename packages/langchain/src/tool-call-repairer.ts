import type { BaseMessage } from "@langchain/core/messages";
import { Runnable, type RunnableConfig } from "@langchain/core/runnables";
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

  /** What is repaired. */
  readonly settings: RepairToolCallsOptions;

  constructor(settings: RepairToolCallsOptions = {}) {
    super();
    this.settings = settings;
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
