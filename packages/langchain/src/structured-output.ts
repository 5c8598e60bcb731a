import type {
  BaseLanguageModelInput,
  StructuredOutputMethodOptions,
} from "@langchain/core/language_models/base";
import { type AIMessage, AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { OutputParserException } from "@langchain/core/output_parsers";
import { type Runnable, RunnableLambda, RunnableSequence } from "@langchain/core/runnables";
import { interopSafeParseAsync, isInteropZodSchema } from "@langchain/core/utils/types";
import { decodeArguments, isRawSentinel } from "@toolcall/core";
import { isDecodedToObject, isPlainObject } from "@toolcall/core/kit";
import { finishReasonOf } from "./finish-reason.js";
import { type RepairToolCallsOptions, repairToolCalls } from "./repair-tool-calls.js";

/** The key of `response_metadata` where a structured answer whose text was repaired records how. */
export const STRUCTURED_OUTPUT_KEY = "structured_output_decision";

type Schema = Record<string, unknown>;

/** The name the structured-output tool is called by (what LangChain's own implementations pick). */
function functionNameOf(schema: Schema, config: StructuredOutputMethodOptions<boolean> | undefined): string {
  if (typeof config?.name === "string") return config.name;
  if (!isInteropZodSchema(schema)) {
    if (typeof schema.name === "string") return schema.name;
    if (typeof schema.title === "string") return schema.title;
  }
  return "extract";
}

async function validated(
  schema: Schema,
  value: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  if (!isInteropZodSchema(schema)) return value;
  const result = await interopSafeParseAsync(schema, value);
  return result.success ? (result.data as Record<string, unknown>) : undefined;
}

/**
 * The structured value of an answer the wrapped model's own parser could not read, with core's rules: the
 * structured-output tool call once repaired (`repairToolCalls`), or the answer's text decoded with the repairs (a
 * fence, a Python dict, …; never after a length stop). `undefined` when nothing can be read or the schema refuses it.
 */
async function readRepaired(args: {
  message: AIMessage;
  schema: Schema;
  name: string;
  options: RepairToolCallsOptions;
}): Promise<{ value: Record<string, unknown> | undefined; message: AIMessage }> {
  const { message, schema, options } = args;
  const calls = message.tool_calls ?? [];
  const call =
    calls.find((candidate) => candidate.name === args.name) ?? (calls.length === 1 ? calls[0] : undefined);
  if (call !== undefined) return { value: await validated(schema, call.args), message };
  if ((message.invalid_tool_calls ?? []).length > 0 || typeof message.content !== "string")
    return { value: undefined, message };
  const finishReason = options.finishReason !== undefined ? options.finishReason : finishReasonOf(message);
  const decoded = decodeArguments(message.content, { ...options, finishReason });
  if (
    !isDecodedToObject(decoded.status) ||
    isRawSentinel(decoded.arguments) ||
    !isPlainObject(decoded.arguments)
  )
    return { value: undefined, message };
  const value = await validated(schema, decoded.arguments);
  if (decoded.status === "object") return { value, message };
  // The text was repaired: the answer says how, as a repaired tool call does.
  const metadata = {
    ...message.response_metadata,
    [STRUCTURED_OUTPUT_KEY]: { status: decoded.status, repairs: decoded.repairs },
  };
  const recorded = Object.assign(Object.create(Object.getPrototypeOf(message)), message, {
    response_metadata: metadata,
  });
  return { value, message: recorded as AIMessage };
}

/**
 * `withStructuredOutput` for a guarded model: the wrapped model's own structured output (its method, JSON schema or
 * tool calling, and its parser), given the sanitized history and asked for the raw answer too; when its parser
 * cannot read the answer (fenced JSON, a Python dict, Gemma's markers), the answer is repaired with core's rules and
 * read again; what comes back is the repaired answer. A cut answer (length stop) is never repaired.
 *
 * @example
 * const extract = withSafeToolCalls(new ChatOpenAI({ model })).withStructuredOutput(z.object({ city: z.string() }));
 * await extract.invoke("Where is the Louvre?"); // { city: "Paris" }
 */
export function safeStructuredOutput(args: {
  structured: Runnable<BaseLanguageModelInput, { raw: BaseMessage; parsed: unknown }>;
  toMessages: (input: BaseLanguageModelInput) => BaseMessage[];
  schema: Schema;
  config: StructuredOutputMethodOptions<boolean> | undefined;
  options: RepairToolCallsOptions;
}): Runnable<BaseLanguageModelInput, unknown> {
  const name = functionNameOf(args.schema, args.config);
  const includeRaw = args.config?.includeRaw === true;
  // The wrapped model's structured answer is read as a stream of its raw answer: a model that parses a whole answer
  // inside its own call (the `openai` SDK's `parse()` behind ChatOpenAI's JSON-schema mode) throws before the answer
  // could be repaired. The raw step is the `raw` branch LangChain's structured-output pipelines begin with; a
  // pipeline of another shape is invoked as it is.
  const rawStep = (args.structured as { first?: { steps?: Record<string, unknown> } }).first?.steps?.raw as
    | Runnable<BaseMessage[], BaseMessage>
    | undefined;
  const collect = RunnableLambda.from(async (messages: BaseMessage[], runConfig) => {
    if (typeof rawStep?.stream !== "function") return args.structured.invoke(messages, runConfig);
    let raw: BaseMessage | undefined;
    for await (const chunk of await rawStep.stream(messages, runConfig)) {
      if (raw !== undefined && AIMessageChunk.isInstance(raw) && AIMessageChunk.isInstance(chunk))
        raw = raw.concat(chunk);
      else raw = chunk;
    }
    if (raw === undefined) throw new OutputParserException("the model gave no answer");
    return { raw, parsed: null };
  });
  const finish = RunnableLambda.from(async (answer: { raw: BaseMessage; parsed: unknown }) => {
    const repaired = repairToolCalls(answer.raw, args.options).message as AIMessage;
    const read = await readRepaired({ message: repaired, schema: args.schema, name, options: args.options });
    const raw = read.message;
    let parsed = read.value;
    // The model's own parse counts only where core found nothing cut or broken: LangChain completes cut JSON in
    // streamed calls, and that must not become a value.
    const finishReason =
      args.options.finishReason !== undefined ? args.options.finishReason : finishReasonOf(repaired);
    const intact = (repaired.invalid_tool_calls ?? []).length === 0 && finishReason !== "length";
    if (parsed === undefined && intact && answer.parsed !== null && typeof answer.parsed === "object")
      parsed = answer.parsed as Record<string, unknown>;
    if (includeRaw) return { raw, parsed: parsed ?? null };
    if (parsed === null || parsed === undefined)
      throw new OutputParserException(
        "the answer could not be read as the structured output, even with the repairs enabled",
        typeof raw.content === "string" ? raw.content : JSON.stringify(raw.content),
      );
    return parsed;
  });
  return RunnableSequence.from([
    RunnableLambda.from((input: BaseLanguageModelInput) => args.toMessages(input)),
    collect,
    finish,
  ]).withConfig({ runName: includeRaw ? "StructuredOutputRunnable" : "StructuredOutput" });
}
