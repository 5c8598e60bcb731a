import type { LanguageModelMiddleware, ToolCallRepairFunction, ToolSet } from "ai";

// The language-model specification types `ai` 6 works with (V3), read off what `ai` itself exports, so the package
// needs no dependency beyond its peer.

type TransformParamsOptions = Parameters<NonNullable<LanguageModelMiddleware["transformParams"]>>[0];
type WrapGenerateOptions = Parameters<NonNullable<LanguageModelMiddleware["wrapGenerate"]>>[0];

/** The options of one model call (`LanguageModelV3CallOptions`). */
export type CallOptions = TransformParamsOptions["params"];
/** A model call's prompt (`LanguageModelV3Prompt`). */
export type Prompt = CallOptions["prompt"];
/** One message of a prompt (`LanguageModelV3Message`). */
export type PromptMessage = Prompt[number];
/** What a model's `doGenerate` returns (`LanguageModelV3GenerateResult`). */
export type GenerateResult = Awaited<ReturnType<WrapGenerateOptions["doGenerate"]>>;
/** What a model's `doStream` returns (`LanguageModelV3StreamResult`). */
export type StreamResult = Awaited<ReturnType<WrapGenerateOptions["doStream"]>>;
/** One part of a model's stream (`LanguageModelV3StreamPart`). */
export type StreamPart = StreamResult["stream"] extends ReadableStream<infer P> ? P : never;
/** A tool call as a model returns it, input as JSON text (`LanguageModelV3ToolCall`). */
export type ModelToolCall = Parameters<ToolCallRepairFunction<ToolSet>>[0]["toolCall"];
/** Why a model stopped (`LanguageModelV3FinishReason`: `{ unified, raw }`). */
export type ModelFinishReason = GenerateResult["finishReason"];
