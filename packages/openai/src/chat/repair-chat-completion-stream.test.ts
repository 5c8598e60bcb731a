import { coreRepairs } from "@toolcall/core";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import type { ArgumentsReport } from "../options.js";
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
  it("hands content and clean argument fragments on before reading further", async () => {
    const log: string[] = [];
    const chunks = [
      content("Hi"),
      args(0, '{"a":', "c0", "f"),
      args(0, "1}"),
      content(" there"),
      args(1, "{'b': True}", "c1", "g"),
      finish("tool_calls"),
    ];
    for await (const chunk of repairChatCompletionStream(source(chunks, log), { repairs: coreRepairs }))
      log.push(describeChunk(chunk));
    expect(log).toEqual([
      "read 0",
      "content Hi",
      "read 1",
      'calls 0:{"a":',
      "read 2",
      "calls 0:1}",
      "read 3",
      "content  there",
      "read 4",
      // The Python dict is held from its first fragment: its header goes on, its text once decided.
      "calls 1:",
      "read 5",
      'calls 1:{"b":true}',
      "finish tool_calls",
    ]);
  });

  it("hands a clean chunk on as the same object", async () => {
    const chunks = [content("Hi"), args(0, '{"a":1}', "c0", "f"), finish("tool_calls")];
    const out: ChatCompletionChunk[] = [];
    for await (const chunk of repairChatCompletionStream(source(chunks, []))) out.push(chunk);
    expect(out).toHaveLength(3);
    for (const [i, chunk] of out.entries()) expect(chunk).toBe(chunks[i]);
  });

  it("passes interleaved clean calls as they come", async () => {
    const chunks = [
      args(0, "", "c0", "f"),
      args(1, "", "c1", "g"),
      args(0, '{"a":1}'),
      args(1, '{"b":2}'),
      finish("tool_calls"),
    ];
    const out: string[] = [];
    for await (const chunk of repairChatCompletionStream(source(chunks, []))) out.push(describeChunk(chunk));
    expect(out).toEqual(["calls 0:", "calls 1:", 'calls 0:{"a":1}', 'calls 1:{"b":2}', "finish tool_calls"]);
  });

  it("keeps a later call behind a held one, so no client sees it before the held one is whole", async () => {
    const chunks = [
      args(0, "```json\n", "c0", "f"),
      args(0, '{"a": 1}\n```'),
      args(1, '{"b":', "c1", "g"),
      args(1, " 2}"),
      finish("tool_calls"),
    ];
    const out: string[] = [];
    for await (const chunk of repairChatCompletionStream(source(chunks, []), { repairs: coreRepairs }))
      out.push(describeChunk(chunk));
    expect(out).toEqual(["calls 0:", 'calls 0:{"a":1}', 'calls 1:{"b": 2}', "finish tool_calls"]);
  });

  it("gives a call of its own to each call a server sent at one index", async () => {
    const chunks = [args(0, '{"a":1}', "c0", "f"), args(0, '{"b":2}', "c1", "g"), finish("tool_calls")];
    const indexes: number[] = [];
    for await (const chunk of repairChatCompletionStream(source(chunks, [])))
      for (const call of chunk.choices[0]?.delta.tool_calls ?? []) indexes.push(call.index);
    expect(indexes).toEqual([0, 1]);
  });

  it("sends the rest of a held call after the text its finish chunk carries, then the finish", async () => {
    const last: ChatCompletionChunk = {
      ...base,
      choices: [
        {
          index: 0,
          delta: { tool_calls: [{ index: 1, function: { arguments: '"y"}' } }] },
          finish_reason: "tool_calls",
        },
      ],
    };
    const chunks = [args(0, "{'a': 1}", "c0", "f"), args(1, '{"x": ', "c1", "g"), last];
    const out: string[] = [];
    for await (const chunk of repairChatCompletionStream(source(chunks, []), { repairs: coreRepairs }))
      out.push(describeChunk(chunk));
    expect(out).toEqual(["calls 0:", 'calls 0:{"a":1}', 'calls 1:{"x": "y"}', "finish tool_calls"]);
  });

  it("hands on what is open when the stream ends without a finish", async () => {
    const out: string[] = [];
    for await (const chunk of repairChatCompletionStream(source([args(0, '{"a":1}', "c0", "f")], [])))
      out.push(describeChunk(chunk));
    expect(out).toEqual(['calls 0:{"a":1}']);
  });
});

describe("repairChatCompletionStream, a cut stream", () => {
  it("keeps calls open at a stream end without a finish as the model sent them: truncated, never repaired", async () => {
    const reports: ArgumentsReport[] = [];
    const out: string[] = [];
    const chunks = [args(0, '```json\n{"a": 1', "c0", "f")];
    for await (const chunk of repairChatCompletionStream(source(chunks, []), {
      repairs: coreRepairs,
      reports,
    }))
      out.push(describeChunk(chunk));
    expect(out).toEqual(["calls 0:", 'calls 0:```json\n{"a": 1']);
    expect(reports.map((r) => [r.status, r.usable])).toEqual([["truncated", false]]);
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
