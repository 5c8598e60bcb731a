import type { WorkCounter } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectOutputSyntax, detectToolCallSyntax, kimiK2, kimiK3 } from "../src/index.js";
import { cutsFor, expectSplitInvariant, fixedIds, streamedWork } from "./helpers.js";
import { KIMI_K3_LOOK_ALIKE } from "./kimi3-template.js";
import { expectReferenceRoundTrip } from "./reference-round-trip.js";
import { type Case, expectRoundTrips } from "./round-trip-property.js";

const CASE: Case = {
  template: "look-alike of Kimi K3's template",
  source: KIMI_K3_LOOK_ALIKE,
  syntax: kimiK3,
  content: true,
  reasoning: "any",
  calls: 3,
};
const T = "<|open|>tools<|sep|>";
const TC = "<|close|>tools<|sep|>";
const call = (tool: string, args: [string, string, string][], index = 1) =>
  `<|open|>call tool="${tool}" index="${index}"<|sep|>${args
    .map(([k, type, v]) => `<|open|>argument key="${k}" type="${type}"<|sep|>${v}<|close|>argument<|sep|>`)
    .join("")}<|close|>call<|sep|>`;
const read = (text: string, options = {}) => kimiK3.parse(text, { createId: fixedIds, ...options });
const codes = (text: string, options = {}) => read(text, options).issues.map((issue) => issue.code);
const WEATHER = [
  {
    type: "function",
    function: {
      name: "get_weather",
      parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } },
    },
  },
];

describe("Kimi K3 on a look-alike of its template", () => {
  it("is detected by rendering, and its generation prompt opens the think channel", () => {
    expect(detectToolCallSyntax(KIMI_K3_LOOK_ALIKE)).toMatchObject({
      id: "kimi-k3",
      method: "render",
      parallelCalls: true,
      startInReasoning: true,
      candidates: ["kimi-k3"],
    });
  });

  it("round-trips what @toolcall/jinja renders", () => {
    expectRoundTrips(CASE, KIMI_K3_LOOK_ALIKE);
  });

  it("round-trips what the reference renderer (transformers' Jinja2) renders, byte for byte", () => {
    expect(expectReferenceRoundTrip(CASE, KIMI_K3_LOOK_ALIKE)).toBeGreaterThanOrEqual(6);
  });
});

describe("Kimi K3's channels", () => {
  const output = `The user wants Tokyo.<|close|>think<|sep|><|open|>response<|sep|>Checking.<|close|>response<|sep|>${T}${call(
    "get_weather",
    [
      ["city", "string", " New York "],
      ["days", "number", "2"],
    ],
  )}${call("get_weather", [["city", "string", "Paris"]], 2)}${TC}<|close|>message<|sep|>`;

  it("splits reasoning, reply and calls at any cut; values are typed by the schema, strings kept as written", () => {
    fc.assert(
      fc.property(cutsFor(output.length), (cuts) => {
        const parsed = expectSplitInvariant(kimiK3, output, { startInReasoning: true, tools: WEATHER }, [
          cuts,
        ]);
        expect(parsed.reasoning).toBe("The user wants Tokyo.");
        expect(parsed.content).toBe("Checking.");
        expect(parsed.toolCalls.map((c) => [c.function.name, c.function.arguments])).toEqual([
          ["get_weather", '{"city": " New York ", "days": 2}'],
          ["get_weather", '{"city": "Paris"}'],
        ]);
        expect(parsed.issues).toEqual([]);
      }),
      { numRuns: 30, seed: 3 },
    );
  });

  it("streams arguments pair by pair, before the call closes", () => {
    const stream = kimiK3.createStream({ createId: fixedIds });
    const first = stream.push(
      `${T}<|open|>call tool="f" index="1"<|sep|><|open|>argument key="a" type="string"<|sep|>x`,
    );
    expect(first.map((e) => e.type)).toEqual(["tool_call_start"]);
    const second = stream.push('<|close|>argument<|sep|><|open|>argument key="b" type="number"<|sep|>1');
    expect(second).toEqual([{ type: "tool_call_delta", index: 0, arguments: '{"a": "x"' }]);
    const rest = stream.push(`<|close|>argument<|sep|><|close|>call<|sep|>${TC}`);
    expect(rest.map((e) => e.type)).toEqual(["tool_call_delta", "tool_call_end"]);
  });

  it("without tools, the type attribute types a value; JSON that does not read stays text, loudly", () => {
    const text = `${T}${call("f", [
      ["n", "integer", "-1"],
      ["ok", "boolean", "true"],
      ["none", "null", "null"],
      ["list", "array", "[1, 2]"],
      ["s", "string", "42"],
      ["bad", "object", "{not json"],
    ])}${TC}`;
    expect(read(text).toolCalls[0]?.function.arguments).toBe(
      '{"n": -1, "ok": true, "none": null, "list": [1, 2], "s": "42", "bad": "{not json"}',
    );
    expect(codes(text)).toEqual(["parameter_type_mismatch"]);
  });

  it("reads a JSON block as the whole arguments; one that is not an object stays in content", () => {
    const block = `${T}<|open|>call tool="f" index="1"<|sep|><|open|>json type="object"<|sep|>{"a": [1, {"b": null}]}<|close|>json<|sep|><|close|>call<|sep|>${TC}`;
    expect(read(block).toolCalls[0]?.function.arguments).toBe('{"a": [1, {"b": null}]}');
    const broken = block.replace('{"a": [1, {"b": null}]}', "[1]");
    expect(read(broken)).toMatchObject({ toolCalls: [], content: broken });
    expect(codes(broken)).toEqual(["call_invalid"]);
  });

  it("malformed calls stay in content byte for byte; the section's other calls are read", () => {
    for (const bad of [
      '<|open|>call index="1"<|sep|><|close|>call<|sep|>',
      '<|open|>call tool="f" junk<|sep|><|close|>call<|sep|>',
      '<|open|>call tool="f"<|sep|>stray text<|close|>call<|sep|>',
      '<|open|>call tool="f"<|sep|><|open|>argument type="string"<|sep|>v<|close|>argument<|sep|><|close|>call<|sep|>',
      '<|open|>call tool="f"<|sep|><|open|>argument key="a"<|sep|>left open<|close|>call<|sep|>',
    ]) {
      const text = `Before.${T}${bad}${call("g", [["k", "string", "v"]], 2)}${TC}`;
      const parsed = read(text);
      expect(
        parsed.toolCalls.map((c) => c.function.name),
        bad,
      ).toEqual(["g"]);
      expect(parsed.content, bad).toBe(`Before.${T}${bad}`);
      expect(parsed.issues.map((i) => i.code)).toEqual(["call_invalid"]);
    }
  });

  it("a call cut short stays in content; whole arguments without the call's end are read (call_unclosed)", () => {
    const cut = `Say hi ${T}<|open|>call tool="greet" index="1"<|sep|><|open|>argument key="name" type="string"<|sep|>Wor`;
    expect(read(cut)).toMatchObject({ toolCalls: [], content: cut });
    expect(codes(cut)).toEqual(["call_truncated"]);
    const unclosed = `${T}<|open|>call tool="greet" index="1"<|sep|><|open|>argument key="name" type="string"<|sep|>World<|close|>argument<|sep|>`;
    expect(read(unclosed).toolCalls.map((c) => c.function.arguments)).toEqual(['{"name": "World"}']);
    expect(codes(unclosed)).toEqual(["call_unclosed"]);
    const before = `${T}${call("a", []).replace("<|close|>call<|sep|>", "")}${call("b", [], 2)}${TC}`;
    expect(read(before).toolCalls.map((c) => c.function.name)).toEqual(["a", "b"]);
    expect(codes(before)).toEqual(["call_unclosed"]);
  });

  it("a call outside a tools channel is read (call_unopened); the message's end is syntax only at the end", () => {
    const bare = call("f", [["a", "string", "1"]]);
    expect(read(bare).toolCalls).toHaveLength(1);
    expect(codes(bare)).toEqual(["call_unopened"]);
    expect(read("literal <|close|>message<|sep|> text").content).toBe("literal <|close|>message<|sep|> text");
    expect(read("done<|close|>message<|sep|>\n").content).toBe("done\n");
    expect(read("<|open|>calling you").content).toBe("<|open|>calling you");
  });

  it("names, keys and strings: attributes are unescaped once, values never; unknown keys are told", () => {
    const text = `${T}<|open|>call tool="get_weather" index="1"<|sep|><|open|>argument key="q&amp;&quot;" type="string"<|sep|>&amp;<|close|>argument<|sep|><|close|>call<|sep|>${TC}`;
    const parsed = read(text, { tools: WEATHER });
    expect(parsed.toolCalls[0]?.function.arguments).toBe('{"q&\\"": "&amp;"}');
    expect(parsed.issues.map((i) => i.code)).toEqual(["unknown_parameter"]);
    const encoded = kimiK3.encode([{ function: { name: "a&b", arguments: '{"k&\\"": "v"}' } }]);
    expect(encoded).toContain('tool="a&amp;b"');
    expect(encoded).toContain('key="k&amp;&quot;"');
    expect(read(encoded).toolCalls[0]?.function).toEqual({ name: "a&b", arguments: '{"k&\\"": "v"}' });
    // A quote in a name is no tool's name: the call stays text.
    const quoted = kimiK3.encode([{ function: { name: 'a"b', arguments: "{}" } }]);
    expect(read(quoted)).toMatchObject({ toolCalls: [], content: quoted });
  });

  it("the prompt may open the reply: its close before any call is syntax, once; a later stray close is text", () => {
    // As xLLM's Kimi K3 detector tests write a generated turn (jd-opensource/xllm, Apache-2.0): no reply opener.
    expect(read("plain response<|close|>response<|sep|><|close|>message<|sep|>").content).toBe(
      "plain response",
    );
    const withCall = `The answer<|close|>response<|sep|>${T}${call("get_weather", [["city", "string", "Beijing"]])}${TC}`;
    expect(expectSplitInvariant(kimiK3, withCall)).toMatchObject({ content: "The answer", issues: [] });
    expect(read("x<|close|>response<|sep|>y<|close|>response<|sep|>").content).toBe(
      "xy<|close|>response<|sep|>",
    );
  });

  it("thinks again after a call (an interleaved think channel); `__proto__` is a key like any other", () => {
    const text = `<|open|>think<|sep|>First.<|close|>think<|sep|>${T}${call("f", [["__proto__", "string", "x"]])}${TC}<|open|>think<|sep|>Then.<|close|>think<|sep|><|open|>response<|sep|>Done.<|close|>response<|sep|>`;
    const parsed = expectSplitInvariant(kimiK3, text);
    expect(parsed).toMatchObject({ reasoning: "First.Then.", content: "Done.", issues: [] });
    expect(parsed.toolCalls[0]?.function.arguments).toBe('{"__proto__": "x"}');
    const block = `${T}<|open|>call tool="f" index="1"<|sep|><|open|>json type="object"<|sep|>{"__proto__": {"a": 1}}<|close|>json<|sep|><|close|>call<|sep|>${TC}`;
    expect(read(block).toolCalls[0]?.function.arguments).toBe('{"__proto__": {"a": 1}}');
  });

  it("from output alone, its markers name it with certainty; Kimi K2 does not read it", () => {
    const text = kimiK3.encode([{ function: { name: "get_weather", arguments: '{"city": "Tokyo"}' } }]);
    expect(detectOutputSyntax(text)).toMatchObject({
      status: "detected",
      id: "kimi-k3",
      confidence: "certain",
      candidates: ["kimi-k3"],
    });
    expect(kimiK2.parse(text).toolCalls).toEqual([]);
  });
});

describe("Kimi K3 on hostile input", () => {
  const fragments = [
    T,
    TC,
    "<|open|>call",
    ' tool="f"',
    ' index="1"',
    "<|sep|>",
    '<|open|>argument key="k" type="string"',
    ' type="number"',
    "<|close|>argument<|sep|>",
    "<|close|>call<|sep|>",
    '<|open|>json type="object"',
    "<|close|>json<|sep|>",
    "<|open|>think<|sep|>",
    "<|close|>think<|sep|>",
    "<|close|>think",
    "<|open|>response<|sep|>",
    "<|close|>response<|sep|>",
    "<|close|>message<|sep|>",
    "<|",
    "&amp;",
    "&quot;",
    '"',
    "{",
    "1",
    "\n",
    "\uD800",
    "😀",
    "__proto__",
  ];

  it("never throws, loses nothing, and every split gives the whole parse", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...fragments), { maxLength: 30 }),
        cutsFor(400),
        fc.boolean(),
        (parts, cuts, startInReasoning) => {
          const text = parts.join("");
          const parsed = expectSplitInvariant(kimiK3, text, { startInReasoning }, [cuts]);
          // Text without a token is content as written, all of it.
          if (!text.includes("<|") && !startInReasoning)
            expect(parsed.content).toBe(text.trim() === "" ? null : text);
          // No call is read from text that holds none of a call's tags.
          if (!text.includes("<|open|>call")) expect(parsed.toolCalls).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("does work linear in its input, whole and streamed", () => {
    for (const unit of [
      "<|open|>call",
      `${T}<|open|>call tool="f"<|sep|>`,
      '<|open|>argument key="k" type="string"<|sep|><|',
      "<|close|>message<|sep|> ",
      "<|",
      '<|open|>call tool="f',
    ]) {
      const works = [1 << 13, 1 << 15].map((size) => {
        const text = T + unit.repeat(Math.ceil(size / unit.length));
        const work: WorkCounter = { scanned: 0 };
        kimiK3.parse(text, { work });
        expect(work.scanned, unit).toBeLessThanOrEqual(6 * text.length + 1000);
        expect(streamedWork(kimiK3, text, 4096), unit).toBeLessThanOrEqual(12 * text.length + 1000);
        return work.scanned;
      });
      const [small = 1, large = 0] = works;
      expect(Math.log(large / small) / Math.log(4), unit).toBeLessThanOrEqual(1.2);
    }
  });
});
