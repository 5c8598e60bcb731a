import { coreRepairs } from "@toolcall/core";
import { createWorkMeter } from "@toolcall/core/kit";
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { ChatChunkRepair } from "./chat-chunk-repair.js";

const base = { id: "c", object: "chat.completion.chunk" as const, created: 0, model: "m" };
const call = (index: number, text: string): ChatCompletionChunk => ({
  ...base,
  choices: [
    {
      index: 0,
      delta: {
        tool_calls: [
          { index, id: `call_${index}`, type: "function", function: { name: "f", arguments: text } },
        ],
      },
      finish_reason: null,
    },
  ],
});
const finish: ChatCompletionChunk = {
  ...base,
  choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }],
};

/** What a client merging the chunks by call index holds: each call's text. */
function merged(chunks: readonly ChatCompletionChunk[]): Map<number, string> {
  const texts = new Map<number, string>();
  for (const chunk of chunks)
    for (const choice of chunk.choices)
      for (const toolCall of choice.delta.tool_calls ?? [])
        texts.set(toolCall.index, (texts.get(toolCall.index) ?? "") + (toolCall.function?.arguments ?? ""));
  return texts;
}

function decideCalls(count: number, first: string): number {
  const meter = createWorkMeter();
  const repair = new ChatChunkRepair({ repairs: coreRepairs, meter });
  for (let index = 0; index < count; index++) repair.push(call(index, index === 0 ? first : '{"a": 1}'));
  repair.push(finish);
  repair.end();
  return meter.steps;
}

describe("ChatChunkRepair with many calls", () => {
  it("costs work linear in the number of calls, clean or held behind the first", () => {
    for (const first of ['{"a": 0}', "{'a': 0}"]) {
      const small = decideCalls(2_000, first);
      const large = decideCalls(32_000, first);
      expect(small).toBeGreaterThan(0);
      // 16 times the calls, at most 17 times the work (a scan of every call per call would cost 256 times).
      expect(large).toBeLessThanOrEqual(17 * small);
    }
  });

  it("hands on 130 000 calls held behind the first, every one decided, without overflowing a call stack", () => {
    const count = 130_000;
    const repair = new ChatChunkRepair({ repairs: coreRepairs });
    const out: ChatCompletionChunk[] = [];
    // The first call is held (a special-token opener), so every later one waits behind it until the finish.
    for (let index = 0; index < count; index++)
      for (const event of repair.push(call(index, '{"a": "<|"}'))) out.push(event.value);
    for (const event of repair.push(finish)) out.push(event.value);
    for (const event of repair.end()) out.push(event.value);
    const texts = merged(out);
    expect(texts.size).toBe(count);
    expect(texts.get(0)).toBe('{"a": "<|"}');
    expect(texts.get(count - 1)).toBe('{"a": "<|"}');
    expect(out.at(-1)?.choices[0]?.finish_reason).toBe("tool_calls");
  });

  it("keeps the calls of a server that sends every call at index 0 apart", () => {
    const repair = new ChatChunkRepair();
    const out: ChatCompletionChunk[] = [];
    for (let index = 0; index < 3; index++) {
      const chunk = call(0, "{}");
      (chunk.choices[0]?.delta.tool_calls?.[0] as { id: string }).id = `call_${index}`;
      for (const event of repair.push(chunk)) out.push(event.value);
    }
    for (const event of repair.push(finish)) out.push(event.value);
    expect([...merged(out).keys()]).toEqual([0, 1, 2]);
  });
});
