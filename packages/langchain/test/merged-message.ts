import type { AIMessageChunk, BaseMessage } from "@langchain/core/messages";

/** A streamed answer's chunks concatenated into one message, as LangChain merges them. */
export async function merged(stream: AsyncIterable<BaseMessage>): Promise<AIMessageChunk> {
  let full: AIMessageChunk | undefined;
  for await (const chunk of stream)
    full = full === undefined ? (chunk as AIMessageChunk) : full.concat(chunk as AIMessageChunk);
  return full as AIMessageChunk;
}
