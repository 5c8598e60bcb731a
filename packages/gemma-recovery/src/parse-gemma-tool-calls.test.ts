import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodeGemmaArguments, encodeGemmaToolCall } from "./encode-gemma-arguments.js";
import { parseGemmaArguments } from "./parse-gemma-arguments.js";
import { parseGemmaToolCalls } from "./parse-gemma-tool-calls.js";

function counter(): () => string {
  let n = 0;
  return () => `call_${++n}`;
}
const parse = (text: string) => parseGemmaToolCalls(text, { createId: counter() });
const args = (text: string) => JSON.parse(parse(text).toolCalls[0]?.function.arguments ?? "null");
const call = (body: string, name = "f") => `<|tool_call>call:${name}${body}<tool_call|>`;

describe("parseGemmaToolCalls", () => {
  it("reads every value kind of the native syntax", () => {
    const text = call(
      '{key:<|"|>text<|"|>,n:42,x:-1.5e3,b:true,c:false,z:null,o:{k:<|"|>v<|"|>},a:[<|"|>x<|"|>,1,[]],e:{}}',
    );
    expect(args(text)).toEqual({
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
    expect(args(call("{a:None,b:none,c:nil,d:12345678901234567890}"))).toEqual({
      a: null,
      b: null,
      c: null,
      d: 12345678901234567000,
    });
    expect(parse(call("{d:12345678901234567890}")).toolCalls[0]?.function.arguments).toBe(
      '{"d":12345678901234567890}',
    );
  });

  it("finds several calls and keeps the text around them", () => {
    const result = parse(
      `Checking both.${call('{city:<|"|>Paris<|"|>}', "weather")} and ${call("{}", "time")}`,
    );
    expect(result.toolCalls.map((c) => [c.id, c.type, c.function.name, c.function.arguments])).toEqual([
      ["call_1", "function", "weather", '{"city":"Paris"}'],
      ["call_2", "function", "time", "{}"],
    ]);
    expect(result.content).toBe("Checking both. and ");
    expect(result.issues).toEqual([]);
  });

  it("gives null content when only calls were there", () => {
    expect(parse(`  ${call("{}")}\n`).content).toBeNull();
  });

  it("leaves calls inside a thought channel alone", () => {
    const thought = `<|channel>thought\nMaybe ${call("{x:1}")}?<channel|>`;
    const result = parse(`${thought}Done.${call("{y:2}")}`);
    expect(result.content).toBe(`${thought}Done.`);
    expect(result.toolCalls.map((c) => c.function.arguments)).toEqual(['{"y":2}']);
  });

  it("reads a string with a literal quote inside", () => {
    expect(args(call('{content:<|"|>She said "hello" loudly<|"|>}'))).toEqual({
      content: 'She said "hello" loudly',
    });
  });

  it("reads quote tokens inside a string as quotes (a Python triple quote is three tokens)", () => {
    const payloads = JSON.parse(
      readFileSync(join(import.meta.dirname, "../../../../shared/wild/payloads.json"), "utf8"),
    ) as Array<{ category: string; raw: string }>;
    const interior = payloads.find((p) => p.category === "gemma4_native_interior_delimiter")?.raw as string;
    expect(args(call(`{${interior}}`))).toEqual({
      code: 'result = duckdb.sql(""" SELECT ... """).df()',
      data_refs: ["df_1"],
      return_vars: ["result"],
    });
    const quote = payloads.find((p) => p.category === "gemma4_native_internal_quote")?.raw as string;
    expect(args(call(`{${quote}}`))).toEqual({ content: 'She said "hello" loudly' });
    const unparsed = payloads.find((p) => p.category === "gemma4_native_unparsed_in_content")?.raw as string;
    const result = parse(unparsed);
    expect(result.toolCalls[0]?.function.name).toBe("patch");
    expect(JSON.parse(result.toolCalls[0]?.function.arguments ?? "")).toEqual({
      path: "/tmp/a.py",
      content: "print('hi')",
      mode: "overwrite",
    });
  });

  it("reads bare words as strings when the server stripped the quote tokens", () => {
    expect(args(call("{city:Paris,unit:celsius}"))).toEqual({ city: "Paris", unit: "celsius" });
    // A word that only ends like a number is a word (it was once read as a number and written as null).
    expect(args(call("{a:x1,b:v1.5,c: -2.5e3 ,d:1e5x}"))).toEqual({
      a: "x1",
      b: "v1.5",
      c: -2500,
      d: "1e5x",
    });
  });

  it("leaves ambiguous calls in content, exactly as written, with an issue", () => {
    for (const body of [
      '{a:<|"|>x<|"|>b:1}',
      "{a:hello, world}",
      '{a:<|"|>never closed}',
      "{a:1} trailing",
      "{:1}",
    ]) {
      const text = `Before ${call(body)} after`;
      const result = parse(text);
      expect(result.toolCalls, body).toEqual([]);
      expect(result.content, body).toBe(text);
      expect(
        result.issues.map((i) => i.code),
        body,
      ).toEqual(["gemma_call_unparsed"]);
    }
    const cut = `Before <|tool_call>call:f{a:1`;
    expect(parse(cut)).toMatchObject({
      toolCalls: [],
      content: cut,
      issues: [{ code: "gemma_call_unterminated" }],
    });
  });

  it("reads a string that holds the closing token of a call", () => {
    expect(args(call('{s:<|"|>a<tool_call|>b<|"|>}'))).toEqual({ s: "a<tool_call|>b" });
  });

  it("passes text without a special token through untouched", () => {
    expect(parse("just text")).toEqual({ toolCalls: [], content: "just text", issues: [] });
    expect(parse("")).toEqual({ toolCalls: [], content: null, issues: [] });
  });

  it("keeps __proto__ keys as data", () => {
    const result = args(call('{__proto__:{polluted:true},constructor:<|"|>x<|"|>}'));
    expect(Object.hasOwn(result, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("encodeGemmaArguments", () => {
  it("renders as the Gemma 4 template does: dictsort keys, bare keys, Python values", () => {
    expect(
      encodeGemmaArguments({ b: 1, A: "x", a: [true, null, 1.5, 1e21, 1e20], n: { z: {}, Y: [] } }),
    ).toBe('{A:<|"|>x<|"|>,a:[true,None,1.5,1e+21,100000000000000000000],b:1,n:{Y:[],z:{}}}');
    expect(encodeGemmaToolCall({ name: "get_weather", arguments: { city: "Paris" } })).toBe(
      '<|tool_call>call:get_weather{city:<|"|>Paris<|"|>}<tool_call|>',
    );
  });

  it("round-trips: parse(encode(x)) = x for JSON objects without the quote token", () => {
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
        { maxLength: 8 },
      )
      .map((parts) => parts.join(""));
    const text = fc.oneof(fc.string({ unit: "grapheme" }), tricky).filter((s) => !s.includes('<|"|>'));
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
        const viaCall = parseGemmaToolCalls(encodeGemmaToolCall({ name: "f", arguments: mapping }))
          .toolCalls[0];
        expect(JSON.parse(viaCall?.function.arguments ?? "")).toEqual(JSON.parse(JSON.stringify(mapping)));
      }),
      { numRuns: 500 },
    );
  });
});
