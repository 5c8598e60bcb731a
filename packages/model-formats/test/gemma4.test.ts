import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createWorkMeter, type WorkCounter } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeGemmaArguments, gemma4, parseGemmaArguments } from "../src/gemma4.js";
import {
  checkEvents,
  expectSplitInvariant,
  fixedIds,
  splitAt,
  streamChunks,
  streamedWork,
} from "./helpers.js";

const Q = '<|"|>';
const call = (body: string, name = "f") => `<|tool_call>call:${name}${body}<tool_call|>`;
const parse = (text: string) => gemma4.parse(text, { createId: fixedIds });
const args = (text: string) => JSON.parse(parse(text).toolCalls[0]?.function.arguments ?? "null");
const codes = (text: string) => parse(text).issues.map((issue) => issue.code);

describe("gemma4: the native syntax", () => {
  it("reads every value kind", () => {
    expect(
      args(
        call(
          `{key:${Q}text${Q},n:42,x:-1.5e3,b:true,c:false,z:null,o:{k:${Q}v${Q}},a:[${Q}x${Q},1,[]],e:{}}`,
        ),
      ),
    ).toEqual({
      key: "text",
      n: 42,
      x: -1500,
      b: true,
      c: false,
      z: null,
      o: { k: "v" },
      a: ["x", 1, []],
      e: {},
    });
  });

  it("reads Python's None and the other null words, and keeps big integers whole", () => {
    expect(args(call("{a:None,b:none,c:nil}"))).toEqual({ a: null, b: null, c: null });
    expect(parse(call("{d:12345678901234567890}")).toolCalls[0]?.function.arguments).toBe(
      '{"d": 12345678901234567890}',
    );
  });

  it("finds several calls and keeps the text around them exactly", () => {
    const result = parse(
      `Checking both.${call(`{city:${Q}Paris${Q}}`, "weather")} and ${call("{}", "time")}`,
    );
    expect(result.toolCalls.map((c) => [c.id, c.function.name, c.function.arguments])).toEqual([
      ["call_0", "weather", '{"city": "Paris"}'],
      ["call_1", "time", "{}"],
    ]);
    expect(result.content).toBe("Checking both. and ");
    expect(result.issues).toEqual([]);
    expect(parse(`  ${call("{}")}\n`).content).toBeNull();
  });

  it("splits the thought channel as reasoning; a call written while thinking is thinking", () => {
    const thought = `<|channel>thought\nMaybe ${call("{x:1}")}?\n<channel|>`;
    expect(parse(`${thought}Done.${call("{y:2}")}`)).toMatchObject({
      reasoning: `Maybe ${call("{x:1}")}?`,
      content: "Done.",
      toolCalls: [{ function: { arguments: '{"y": 2}' } }],
      issues: [],
    });
    // The prompt opened the thought: the text starts inside it.
    const opened = gemma4.parse(`Weather first.\n<channel|>${call("{y:2}")}`, { startInReasoning: true });
    expect(opened).toMatchObject({ reasoning: "Weather first.", content: null, toolCalls: [{}] });
  });

  it("reads quote tokens inside a string as quotes, and a string may hold the closing token", () => {
    expect(args(call(`{content:${Q}She said "hello" loudly${Q}}`))).toEqual({
      content: 'She said "hello" loudly',
    });
    expect(args(call(`{code:${Q}sql(${Q}${Q}${Q} x ${Q}${Q}${Q})${Q},n:1}`))).toEqual({
      code: 'sql(""" x """)',
      n: 1,
    });
    expect(args(call(`{s:${Q}a<tool_call|>b${Q}}`))).toEqual({ s: "a<tool_call|>b" });
    expect(args(call(`{a:[${Q}x${Q}, ${Q}y, z${Q}]}`))).toEqual({ a: ["x", "y, z"] });
  });

  it("reads the Gemma payloads captured in the wild", () => {
    const payloads = JSON.parse(
      readFileSync(join(import.meta.dirname, "../../../../shared/wild/payloads.json"), "utf8"),
    ) as Array<{ category: string; raw: string }>;
    const raw = (category: string) => payloads.find((p) => p.category === category)?.raw as string;
    expect(args(call(`{${raw("gemma4_native_interior_delimiter")}}`))).toEqual({
      code: 'result = duckdb.sql(""" SELECT ... """).df()',
      data_refs: ["df_1"],
      return_vars: ["result"],
    });
    expect(args(call(`{${raw("gemma4_native_internal_quote")}}`))).toEqual({
      content: 'She said "hello" loudly',
    });
    const result = parse(raw("gemma4_native_unparsed_in_content"));
    expect(result.toolCalls[0]?.function.name).toBe("patch");
    expect(JSON.parse(result.toolCalls[0]?.function.arguments ?? "")).toEqual({
      path: "/tmp/a.py",
      content: "print('hi')",
      mode: "overwrite",
    });
  });

  it("reads bare words as strings (a server stripped the quote tokens), keys quoted any way", () => {
    expect(args(call("{city:Paris,unit:celsius}"))).toEqual({ city: "Paris", unit: "celsius" });
    expect(args(call("{a:x1,b:v1.5,c: -2.5e3 ,d:1e5x}"))).toEqual({
      a: "x1",
      b: "v1.5",
      c: -2500,
      d: "1e5x",
    });
    expect(args(call(`{"url":${Q}u${Q},${Q}depth${Q}:2,"s":"a\\"b"}`))).toEqual({
      url: "u",
      depth: 2,
      s: 'a"b',
    });
  });

  it("leaves a malformed call in content exactly as written (call_invalid), and reads the text after it", () => {
    for (const body of [
      `{a:${Q}x${Q}b:1}`,
      "{a:hello, world}",
      `{a:${Q}never closed}`,
      "{a:1} trailing",
      "{:1}",
    ]) {
      const text = `Before ${call(body)} after ${call("{}", "g")}`;
      const result = parse(text);
      expect(
        result.toolCalls.map((c) => c.function.name),
        body,
      ).toEqual(["g"]);
      expect(result.content, body).toBe(`Before ${call(body)} after `);
      expect(result.issues.map((i) => i.code)[0], body).toBe("call_invalid");
    }
    // A string still open at the next call's opener never closed: that call is read on its own.
    const open = `${call(`{a:${Q}x`)}${call("{}", "g")}`;
    expect(parse(open)).toMatchObject({
      content: call(`{a:${Q}x`),
      toolCalls: [{ function: { name: "g" } }],
    });
    expect(codes(call("{a:1} <b>"))).toEqual(["call_invalid"]);
    expect(codes(`<|tool_call>oops{}<tool_call|>`)).toEqual(["call_invalid"]);
    expect(codes(`<|tool_call>call:multiply a=1{}<tool_call|>`)).toEqual(["call_invalid"]);
  });

  it("a cut call stays in content (call_truncated); a whole one missing <tool_call|> is a call (call_unclosed)", () => {
    for (const cut of [
      "<|tool_call>call:f{a:1",
      "<|tool_call>cal",
      `<|tool_call>call:f{a:${Q}x`,
      "<|tool_call>call:f{a:1}<tool_ca",
    ]) {
      expect(parse(`Hi ${cut}`), cut).toMatchObject({
        toolCalls: [],
        content: `Hi ${cut}`,
        issues: [{ code: "call_truncated" }],
      });
    }
    expect(parse(`Hi ${call("{a:1}").slice(0, -"<tool_call|>".length)}  `)).toMatchObject({
      toolCalls: [{ function: { arguments: '{"a": 1}' } }],
      content: "Hi ",
      issues: [{ code: "call_unclosed", severity: "info" }],
    });
  });

  it("keeps __proto__ keys as data", () => {
    const result = args(call(`{__proto__:{polluted:true},constructor:${Q}x${Q}}`));
    expect(Object.hasOwn(result, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("gemma4: the stream", () => {
  const samples = [
    `Let me look.${call(`{city:${Q}Paris${Q},days:3}`, "get_weather")}`,
    `<|channel>thought\nuse ${call("{}", "x")}\n<channel|>ok ${call(`{s:${Q}x<tool_call|>y${Q}}`, "a")}${call("{}", "b")} end`,
    `A < B and <| is not a token. ${call(`{a:${Q}x${Q}b:1}`)}`,
    "cut <|tool_call>call:f{a:1",
    call(`{code:${Q}sql(${Q}${Q}${Q} x ${Q}${Q}${Q})${Q},n:1}`),
  ];

  it("gives the whole parse for any split, deltas adding up to the arguments", () => {
    for (const text of samples) {
      for (let i = 0; i <= text.length; i++) {
        const { events } = streamChunks(gemma4, [text.slice(0, i), text.slice(i)]);
        checkEvents(events);
      }
      fc.assert(
        fc.property(fc.array(fc.nat({ max: text.length }), { maxLength: 12 }), (cuts) => {
          expect(streamChunks(gemma4, splitAt(text, cuts)).result).toEqual(parse(text));
        }),
        { numRuns: 50 },
      );
      expectSplitInvariant(gemma4, text);
    }
  });

  it("announces a call at its name and passes its arguments on pair by pair", () => {
    const text = `x${call(`{a:${Q}1${Q},b:2,c:[1,2]}`)}y`;
    const stream = gemma4.createStream({ createId: fixedIds });
    const seen: string[] = [];
    for (const char of text)
      for (const event of stream.push(char)) if (event.type === "tool_call_delta") seen.push(event.arguments);
    stream.end();
    expect(seen).toEqual(['{"a": "1"', ', "b": 2', ', "c": [1, 2]', "}"]);
  });

  it("charges the caller's meter and stops at its limit, nothing lost", () => {
    const text = `Hi ${call(`{a:${Q}x${Q}}`).repeat(400)}`;
    const counted = createWorkMeter();
    expect(gemma4.parse(text, { meter: counted }).toolCalls).toHaveLength(400);
    expect(counted.steps).toBeGreaterThan(text.length / 2);
    const tight = gemma4.parse(text, { meter: createWorkMeter({ limit: 1000 }) });
    expect(tight.issues.map((i) => i.code)).toContain("budget_exhausted");
    expect(tight.toolCalls.length).toBeLessThan(400);
  });

  it("takes anything as a delta without throwing", () => {
    const stream = gemma4.createStream({});
    const events = [
      ...stream.push(null as unknown as string),
      ...stream.push({} as unknown as string),
      ...stream.push(call("{a:1}")),
      ...stream.end(),
    ];
    expect(events.filter((e) => e.type === "tool_call_end")).toHaveLength(1);
  });
});

/** Adversarial texts for the Gemma reader (each once made an earlier parser rescan). */
const HOSTILE: Record<string, (n: number) => string> = {
  "openers and half-calls": (n) => "<|tool_call>call:f{<tool_call>".repeat(n / 31),
  "interior quote tokens": (n) => `<|tool_call>call:f{a:${Q}${`${Q},`.repeat(n / 6)}`,
  "tokens followed by keys far away": (n) =>
    `<|tool_call>call:f{a:${Q}${`${Q},${"k".repeat(200)}`.repeat(n / 206)}`,
  "quoted keys that never close": (n) =>
    `<|tool_call>call:f{a:${Q}${`${Q},${Q}${"k".repeat(300)}`.repeat(n / 311)}`,
  "many false closes": (n) => `<|tool_call>call:f{a:${Q}${"<tool_call|>".repeat(n / 12)}`,
  "calls whose strings never close": (n) => `<|tool_call>call:f{a:${Q}x<tool_call|>`.repeat(n / 30),
  "calls whose JSON strings never close": (n) => `<|tool_call>call:f{a:"x<tool_call|>`.repeat(n / 26),
  "open tokens": (n) => "<|tool_call>".repeat(n / 12),
  "deep nesting": (n) => `<|tool_call>call:f{a:${"[".repeat(n)}`,
  "bare pairs": (n) => `<|tool_call>call:f{${"a:b,".repeat(n / 4)}`,
  "white space after a quote token": (n) => `<|tool_call>call:f{a:${Q}x${Q}${" ".repeat(n)}`,
  "a name that never ends": (n) => `<|tool_call>call:${"f".repeat(n)}`,
  "calls whose bare values never end": (n) => '<|tool_call>call:f{":<tool_call|><|'.repeat(n / 34),
  "good calls": (n) => `<|tool_call>call:f{a:${Q}x${Q},n:1}<tool_call|>text `.repeat(n / 42),
};

describe("gemma4: work linear in the text, counted", () => {
  for (const [name, make] of Object.entries(HOSTILE)) {
    it(name, () => {
      const ratios = [16_384, 262_144].map((size) => {
        const text = make(size);
        const work: WorkCounter = { scanned: 0 };
        gemma4.parse(text, { work });
        expect(work.scanned, `whole, ${size}`).toBeLessThanOrEqual(8 * text.length + 1000);
        for (const piece of [7, 64]) {
          const streamed = streamedWork(gemma4, text, piece);
          expect(streamed, `in pieces of ${piece}, ${size}`).toBeLessThanOrEqual(12 * text.length + 1000);
        }
        return work.scanned / text.length;
      });
      // Sixteen times the text, about sixteen times the work.
      expect((ratios[1] ?? 0) / (ratios[0] ?? 1)).toBeLessThanOrEqual(1.25);
    });
  }
});

describe("parseGemmaArguments and the encoder", () => {
  it("round-trips: parse(encode(x)) = x for JSON objects without the quote token or a call opener", () => {
    const key = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,12}$/);
    const tricky = fc
      .array(
        fc.constantFrom(
          "<|",
          '"',
          "|>",
          ",",
          "}",
          "{",
          ":",
          "]",
          "[",
          "a",
          " ",
          "<tool_call|>",
          '<|"',
          "None",
          "1",
        ),
        {
          maxLength: 8,
        },
      )
      .map((parts) => parts.join(""));
    const text = fc
      .oneof(fc.string({ unit: "grapheme" }), tricky)
      .filter((s) => !s.includes(Q) && !s.includes("<|tool_call>"));
    const value = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        text,
        fc.boolean(),
        fc.constant(null),
        fc.integer(),
        fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
        fc.array(tie("value"), { maxLength: 4 }),
        fc.dictionary(key, tie("value"), { maxKeys: 4 }),
      ),
    })).value;
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 6 }), (mapping) => {
        const encoded = encodeGemmaArguments(mapping);
        const parsed = parseGemmaArguments(encoded);
        expect(parsed.ok, encoded).toBe(true);
        if (parsed.ok)
          expect(JSON.parse(JSON.stringify(parsed.value))).toEqual(JSON.parse(JSON.stringify(mapping)));
      }),
      { numRuns: 300 },
    );
  });

  it("is total over any text", () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: -5, max: 50 }), (input, start) => {
        expect(typeof parseGemmaArguments(input, start).ok).toBe("boolean");
      }),
    );
    expect(parseGemmaArguments(null as unknown as string)).toMatchObject({ ok: false });
  });
});

describe("hostile tools", () => {
  it("a huge sparse tool list is read by the entries it holds, at once", () => {
    const tools: unknown[] = [];
    tools.length = 2 ** 32 - 1;
    tools[7] = {
      type: "function",
      function: { name: "f", parameters: { properties: { a: { type: "string" } } } },
    };
    const work: WorkCounter = { scanned: 0 };
    const result = gemma4.parse(call("{a:1,b:2}"), { tools, work });
    expect(result.toolCalls[0]?.function.arguments).toBe('{"a": 1, "b": 2}');
    // `b` is not in the schema of the tool the list holds: told, as every family tells it.
    expect(result.issues.map((issue) => [issue.code, issue.parameter])).toEqual([["unknown_parameter", "b"]]);
    expect(work.scanned).toBeLessThan(1000);
  });
});

describe("gemma4: single-quoted strings", () => {
  it("reads 'text' as the text between the quotes, noted on the call, never on a cut or malformed one", () => {
    expect(parse(call("{city:'Paris',n:1}"))).toMatchObject({
      toolCalls: [{ function: { arguments: '{"city": "Paris", "n": 1}' } }],
      issues: [{ code: "string_single_quoted", severity: "info" }],
    });
    expect(codes("<|tool_call>call:f{city:'Paris'}")).toEqual(["call_unclosed", "string_single_quoted"]);
    expect(codes("<|tool_call>call:f{city:'Paris'} x<tool_call|>")).toEqual(["call_invalid"]);
    expect(codes("<|tool_call>call:f{city:'Paris'")).toEqual(["call_truncated"]);
    // Not one reading: a quote inside, or a comma that ends the bare value first.
    expect(args(call("{a:'it's'}"))).toEqual({ a: "'it's'" });
    expect(codes(call("{a:'x, y'}"))).toEqual(["call_invalid"]);
  });
});
