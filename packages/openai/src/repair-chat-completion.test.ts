import { coreRepairs } from "@toolcall/core";
import fc from "fast-check";
import type { ChatCompletion, ChatCompletionChunk } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { repairChatCompletion } from "./repair-chat-completion.js";
import { repairChatCompletionStream } from "./repair-chat-completion-stream.js";

const base = { id: "c", created: 0, model: "m" };

/** A whole answer with these calls; `typed: false` leaves `type` out, as some servers do. */
function completion(calls: Array<{ id: string; arguments: string }>, typed: boolean): ChatCompletion {
  return {
    ...base,
    object: "chat.completion",
    choices: [
      {
        index: 0,
        logprobs: null,
        finish_reason: "tool_calls",
        message: {
          role: "assistant",
          content: null,
          refusal: null,
          tool_calls: calls.map((call) => ({
            id: call.id,
            ...(typed ? { type: "function" as const } : {}),
            function: { name: "f", arguments: call.arguments },
          })) as ChatCompletion["choices"][number]["message"]["tool_calls"],
        },
      },
    ],
  };
}

/** The same answer streamed: each call in one delta, then the finish. */
function chunks(calls: Array<{ id: string; arguments: string }>, typed: boolean): ChatCompletionChunk[] {
  const chunk = (choice: ChatCompletionChunk["choices"][number]): ChatCompletionChunk => ({
    ...base,
    object: "chat.completion.chunk",
    choices: [choice],
  });
  return [
    ...calls.map((call, index) =>
      chunk({
        index: 0,
        finish_reason: null,
        delta: {
          tool_calls: [
            {
              index,
              id: call.id,
              ...(typed ? { type: "function" as const } : {}),
              function: { name: "f", arguments: call.arguments },
            },
          ],
        },
      }),
    ),
    chunk({ index: 0, finish_reason: "tool_calls", delta: {} }),
  ];
}

async function streamedArguments(source: ChatCompletionChunk[]): Promise<string[]> {
  const texts = new Map<number, string>();
  const iterable = {
    async *[Symbol.asyncIterator]() {
      yield* source;
    },
  };
  for await (const chunk of repairChatCompletionStream(iterable, { repairs: coreRepairs }))
    for (const delta of chunk.choices[0]?.delta.tool_calls ?? [])
      texts.set(delta.index, (texts.get(delta.index) ?? "") + (delta.function?.arguments ?? ""));
  return [...texts.values()];
}

describe("repairChatCompletion", () => {
  it("repairs a call that leaves out `type` as core reads it: a function call", () => {
    const fenced = [{ id: "c1", arguments: '```json\n{"a":1}\n```' }];
    const { completion: repaired, reports } = repairChatCompletion(completion(fenced, false), {
      repairs: coreRepairs,
    });
    const call = repaired.choices[0]?.message.tool_calls?.[0] as { function: { arguments: string } };
    expect(call.function.arguments).toBe('{"a":1}');
    expect(reports.map((report) => report.repairs)).toEqual([["markdown-fence"]]);
  });

  it("gives whole answers and streams the same arguments, typed or not", async () => {
    const argumentsText = fc.oneof(
      fc.constantFrom('```json\n{"a":1}\n```', "", "null", '{"a":1,}', "{'a': True}", '"{\\"a\\":1}"', "[1]"),
      fc.jsonValue().map((value) => JSON.stringify(value)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(argumentsText, { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        async (texts, typed) => {
          const calls = texts.map((text, i) => ({ id: `c${i}`, arguments: text }));
          const whole = repairChatCompletion(completion(calls, typed), { repairs: coreRepairs }).completion;
          const wholeTexts = (whole.choices[0]?.message.tool_calls ?? []).map(
            (call) => (call as { function: { arguments: string } }).function.arguments,
          );
          expect(await streamedArguments(chunks(calls, typed))).toEqual(wholeTexts);
        },
      ),
      { numRuns: 300 },
    );
  });
});
