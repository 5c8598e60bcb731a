import { AIMessage, AIMessageChunk, type BaseMessage, type ToolCallChunk } from "@langchain/core/messages";
import { describeConformance } from "@toolcall/conformance/vitest";
import { type ChatMessage, prepareForTemplate, type SanitizeOptions } from "@toolcall/core";
import { resolveCoreRepairs } from "@toolcall/core/conformance";
import { finishReasonAtStreamEnd, type RepairRule } from "@toolcall/core/kit";
import { gemmaQuoteMarkers } from "@toolcall/gemma-recovery";
import {
  fromNeutralMessages,
  repairToolCalls,
  sanitizeMessages,
  type ToolCallDecision,
  toNeutralMessages,
  validateMessages,
} from "../src/index.js";
import { decideStream } from "./stream-decisions.js";

// The suite through LangChain's shapes: every input is turned into real @langchain/core messages, the adapter runs
// on them, and what it returns is read back into the neutral OpenAI shape the vectors speak.

interface Options {
  repairs?: RepairRule[];
  finishReason?: string | null;
  lossless?: boolean;
  maxDepth?: number;
  tools?: unknown[];
  [key: string]: unknown;
}

function repairOptions(options: Options) {
  return {
    ...(options.repairs === undefined ? {} : { repairs: options.repairs }),
    ...(options.finishReason === undefined ? {} : { finishReason: options.finishReason }),
    ...(options.lossless === undefined ? {} : { lossless: options.lossless }),
    ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth as number }),
  };
}

/** An assistant turn holding one call with these arguments, as LangChain holds it. */
function aiMessageWith(args: unknown): BaseMessage {
  const neutral: ChatMessage = {
    role: "assistant",
    content: null,
    tool_calls: [{ id: "call_1", type: "function", function: { name: "f", arguments: args } }],
  };
  return fromNeutralMessages([neutral])[0] as BaseMessage;
}

/** The mapping a decided call ends with: the `args` LangChain hands the tool, or the raw sentinel. */
function mappingOf(message: BaseMessage, decision: ToolCallDecision): unknown {
  if (decision.outcome === "invalid") return decision.arguments;
  const calls = (message as AIMessage).tool_calls ?? [];
  return calls.find((call) => call.id === decision.toolCallId)?.args;
}

/** One `AIMessageChunk` per streamed delta, as `ChatOpenAI` makes them, the finish reason on the last one. */
async function* chunksOf(deltas: unknown[], finishReason: string | null | undefined) {
  for (const delta of deltas as Array<{
    index?: number;
    id?: string;
    function?: { name?: string; arguments?: string };
  }>) {
    const chunk: ToolCallChunk = {
      ...(delta.index === undefined ? {} : { index: delta.index }),
      ...(delta.id === undefined ? {} : { id: delta.id }),
      ...(delta.function?.name === undefined ? {} : { name: delta.function.name }),
      ...(delta.function?.arguments === undefined ? {} : { args: delta.function.arguments }),
      type: "tool_call_chunk",
    };
    yield new AIMessageChunk({ content: "", tool_call_chunks: [chunk] });
  }
  yield new AIMessageChunk({
    content: "",
    response_metadata: finishReason == null ? {} : { finish_reason: finishReason },
  });
}

// Neutral fields a LangChain message has no place for: a round trip through LangChain cannot keep them.
const NO_LANGCHAIN_FIELD = [
  // An AIMessage's content "" and null are one value: LangChain has no null content.
  "profiles-groq-sanitize-null-content",
  // An AIMessage keeps no `reasoning` beside `additional_kwargs.reasoning_content`.
  "profiles-deepseek-v4-thinking-sanitize-reasoning-field",
  // An AIMessage keeps no Responses API reasoning items (`reasoning_details`).
  "profiles-openai-responses-sanitize-reasoning-orphan",
  // An AIMessage keeps no Cohere `tool_plan`, and its content cannot be absent.
  "profiles-cohere-sanitize-text-to-plan",
  // Shapes a LangChain message cannot hold: every BaseMessage has a type (so a role), content, and its tool calls
  // as a list; these vectors are about OpenAI Chat JSON read as it is.
  "r3-messages-role-missing",
  "r3-messages-user-without-content",
  "r3-messages-content-number",
  "r3-messages-tool-calls-not-a-list",
];

describeConformance({
  skip: [
    ...NO_LANGCHAIN_FIELD,
    // A fresh answer's empty arguments after a length stop were cut before any text: truncated, not `{}`
    // (docs/decisions.md, Fresh answers); core's decode of the same text says `empty`.
    "r1-statuses-empty-string-is-still-empty",
    // A stream records its decisions only when the calls changed; a call without argument text is `{}` in LangChain
    // too, so nothing records its `absent` status (its text and usability are checked by the other vectors).
    "r9-stream-decisions-no-argument-text-is-empty-object",
    // The adapter's options take no tool schema yet: typing by the schema is core's and the openai adapter's.
    "r6-schema-types-*",
  ],
  implementation: {
    name: "@toolcall/langchain",
    decode(input, options: Options) {
      const { message, calls } = repairToolCalls(aiMessageWith(input), repairOptions(options));
      const decision = calls[0] as ToolCallDecision;
      return {
        status: decision.status,
        arguments: mappingOf(message, decision),
        repairs: decision.repairs,
        ...("raw" in decision ? { raw: decision.raw } : {}),
      };
    },
    encode(input, options) {
      // A hand-built call (LangChain `args`, no provider text) written for an OpenAI-compatible provider.
      const message = new AIMessage({
        content: "",
        tool_calls: [{ id: "call_1", name: "f", args: input as Record<string, unknown> }],
      });
      const [assistant] = toNeutralMessages([message], { encode: options });
      const [call] = (assistant?.tool_calls ?? []) as Array<{ function: { arguments: string } }>;
      return call?.function.arguments as string;
    },
    validate(call, options: Options) {
      const message = fromNeutralMessages([{ role: "assistant", content: null, tool_calls: [call] }]);
      const prefix = [0, "tool_calls", 0];
      return (
        validateMessages(message, options)
          // The history-level codes say the call has no result yet; the vectors ask about the call alone.
          .filter(
            (issue) => !["tool_result_missing", "tool_result_orphan", "id_duplicate"].includes(issue.code),
          )
          .map((issue) => ({ ...issue, path: issue.path.slice(prefix.length) }))
      );
    },
    validateHistory: (messages, options: Options) =>
      validateMessages(fromNeutralMessages(messages as ChatMessage[]), options),
    sanitize(messages, options: Options) {
      const input = fromNeutralMessages(messages as ChatMessage[]);
      const result = sanitizeMessages(input, options as SanitizeOptions);
      // The same LangChain list back means the same neutral list back.
      if (result.messages === input) return { messages, changes: result.changes };
      return { messages: toNeutralMessages(result.messages), changes: result.changes };
    },
    sanitizeProvider(messages, options: Options) {
      return this.sanitize?.(messages, options) as { messages: unknown; changes: { rule: string }[] };
    },
    prepareForTemplate: (messages, options) =>
      prepareForTemplate(toNeutralMessages(fromNeutralMessages(messages as ChatMessage[])), options),
    decideStream: (input, options: Options) =>
      decideStream(input, { ...repairOptions(options), splitMergedCalls: options.splitMergedCalls === true }),
    async accumulate(input, options: Options) {
      // The stream path: one AIMessageChunk per delta, fragments accumulated with core's rules (not LangChain's
      // merge by index), then the stream decided once, as repairToolCallStream does.
      const fragments: ToolCallChunk[] = [];
      let finishReason: string | undefined;
      for await (const chunk of chunksOf(input.deltas, input.finishReason)) {
        fragments.push(...(chunk.tool_call_chunks ?? []));
        finishReason = (chunk.response_metadata.finish_reason as string | undefined) ?? finishReason;
      }
      const merged = new AIMessageChunk({
        content: "",
        tool_call_chunks: fragments,
        response_metadata: finishReason === undefined ? {} : { finish_reason: finishReason },
      });
      // A stream of chunks that ends without a finish reason was cut, as repairToolCallStream reads it.
      const { message, calls } = repairToolCalls(merged, {
        ...repairOptions(options),
        finishReason: finishReasonAtStreamEnd(finishReason),
      });
      return calls.map((decision) => ({
        index: decision.index,
        id: decision.toolCallId,
        name: decision.name ?? "",
        arguments: typeof decision.raw === "string" ? decision.raw : "",
        status: decision.status,
        decoded: mappingOf(message, decision),
      }));
    },
    normalizeAnswer(input, options: Options) {
      // A fresh answer: the provider's text after the repair, and whether LangChain gets a call that can run.
      const { message, calls } = repairToolCalls(aiMessageWith(input), repairOptions(options));
      const decision = calls[0] as ToolCallDecision;
      const [wire] = ((message as AIMessage).additional_kwargs.tool_calls ?? []) as Array<{
        function: { arguments?: unknown };
      }>;
      const text = wire?.function.arguments;
      return {
        text,
        status: decision.status,
        changed: text !== input,
        usable: decision.outcome !== "invalid",
        repairs: decision.repairs,
      };
    },
    resolveRepairs(ids: readonly string[]) {
      const core = resolveCoreRepairs(ids.filter((id) => id !== gemmaQuoteMarkers.id));
      return core === undefined
        ? undefined
        : [...core, ...(ids.includes(gemmaQuoteMarkers.id) ? [gemmaQuoteMarkers] : [])];
    },
  },
});
