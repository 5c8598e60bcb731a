import { describeConformance } from "@toolcall/conformance/vitest";
import {
  decodeArguments,
  encodeArguments,
  type ProviderOption,
  prepareForTemplate,
  type SanitizeOptions,
  validateHistory,
  validateToolCall,
} from "@toolcall/core";
import { resolveCoreRepairs } from "@toolcall/core/conformance";
import type {
  ChatCompletion,
  ChatCompletionChunk,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import {
  type ArgumentsReport,
  repairChatCompletion,
  repairChatCompletionStream,
  sanitizeChatMessages,
} from "../src/index.js";

// The suite through OpenAI's shapes: arguments travel inside a ChatCompletion or a stream of ChatCompletionChunks,
// come back as wire text, and are read back with core.

type Options = { repairs?: []; finishReason?: string | null; lossless?: boolean; [key: string]: unknown };

function completion(args: unknown, finishReason: string | null | undefined): ChatCompletion {
  return {
    id: "chatcmpl-conformance",
    object: "chat.completion",
    created: 0,
    model: "conformance",
    choices: [
      {
        index: 0,
        logprobs: null,
        finish_reason: (finishReason ?? "tool_calls") as ChatCompletion.Choice["finish_reason"],
        message: {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: [
            { id: "call_1", type: "function", function: { name: "f", arguments: args as string } },
          ],
        },
      },
    ],
  };
}

async function* chunks(
  deltas: unknown[],
  finishReason: string | null | undefined,
): AsyncGenerator<ChatCompletionChunk> {
  const base = {
    id: "chatcmpl-conformance",
    object: "chat.completion.chunk" as const,
    created: 0,
    model: "conformance",
  };
  for (const delta of deltas) {
    yield {
      ...base,
      choices: [
        {
          index: 0,
          delta: { tool_calls: [delta as ChatCompletionChunk.Choice.Delta.ToolCall] },
          finish_reason: null,
        },
      ],
    };
  }
  if (finishReason != null) {
    yield {
      ...base,
      choices: [
        { index: 0, delta: {}, finish_reason: finishReason as ChatCompletionChunk.Choice["finish_reason"] },
      ],
    };
  }
}

// These cases expect the very object given back; the wire shape carries text, so a mapping comes back as an equal one.
const SAME_OBJECT =
  "the wire shape carries text: a mapping comes back as an equal mapping, never as the same object";
const PENDING_NOT_PASSED =
  "sanitizeOptionsOf does not pass core's pendingCalls option through yet (options.ts)";

describeConformance({
  implementation: {
    name: "@toolcall/openai",
    decode(input, options: Options) {
      const reports: ArgumentsReport[] = [];
      const { completion: repaired } = repairChatCompletion(completion(input, options.finishReason), {
        repairs: options.repairs,
        maxDepth: options.maxDepth as number | undefined,
        onRepair: (report) => reports.push(report as ArgumentsReport),
      });
      const call = repaired.choices[0]?.message.tool_calls?.[0];
      const text = call?.type === "function" ? call.function.arguments : undefined;
      const report = reports[0];
      return {
        arguments: decodeArguments(text, { lossless: options.lossless }).arguments,
        status: report?.status ?? "object",
        repairs: report?.repairs ?? [],
        ...(report?.status === "absent" || input === undefined || input === null ? {} : { raw: input }),
      };
    },
    encode: (input, options) => encodeArguments(input, options),
    validate: (call, options) => validateToolCall(call, options),
    validateHistory: (messages, options) => validateHistory(messages as unknown[], options),
    sanitize: (messages, options: Options) =>
      sanitizeChatMessages(messages as ChatCompletionMessageParam[], {
        repairs: options.repairs,
        sanitize: options as SanitizeOptions,
      }),
    sanitizeProvider: (messages, options: Options) =>
      sanitizeChatMessages(messages as ChatCompletionMessageParam[], {
        repairs: options.repairs,
        provider: options.provider as ProviderOption,
        sanitize: options as SanitizeOptions,
      }),
    prepareForTemplate: (messages, options) => prepareForTemplate(messages as unknown[], options),
    async accumulate(input, options: Options) {
      const reports: ArgumentsReport[] = [];
      const calls: Array<{ index: number; id?: string; name: string; text: string }> = [];
      for await (const chunk of repairChatCompletionStream(chunks(input.deltas, input.finishReason), {
        ...options,
        reports,
      })) {
        for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
          calls.push({
            index: call.index,
            id: call.id,
            name: call.function?.name ?? "",
            text: call.function?.arguments ?? "",
          });
        }
      }
      // Reports come in call order, one for each call that was not clean object text.
      return calls.map((call) => {
        const report = reports.find((r) => r.toolCallId === call.id && r.after === call.text);
        return {
          index: call.index,
          id: call.id,
          name: call.name,
          arguments: report ? (report.before ?? "") : call.text,
          status: report?.status ?? "object",
          decoded: decodeArguments(call.text).arguments,
        };
      });
    },
    resolveRepairs: resolveCoreRepairs,
  },
  skip: {
    "r1-pinned-cases-object-already-a-mapping": SAME_OBJECT,
    "r1-statuses-object-keeps-its-identity": SAME_OBJECT,
    "r1-hostile-proto-in-a-native-mapping": SAME_OBJECT,
    "r4-pending-kept": PENDING_NOT_PASSED,
    "r4-pending-kept-earlier-turn-synthesized": PENDING_NOT_PASSED,
    "r4-pending-dropped": PENDING_NOT_PASSED,
  },
});
