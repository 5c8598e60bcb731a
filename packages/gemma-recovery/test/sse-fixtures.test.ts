import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ToolCallAccumulator, type ToolCallDelta } from "@toolcall/core/kit";
import { foldEvents } from "@toolcall/model-formats";
import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { gemma4, gemmaQuoteMarkers } from "../src/index.js";

interface Chunk {
  choices: Array<{ delta: { content?: string; tool_calls?: ToolCallDelta[] }; finish_reason: string | null }>;
}

const fixture = (name: string) =>
  new Uint8Array(readFileSync(join(import.meta.dirname, "__fixtures__", name)));

/** Parses an SSE byte stream delivered in the given pieces, as a client reads a socket. */
function readChunks(pieces: Uint8Array[]): Chunk[] {
  const chunks: Chunk[] = [];
  const decoder = new TextDecoder();
  const parser = createParser({
    onEvent(event) {
      if (event.data !== "[DONE]") chunks.push(JSON.parse(event.data) as Chunk);
    },
  });
  for (const piece of pieces) parser.feed(decoder.decode(piece, { stream: true }));
  parser.feed(decoder.decode());
  return chunks;
}

function splitAt(bytes: Uint8Array, at: number): Uint8Array[] {
  return [bytes.subarray(0, at), bytes.subarray(at)];
}

function toolCalls(chunks: Chunk[]) {
  const accumulator = new ToolCallAccumulator();
  let finishReason: string | null = null;
  for (const chunk of chunks) {
    const choice = chunk.choices[0];
    if (choice?.delta.tool_calls) accumulator.push(choice.delta.tool_calls);
    if (choice?.finish_reason) finishReason = choice.finish_reason;
  }
  return accumulator.finish({ finishReason, repairs: [gemmaQuoteMarkers] }).map((call) => ({
    id: call.id,
    name: call.name,
    status: call.decoded.status,
    arguments: call.decoded.arguments,
  }));
}

function contentEvents(chunks: Chunk[]) {
  const stream = gemma4.createStream({ createId: ({ index }) => `call_${index + 1}` });
  const events = chunks.flatMap((chunk) => stream.push(chunk.choices[0]?.delta.content ?? ""));
  return [...events, ...stream.end()];
}

describe("vLLM-shaped streams of Gemma 4", () => {
  it("recovers leaked markers in streamed arguments, however the bytes are split", () => {
    const bytes = fixture("vllm-gemma4-marker-leak.sse");
    const expected = [
      {
        id: "chatcmpl-tool-a1",
        name: "search_boe",
        status: "object",
        arguments: { query: "BOE resolución julio 2023", limit: 5 },
      },
      {
        id: "chatcmpl-tool-b2",
        name: "get_document",
        status: "repaired",
        arguments: { date: "2023-09-18", title: "Resolución de 28 de julio de 2023" },
      },
    ];
    for (let at = 0; at <= bytes.length; at++)
      expect(toolCalls(readChunks(splitAt(bytes, at))), `split at byte ${at}`).toEqual(expected);
  });

  it("marks a length stop truncated and never repairs it", () => {
    const [call] = toolCalls(readChunks([fixture("vllm-gemma4-length-stop.sse")]));
    expect(call?.status).toBe("truncated");
    expect(call?.arguments).toEqual({
      _raw_arguments: '{"date": "<|\\"|"2023-09-18<|\\", "title": "<|Resolución de 28',
    });
  });

  it("finds the native call left in content, however the bytes are split", () => {
    const bytes = fixture("vllm-gemma4-native-call-in-content.sse");
    const expected = {
      reasoning: "The user wants the file patched.",
      content: "I will patch it now.",
      toolCalls: [
        {
          id: "call_1",
          type: "function",
          function: {
            name: "patch",
            arguments: '{"content": "print(\'hi\')", "mode": "overwrite", "path": "/tmp/a.py"}',
          },
        },
      ],
      issues: [],
    };
    for (let at = 0; at <= bytes.length; at++)
      expect(foldEvents(contentEvents(readChunks(splitAt(bytes, at)))), `split at byte ${at}`).toEqual(
        expected,
      );
  });
});
