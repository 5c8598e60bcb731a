import { coreRepairs } from "@toolcall/core";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import type { ArgumentsReport } from "./options.js";
import { repairChatCompletionStream } from "./repair-chat-completion-stream.js";

const base = { id: "c", object: "chat.completion.chunk" as const, created: 0, model: "m" };
const content = (text: string): ChatCompletionChunk => ({
  ...base,
  choices: [{ index: 0, delta: { content: text }, finish_reason: null }],
});
const args = (index: number, text: string, id?: string, name?: string): ChatCompletionChunk => ({
  ...base,
  choices: [
    {
      index: 0,
      delta: {
        tool_calls: [
          {
            index,
            ...(id ? { id, type: "function" as const } : {}),
            function: { ...(name ? { name } : {}), arguments: text },
          },
        ],
      },
      finish_reason: null,
    },
  ],
});
const finish = (reason: ChatCompletionChunk.Choice["finish_reason"]): ChatCompletionChunk => ({
  ...base,
  choices: [{ index: 0, delta: {}, finish_reason: reason }],
});

/** A source that records how far it has been read, to see what the wrapper hands on before reading further. */
function source(chunks: ChatCompletionChunk[], log: string[]): AsyncIterable<ChatCompletionChunk> {
  return {
    async *[Symbol.asyncIterator]() {
      for (const [i, chunk] of chunks.entries()) {
        log.push(`read ${i}`);
        yield chunk;
      }
    },
  };
}

function describeChunk(chunk: ChatCompletionChunk): string {
  const choice = chunk.choices[0];
  if (choice?.delta.content) return `content ${choice.delta.content}`;
  if (choice?.delta.tool_calls)
    return `calls ${choice.delta.tool_calls.map((c) => `${c.index}:${c.function?.arguments}`).join(" ")}`;
  return `finish ${choice?.finish_reason}`;
}

describe("repairChatCompletionStream", () => {
  it("hands content on before reading further, and each call as soon as the next one begins", async () => {
    const log: string[] = [];
    const chunks = [
      content("Hi"),
      args(0, '{"a":', "c0", "f"),
      args(0, "1}"),
      content(" there"),
      args(1, "{'b': True}", "c1", "g"),
      finish("tool_calls"),
    ];
    for await (const chunk of repairChatCompletionStream(source(chunks, log))) log.push(describeChunk(chunk));
    expect(log).toEqual([
      "read 0",
      "content Hi",
      "read 1",
      "read 2",
      "read 3",
      "content  there",
      "read 4",
      'calls 0:{"a":1}',
      "read 5",
      `calls 1:${JSON.stringify({ _raw_arguments: "{'b': True}" })}`,
      "finish tool_calls",
    ]);
  });

  it("holds interleaved calls until the finish", async () => {
    const log: string[] = [];
    const chunks = [
      args(0, "", "c0", "f"),
      args(1, "", "c1", "g"),
      args(0, '{"a":1}'),
      args(1, '{"b":2}'),
      finish("tool_calls"),
    ];
    const out: string[] = [];
    for await (const chunk of repairChatCompletionStream(source(chunks, log))) out.push(describeChunk(chunk));
    expect(out).toEqual(['calls 0:{"a":1} 1:{"b":2}', "finish tool_calls"]);
  });

  it("hands on what is open when the stream ends without a finish", async () => {
    const out: string[] = [];
    for await (const chunk of repairChatCompletionStream(source([args(0, '{"a":1}', "c0", "f")], [])))
      out.push(describeChunk(chunk));
    expect(out).toEqual(['calls 0:{"a":1}']);
  });
});

describe("repairChatCompletionStream, a cut stream", () => {
  it("treats calls open at a stream end without a finish as cut off: truncated, never repaired", async () => {
    const reports: ArgumentsReport[] = [];
    const out: string[] = [];
    const chunks = [args(0, '```json\n{"a": 1', "c0", "f")];
    for await (const chunk of repairChatCompletionStream(source(chunks, []), {
      repairs: coreRepairs,
      reports,
    }))
      out.push(describeChunk(chunk));
    expect(out).toEqual([`calls 0:${JSON.stringify({ _raw_arguments: '```json\n{"a": 1' })}`]);
    expect(reports.map((r) => r.status)).toEqual(["truncated"]);
  });

  it("hands on an object that is not a chunk as it came", async () => {
    const error = { error: { message: "upstream failed" } } as unknown as ChatCompletionChunk;
    const out: unknown[] = [];
    for await (const chunk of repairChatCompletionStream(source([content("a"), error], []))) out.push(chunk);
    expect(out[1]).toBe(error);
  });
});

describe("repairChatCompletionStream, stopping early", () => {
  it("stops the source when the consumer stops", async () => {
    let stopped = false;
    const source: AsyncIterable<ChatCompletionChunk> = {
      [Symbol.asyncIterator]() {
        let i = 0;
        return {
          next: async () => ({ done: false, value: content(`t${i++}`) }),
          return: async () => {
            stopped = true;
            return { done: true, value: undefined };
          },
        };
      },
    };
    const seen: string[] = [];
    for await (const chunk of repairChatCompletionStream(source)) {
      seen.push(describeChunk(chunk));
      if (seen.length === 3) break;
    }
    expect(seen).toEqual(["content t0", "content t1", "content t2"]);
    expect(stopped).toBe(true);
  });
});
