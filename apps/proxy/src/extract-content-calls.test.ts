import { extractCompletionContentCalls, extractStreamContentCalls } from "@toolcall/openai/exchange";
import type { ChatCompletion, ChatCompletionChunk } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { gemmaContentCalls } from "./content-call-extractors.js";

const CALL = '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>,days:3}<tool_call|>';
const context = { tools: [] };

function chunk(
  delta: ChatCompletionChunk.Choice["delta"],
  finish: ChatCompletionChunk.Choice["finish_reason"] = null,
) {
  return {
    id: "c",
    object: "chat.completion.chunk",
    created: 1,
    model: "gemma",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
  } as ChatCompletionChunk;
}

async function* from<T>(items: T[]): AsyncGenerator<T> {
  yield* items;
}

/** The chunks that come out of the Gemma extractor for these chunks going in. */
async function extracted(chunks: ChatCompletionChunk[]): Promise<ChatCompletionChunk[]> {
  const out: ChatCompletionChunk[] = [];
  for await (const c of extractStreamContentCalls({
    source: from(chunks),
    extractors: [gemmaContentCalls],
    context,
  }))
    out.push(c);
  return out;
}

async function collect(text: string, size: number, finish: "stop" | null = "stop") {
  const chunks = [chunk({ role: "assistant", content: "" })];
  for (let at = 0; at < text.length; at += size) chunks.push(chunk({ content: text.slice(at, at + size) }));
  if (finish) chunks.push(chunk({}, finish));
  const out = await extracted(chunks);
  let content = "";
  const calls: Array<{ index: number; name?: string; arguments?: string }> = [];
  let finishReason: string | null = null;
  for (const c of out) {
    const choice = c.choices[0];
    content += choice?.delta.content ?? "";
    for (const call of choice?.delta.tool_calls ?? [])
      calls.push({ index: call.index, name: call.function?.name, arguments: call.function?.arguments });
    finishReason = choice?.finish_reason ?? finishReason;
  }
  return { content, calls, finishReason, out, chunks };
}

describe("native calls left in streamed content", () => {
  it("finds the call however the text is split, and passes the rest of the text on", async () => {
    for (const size of [1, 2, 3, 7, 100]) {
      const result = await collect(`Checking.${CALL}Done.`, size);
      expect(result.content, `size ${size}`).toBe("Checking.Done.");
      expect(result.calls).toEqual([
        { index: 0, name: "get_weather", arguments: '{"city": "Paris", "days": 3}' },
      ]);
      expect(result.finishReason).toBe("tool_calls");
    }
  });

  it("passes chunks without call-like text on as the same objects", async () => {
    // Whitespace at a chunk's end waits for the next chunk (it may be what a template writes before a call), so the
    // chunks are cut at words here: each is then passed on as the object it was.
    const result = await collect("Just_text,_no_calls.", 5);
    expect(result.out).toEqual(result.chunks);
    for (let i = 0; i < result.out.length; i++) expect(result.out[i]).toBe(result.chunks[i]);
    expect(result.finishReason).toBe("stop");
    const spaced = await collect("Just text, no calls.", 5);
    expect(spaced.content).toBe("Just text, no calls.");
    expect(spaced.out.at(-1)).toBe(spaced.chunks.at(-1));
  });

  it("numbers recovered calls after the server's own", async () => {
    const chunks = [
      chunk({
        tool_calls: [{ index: 0, id: "s", type: "function", function: { name: "server", arguments: "{}" } }],
      }),
      chunk({ content: CALL }),
      chunk({}, "tool_calls"),
    ];
    const out = await extracted(chunks);
    expect(
      out.flatMap((c) => c.choices[0]?.delta.tool_calls ?? []).map((c) => [c.index, c.function?.name]),
    ).toEqual([
      [0, "server"],
      [1, "get_weather"],
    ]);
  });

  it("hands on what is held when the stream ends without a finish", async () => {
    const result = await collect("half a call: <|tool_call>call:f{a:", 4, null);
    expect(result.content).toBe("half a call: <|tool_call>call:f{a:");
    expect(result.calls).toEqual([]);
  });
});

describe("native calls left in a whole response", () => {
  it("moves them to tool_calls and finishes with tool_calls", () => {
    const completion = {
      id: "x",
      object: "chat.completion",
      created: 1,
      model: "gemma",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: `Sure.${CALL}`, refusal: null },
          finish_reason: "stop",
          logprobs: null,
        },
      ],
    } as ChatCompletion;
    const reports: unknown[] = [];
    const result = extractCompletionContentCalls({
      completion,
      extractors: [gemmaContentCalls],
      context,
      onReport: (r) => reports.push(r),
    });
    expect(result.choices[0]?.message.content).toBe("Sure.");
    expect(result.choices[0]?.finish_reason).toBe("tool_calls");
    expect(
      result.choices[0]?.message.tool_calls?.map((c) => (c.type === "function" ? c.function : c)),
    ).toEqual([{ name: "get_weather", arguments: '{"city": "Paris", "days": 3}' }]);
    expect(reports).toMatchObject([
      {
        kind: "tool_call",
        extractor: "gemma",
        syntax: "gemma4",
        index: 0,
        toolCall: { function: { name: "get_weather" } },
      },
    ]);
    const plain = {
      ...completion,
      choices: [{ ...completion.choices[0], message: { role: "assistant", content: "Hi", refusal: null } }],
    } as ChatCompletion;
    expect(
      extractCompletionContentCalls({ completion: plain, extractors: [gemmaContentCalls], context }),
    ).toBe(plain);
  });
});
