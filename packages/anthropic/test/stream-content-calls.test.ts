import { readFileSync } from "node:fs";
import { join } from "node:path";
import { coreRepairs } from "@toolcall/core";
import { gemma4 } from "@toolcall/gemma-recovery";
import { qwen3Coder } from "@toolcall/model-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type MessagesRepairOptions,
  MessagesStreamRepair,
  type MessagesStreamReport,
  recoverMessageContentCalls,
  SseEvents,
} from "../src/index.js";
import { parseSseEvent } from "../src/sse-events.js";
import { type MessageShape, messageOf, sseOf, withPlainIds } from "./messages-sse.js";

// A streamed Messages API answer through MessagesStreamRepair with `syntaxes` (calls left in text) and
// `splitMergedCalls`, cut anywhere (the text deltas and the bytes of the body), against the whole-answer repair of
// the same message (`recoverMessageContentCalls`). Texts: Qwen3-Coder XML calls (a look-alike of what the model
// writes) and Gemma 4 native calls (recorded vLLM traffic, @toolcall/gemma-recovery's fixture).

const QWEN_CALL =
  "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>";
const GEMMA = readFileSync(
  join(import.meta.dirname, "../../gemma-recovery/test/__fixtures__/vllm-gemma4-native-call-in-content.sse"),
)
  .toString("utf8")
  .split("\n")
  .filter((line) => line.startsWith("data: {"))
  .map((line) => JSON.parse(line.slice(6)).choices[0]?.delta?.content ?? "")
  .join("");
const GEMMA_THOUGHT =
  '<|channel>thought\nThe user wants the weather.\n<channel|><|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>';
const TOOLS = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } },
    },
  },
];
const SYNTAXES = [qwen3Coder, gemma4];

const message = (content: Record<string, unknown>[], stop = "end_turn"): MessageShape => ({
  id: "msg_01XFDUDYJgAACzvnptvVoYEL",
  model: "qwen3-coder",
  content,
  stop_reason: stop,
});
const text = (value: string) => ({ type: "text", text: value });
const toolUse = (id: string, input: unknown) => ({ type: "tool_use", id, name: "get_weather", input });

/** The repaired SSE text of `sse` read in byte pieces cut at `byteCuts`. */
function repaired(args: { sse: string; byteCuts?: readonly number[]; options?: MessagesRepairOptions }) {
  const reports: MessagesStreamReport[] = [];
  const repair = new MessagesStreamRepair({
    syntaxes: SYNTAXES,
    tools: TOOLS,
    repairs: coreRepairs,
    ...args.options,
    onRepair: (report) => reports.push(report),
  });
  const events = new SseEvents();
  const bytes = new TextEncoder().encode(args.sse);
  const cuts = [...new Set((args.byteCuts ?? []).filter((cut) => cut > 0 && cut < bytes.length))].sort(
    (a, b) => a - b,
  );
  let out = "";
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    for (const event of events.push(bytes.subarray(from, cut))) out += repair.push(event).join("");
    from = cut;
  }
  for (const event of events.end()) out += repair.push(event).join("");
  out += repair.end().join("");
  return { out, reports, message: messageOf(out) };
}

const whole = (shape: MessageShape) =>
  recoverMessageContentCalls({ message: shape, syntaxes: SYNTAXES, tools: TOOLS }).message;

describe("MessagesStreamRepair with syntaxes: calls left in text blocks", () => {
  it("turns a Qwen3-Coder call into a tool_use block between the text before and after it", () => {
    const shape = message([
      text(`Let me check.\n${QWEN_CALL}\nOne moment.`),
      toolUse("toolu_01A", { city: "Rome" }),
    ]);
    const { message: got, reports } = repaired({ sse: sseOf({ message: shape, cuts: [3, 20, 40, 90] }) });
    expect(withPlainIds(got)).toEqual(
      withPlainIds({
        ...shape,
        stop_reason: "tool_use",
        content: [
          text("Let me check."),
          {
            type: "tool_use",
            id: "toolu_000000000000000000000000",
            name: "get_weather",
            input: { city: "Paris", days: 3 },
          },
          text("\nOne moment."),
          toolUse("toolu_01A", { city: "Rome" }),
        ],
      }),
    );
    const use = got.content[1] as { id: string };
    expect(use.id).toMatch(/^toolu_[A-Za-z0-9]{24}$/);
    expect(reports).toEqual([
      { kind: "content_call", index: 1, toolUseId: use.id, name: "get_weather", syntax: "qwen3-coder" },
    ]);
    expect(withPlainIds(got)).toEqual(withPlainIds(whole(shape)));
  });

  it("turns a Gemma 4 call of recorded vLLM text into a tool_use block, as the whole answer does", () => {
    const shape = message([text(GEMMA)]);
    const { message: got, reports } = repaired({ sse: sseOf({ message: shape, cuts: [5, 17, 18, 33, 60] }) });
    expect(got.content.filter((block) => block.type === "tool_use")).toHaveLength(1);
    expect(reports[0]).toMatchObject({ kind: "content_call", syntax: "gemma4" });
    expect(got.stop_reason).toBe("tool_use");
    expect(withPlainIds(got)).toEqual(withPlainIds(whole(shape)));
  });

  it("makes a Gemma 4 thought a thinking block before the call, as the whole answer does", () => {
    const shape = message([text(GEMMA_THOUGHT)]);
    const { message: got } = repaired({ sse: sseOf({ message: shape, cuts: [9, 30, 61, 62] }) });
    expect(got.content).toMatchObject([
      { type: "thinking", thinking: "The user wants the weather.", signature: "" },
      { type: "tool_use", name: "get_weather", input: { city: "Paris" } },
    ]);
    expect(withPlainIds(got)).toEqual(withPlainIds(whole(shape)));
  });

  it("hands text without calls, and thinking blocks, on event for event", () => {
    const shape = message([
      { type: "thinking", thinking: "The user wants < weather.", signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3h" },
      text("It is sunny in <Paris> at 3 < 4."),
    ]);
    const sse = sseOf({ message: shape, cuts: [4, 15, 16] });
    const { out, reports } = repaired({ sse });
    expect(messageOf(out)).toEqual(messageOf(sse));
    expect(reports).toEqual([]);
  });

  it("holds text only while it may begin a call marker", () => {
    const repair = new MessagesStreamRepair({ syntaxes: SYNTAXES, tools: TOOLS });
    const push = (type: string, data: Record<string, unknown>) =>
      repair.push(parseSseEvent(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}`)).join("");
    const delta = (value: string) =>
      push("content_block_delta", { index: 0, delta: { type: "text_delta", text: value } });
    push("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
    expect(delta("It is sunny")).toContain('"text":"It is sunny"');
    // `<tool_c` may begin Qwen3-Coder's marker: held; ` in` shows it does not, and both go on.
    expect(delta(" <tool_c")).not.toContain("tool_c");
    expect(delta("all-free text")).toContain("tool_call-free text");
    expect(delta("<tool_call>\n<function=get_weather>\n")).not.toContain("get_weather");
    const closed = delta("<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>");
    expect(closed).toContain('"type":"tool_use"');
    expect(closed).toContain('"index":1');
  });

  it("leaves text as it came without syntaxes", () => {
    const sse = sseOf({ message: message([text(QWEN_CALL)]), cuts: [10] });
    expect(repaired({ sse, options: { syntaxes: [] } }).out).toBe(sse);
  });
});

describe("MessagesStreamRepair with the request's tools", () => {
  it("types repaired input by the tool's schema; clean input goes on as it came", () => {
    const shape = message([toolUse("toolu_01F", {}), toolUse("toolu_01G", {})], "tool_use");
    // The clean one first: a block that waits behind a held one goes whole once decided, typed as well.
    const inputs = { 0: '{"city": "Rome", "days": "4"}', 1: "{'city': 'Paris', 'days': '3'}" };
    const { message: got } = repaired({ sse: sseOf({ message: shape, inputs }), options: { syntaxes: [] } });
    expect(got.content.map((block) => block.input)).toEqual([
      { city: "Rome", days: "4" },
      { city: "Paris", days: 3 },
    ]);
  });
});

describe("MessagesStreamRepair with splitMergedCalls", () => {
  const shape = message([text("Two cities."), toolUse("toolu_01B", {}), text("Done.")], "tool_use");
  const inputs = { 1: '{"city": "Paris"}{"city": "Rome"}' };

  it("makes merged input two tool_use blocks and moves the blocks after them up", () => {
    const { message: got, reports } = repaired({
      sse: sseOf({ message: shape, inputs, cuts: [7, 16, 17, 30] }),
      options: { splitMergedCalls: true },
    });
    expect(got.content).toEqual([
      text("Two cities."),
      toolUse("toolu_01B", { city: "Paris" }),
      toolUse("toolu_01B_2", { city: "Rome" }),
      text("Done."),
    ]);
    expect(reports).toMatchObject([{ kind: "tool_use", index: 1, split: ["toolu_01B", "toolu_01B_2"] }]);
  });

  it("keeps merged input one block without it (held, as before)", () => {
    const { message: got } = repaired({
      sse: sseOf({ message: shape, inputs }),
      options: { splitMergedCalls: false },
    });
    expect(got.content).toHaveLength(3);
    expect(got.content[1]?.input).toBe(inputs[1]);
  });
});

describe("stream ≡ whole: any cut of the stream gives the whole answer's message", () => {
  const texts = [
    `Let me check.\n${QWEN_CALL}\nOne moment.`,
    `${QWEN_CALL}${QWEN_CALL}`,
    GEMMA,
    "No call here, only <tool and < signs.",
    `  \n${QWEN_CALL}  \n`,
    `\ud83d\ude00 before ${QWEN_CALL} \ud800 after`,
    GEMMA_THOUGHT,
    "<|channel>thought\nThe user only greets.\n<channel|>Hello!",
  ];
  it("holds for the texts above, cut anywhere in the text and in the bytes", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...texts), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        fc.array(fc.nat(400), { maxLength: 12 }),
        fc.array(fc.nat(4000), { maxLength: 20 }),
        (chosen, withUse, cuts, byteCuts) => {
          const content: Record<string, unknown>[] = chosen.map(text);
          if (withUse) content.splice(1, 0, toolUse("toolu_01C", { city: "Oslo" }));
          const shape = message(content);
          const { message: got } = repaired({ sse: sseOf({ message: shape, cuts }), byteCuts });
          expect(withPlainIds(got)).toEqual(withPlainIds(whole(shape)));
        },
      ),
      { numRuns: 150 },
    );
  });

  it("holds for texts made of marker pieces in any order (the adversarial case for a held prefix)", () => {
    const fragments = [
      "<tool_call>",
      "\n<function=get_weather>",
      "\n<parameter=city>\nParis\n</parameter>",
      "\n</function>",
      "\n</tool_call>",
      " ",
      "\n",
      "x",
      "<",
      "<|tool_call>",
      'call:get_weather{city:<|"|>Rome<|"|>}',
      "<tool_call|>",
      "<|channel>thought\n",
      "<channel|>",
      "\ud800",
      "  \n ",
    ];
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom(...fragments), { maxLength: 14 }), { minLength: 1, maxLength: 3 }),
        fc.array(fc.nat(200), { maxLength: 15 }),
        (blocks, cuts) => {
          const shape = message(blocks.map((parts) => text(parts.join(""))));
          const { message: got } = repaired({ sse: sseOf({ message: shape, cuts }) });
          expect(withPlainIds(got)).toEqual(withPlainIds(whole(shape)));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("holds with merged input split, however it is cut", () => {
    const shape = message([text(`A.${QWEN_CALL}`), toolUse("toolu_01D", {}), text("B.")], "tool_use");
    const inputs = { 1: '{"city": "Paris"}{"city": "Rome"}' };
    const expected = withPlainIds(
      repaired({ sse: sseOf({ message: shape, inputs }), options: { splitMergedCalls: true } }).message,
    );
    expect((expected as MessageShape).content).toHaveLength(5);
    fc.assert(
      fc.property(
        fc.array(fc.nat(200), { maxLength: 12 }),
        fc.array(fc.nat(3000), { maxLength: 20 }),
        (cuts, byteCuts) => {
          const got = repaired({
            sse: sseOf({ message: shape, inputs, cuts }),
            byteCuts,
            options: { splitMergedCalls: true },
          });
          expect(withPlainIds(got.message)).toEqual(expected);
        },
      ),
      { numRuns: 100 },
    );
  });

  it("gives one message however a stream with calls in text, merged and broken input is cut, finished or not", () => {
    // Not among the inputs: an object sent twice. Core's accumulator reads a piece that repeats a call's whole
    // arguments as a repeated frame (R9, `frame_repeated`), so there the cut decides, at every door.
    const inputs = ['{"a":1}{"b":2}', "{'a':1}", '{"a":', '{"a":1}', '{"q":1}{"q":2}{"q":3}', "", "x"];
    const block = fc.oneof(
      fc
        .constantFrom("hi", QWEN_CALL, `a${QWEN_CALL}b`, " ")
        .map((value) => ({ block: text(value), input: undefined as string | undefined })),
      fc.constantFrom(...inputs).map((input) => ({ block: toolUse("toolu_01E", {}), input })),
    );
    const run = (args: {
      shape: MessageShape;
      inputs: Record<number, string>;
      cuts: number[];
      byteCuts: number[];
      stop: boolean;
    }) => {
      let sse = sseOf({ message: args.shape, cuts: args.cuts, inputs: args.inputs });
      if (!args.stop) sse = sse.slice(0, sse.indexOf("event: message_delta"));
      return withPlainIds(
        repaired({ sse, byteCuts: args.byteCuts, options: { splitMergedCalls: true } }).message,
      );
    };
    fc.assert(
      fc.property(
        fc.array(block, { minLength: 1, maxLength: 5 }),
        fc.array(fc.nat(120), { maxLength: 10 }),
        fc.array(fc.nat(3000), { maxLength: 10 }),
        fc.boolean(),
        (blocks, cuts, byteCuts, stop) => {
          const shape = message(
            blocks.map((entry) => entry.block),
            "tool_use",
          );
          const given: Record<number, string> = {};
          for (const [at, entry] of blocks.entries()) if (entry.input !== undefined) given[at] = entry.input;
          const once = run({ shape, inputs: given, cuts: [], byteCuts: [], stop });
          expect(run({ shape, inputs: given, cuts, byteCuts, stop })).toEqual(once);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("holds with the call's marker cut at every place", () => {
    const value = `Let me check.\n${QWEN_CALL}\nDone.`;
    const shape = message([text(value)]);
    const expected = withPlainIds(whole(shape));
    for (let cut = 1; cut < value.length; cut++) {
      const got = repaired({ sse: sseOf({ message: shape, cuts: [cut] }) }).message;
      expect(withPlainIds(got)).toEqual(expected);
    }
    const each = repaired({ sse: sseOf({ message: shape, cuts: [...value].map((_, at) => at) }) }).message;
    expect(withPlainIds(each)).toEqual(expected);
  });
});

describe("hostile text", () => {
  it("reads a huge text with a call at its end, sending each piece once", () => {
    const frames = (sse: string) => sse.split("\n\n").length;
    const ratios = [20_000, 320_000].map((size) => {
      const value = `${"lorem < ipsum <tool ".repeat(size / 20)}${QWEN_CALL}`;
      const cuts = Array.from({ length: value.length / 64 }, (_, at) => at * 64 + (at % 7));
      const sse = sseOf({ message: message([text(value)]), cuts });
      const { out, message: got } = repaired({ sse });
      expect(got.content.map((block) => block.type)).toEqual(["text", "tool_use"]);
      expect(frames(out)).toBeLessThanOrEqual(frames(sse) + 4);
      return out.length / sse.length;
    });
    // What the client gets grows as the answer does: no piece is sent twice, however long the text.
    expect(ratios[1]).toBeLessThan((ratios[0] as number) * 1.05);
  });

  it("ends a text block the answer ended before its stop came, and stops each block once", () => {
    const sse = sseOf({ message: message([text(`Sure.${QWEN_CALL}`)]), cuts: [9] });
    const stop = 'event: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\n';
    const early = sse.replace(stop, "").replace("event: message_stop", `${stop}event: message_stop`);
    const { out, message: got } = repaired({ sse: early });
    expect(got.content.map((block) => block.type)).toEqual(["text", "tool_use"]);
    expect(got.stop_reason).toBe("tool_use");
    expect(out.split("event: content_block_stop").length - 1).toBe(2);
  });

  it("keeps lone surrogates and a text that is only a marker's start", () => {
    for (const value of ["\ud800", "<tool_call", "<tool_call>\n<function=", "\udfff<tool_call>\ud800"]) {
      const shape = message([text(value)]);
      const { message: got } = repaired({ sse: sseOf({ message: shape, cuts: [1, 2, 3] }) });
      expect(got).toEqual(whole(shape));
      expect(got.content).toEqual([text(value)]);
    }
  });
});
