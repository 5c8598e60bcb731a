import { coreRepairs } from "@toolcall/core";
import fc from "fast-check";
import type { ChatCompletion, ChatCompletionChunk } from "openai/resources/chat/completions";
import { describe, expect, it } from "vitest";
import { RepairSummary } from "../exchange/repair-summary.js";
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

describe("calls merged into one call's arguments, in a whole answer", () => {
  it("become one call per object, the first with the call's id, the others with fresh ones; reported", () => {
    const merged =
      '{"entity": "X", "relationship": "works_at", "target": "Y"}{"entity": "X", "relationship": "ceo_of", "target": "Y"}';
    const seen: unknown[] = [];
    const { completion: repaired, reports } = repairChatCompletion(
      completion(
        [
          { id: "call_1", arguments: merged },
          { id: "call_1_2", arguments: '{"a":1}' },
        ],
        true,
      ),
      { repairs: coreRepairs, onRepair: (report) => seen.push(report), splitMergedCalls: true },
    );
    const calls = repaired.choices[0]?.message.tool_calls?.map((call) =>
      call.type === "function" ? [call.id, call.function.arguments] : [],
    );
    expect(calls).toEqual([
      ["call_1", '{"entity": "X", "relationship": "works_at", "target": "Y"}'],
      ["call_1_3", '{"entity": "X", "relationship": "ceo_of", "target": "Y"}'],
      ["call_1_2", '{"a":1}'],
    ]);
    expect(reports).toHaveLength(1);
    expect(seen).toEqual(reports);
    expect(reports[0]?.split?.map((part) => part.id)).toEqual(["call_1", "call_1_3"]);
    // What the client got runs: the report says so, and the header's entry names the calls it became.
    expect(reports[0]).toMatchObject({ status: "repaired", usable: true, issues: [] });
    expect(reports[0]?.repairs.at(-1)).toBe("call_split");
    const summary = new RepairSummary({ repairs: coreRepairs });
    for (const report of reports) summary.options.onRepair?.(report);
    expect(JSON.parse(summary.text() ?? "{}").calls).toEqual([
      expect.objectContaining({ id: "call_1", usable: true, split: ["call_1", "call_1_3"] }),
    ]);
  });

  it("the same object twice stays one call (repeated-object), and a length stop splits nothing", () => {
    const twice = repairChatCompletion(completion([{ id: "c1", arguments: '{"a":1}{"a":1}' }], true), {
      repairs: coreRepairs,
      splitMergedCalls: true,
    });
    expect(twice.completion.choices[0]?.message.tool_calls).toHaveLength(1);
    const cut = completion([{ id: "c1", arguments: '{"a":1}{"b":2}' }], true);
    (cut.choices[0] as { finish_reason: string }).finish_reason = "length";
    expect(
      repairChatCompletion(cut, { repairs: coreRepairs, splitMergedCalls: true }).completion.choices[0]
        ?.message.tool_calls,
    ).toHaveLength(1);
  });

  it("are split only when asked: by default a whole answer decides as its stream does (one unusable call)", () => {
    const merged = completion([{ id: "c1", arguments: '{"a":1}{"b":2}' }], true);
    const { completion: repaired, reports } = repairChatCompletion(merged, { repairs: coreRepairs });
    const calls = repaired.choices[0]?.message.tool_calls ?? [];
    expect(calls.map((call) => (call as { function: { arguments: string } }).function.arguments)).toEqual([
      '{"a":1}{"b":2}',
    ]);
    expect(reports[0]).toMatchObject({ usable: false });
    expect(reports[0]?.split).toBeUndefined();
  });
});
