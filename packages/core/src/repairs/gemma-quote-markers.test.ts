import { readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expectLinearWork } from "../../test/linear-work.js";
import { decodeArguments } from "../decode-arguments.js";
import { sanitizeHistory } from "../sanitize-history.js";
import { WORK_UNITS_PER_CHAR } from "../work-budget.js";
import { gemmaQuoteMarkers } from "./gemma-quote-markers.js";
import { coreRepairs } from "./index.js";

const repairs = [gemmaQuoteMarkers];
const recover = (text: string) => decodeArguments(text, { repairs });

describe("gemmaQuoteMarkers: the cases RULES.md pins", () => {
  it("recovers the full-marker payload", () => {
    const text = '{"date": "<|\\"|"2023-09-18<|\\", "title": "<|Resolución de 28 de julio de 2023<|"}';
    expect(JSON.parse.bind(null, text)).toThrow();
    const result = recover(text);
    expect(result.status).toBe("repaired");
    expect(result.repairs).toEqual(["gemma-quote-markers"]);
    expect(result.arguments).toEqual({ date: "2023-09-18", title: "Resolución de 28 de julio de 2023" });
    expect(result.raw).toBe(text);
  });

  it("recovers its nested forms", () => {
    expect(recover('{"filter": {"date": "<|\\"|"2023-09-18<|\\"}, "n": 1}').arguments).toEqual({
      filter: { date: "2023-09-18" },
      n: 1,
    });
    expect(recover('{"dates": ["<|\\"|"2023-09-18<|\\", "<|2024-01-01<|"]}').arguments).toEqual({
      dates: ["2023-09-18", "2024-01-01"],
    });
    expect(recover('{"a": {"b": {"c": "<|\\"|"x<|\\"}}}').arguments).toEqual({ a: { b: { c: "x" } } });
  });

  it("recovers a full opening marker with a bare closing one on the same value", () => {
    expect(recover('{"date": <|"|>2023-09-18<|"}').arguments).toEqual({ date: "2023-09-18" });
    expect(recover('{"date": <|\\"|>2023-09-18<|\\"}').arguments).toEqual({ date: "2023-09-18" });
    expect(recover('{"date": "<|\\"|"2023-09-18<|"}').arguments).toEqual({ date: "2023-09-18" });
  });

  it("recovers the partial forms seen in the wild", () => {
    expect(recover('{"path": "<|\\"|"/tmp/a.py<|\\"|"}').arguments).toEqual({ path: "/tmp/a.py" });
    expect(recover('{"path": "<|\\/tmp/a.py<|\\"}').arguments).toEqual({ path: "/tmp/a.py" });
  });

  it("leaves markers that do not break JSON exactly as they are", () => {
    const text = '{"template": "quote with <|\\"|>x<|\\"|>", "n": 1}';
    const result = recover(text);
    expect(result.status).toBe("object");
    expect(result.repairs).toEqual([]);
    expect(result.arguments).toEqual({ template: 'quote with <|"|>x<|"|>', n: 1 });
  });

  it("never changes already-valid arguments", () => {
    for (const text of [
      '{"a": "<|"}',
      '{"a": "<|\\"|>"}',
      '{"code": "x <| y"}',
      "{}",
      '{"c": "<|x<|"}',
      '{"p": "<|\\"|/a<|\\"|"}',
    ]) {
      const result = recover(text);
      expect(result.status).toBe("object");
      expect(result.arguments).toEqual(JSON.parse(text));
    }
  });

  it("leaves text that still fails after cleaning as it was, under _raw_arguments", () => {
    for (const text of ['{"date": "<|\\"|"2023-09-18', '{"a": <|\\"|>x<|\\"|> "b"}', "<|tool_call>"]) {
      const result = recover(text);
      expect(result.status).toBe("invalid");
      expect(result.arguments).toEqual({ _raw_arguments: text });
    }
  });

  it("handles clean and dirty calls of one response each on their own", () => {
    const dirty = '{"date": "<|\\"|"2023-09-18<|\\"}';
    const history = [
      {
        role: "assistant",
        content: null,
        tool_calls: [
          {
            id: "a",
            type: "function",
            function: { name: "search", arguments: '{"q": "<|\\"|>kept<|\\"|>"}' },
          },
          { id: "b", type: "function", function: { name: "get", arguments: dirty } },
          { id: "c", type: "function", function: { name: "get", arguments: '{"date": "2024-01-01"}' } },
        ],
      },
      { role: "tool", tool_call_id: "a", content: "1" },
      { role: "tool", tool_call_id: "b", content: "2" },
      { role: "tool", tool_call_id: "c", content: "3" },
    ];
    const { messages, changes } = sanitizeHistory(history, { repairs: [...coreRepairs, gemmaQuoteMarkers] });
    const calls = (messages[0] as (typeof history)[0])?.tool_calls ?? [];
    expect(calls[0]?.function.arguments).toBe(history[0]?.tool_calls?.[0]?.function.arguments);
    expect(calls[1]?.function.arguments).toBe('{"date":"2023-09-18"}');
    expect(calls[2]?.function.arguments).toBe('{"date": "2024-01-01"}');
    expect(changes.map((c) => [c.rule, c.toolCallId, c.repairs])).toEqual([
      ["arguments_canonicalized", "b", ["gemma-quote-markers"]],
    ]);
  });

  it("never repairs a length stop", () => {
    const result = decodeArguments('{"date": "<|\\"|"2023-09-18<|\\"}', { repairs, finishReason: "length" });
    expect(result.status).toBe("truncated");
  });
});

describe("the Gemma payloads captured in the wild", () => {
  const payloads = JSON.parse(
    readFileSync(join(import.meta.dirname, "../../../../../shared/wild/payloads.json"), "utf8"),
  ) as Array<{
    category: string;
    raw: string;
  }>;
  const gemma = payloads.filter((p) => p.category.startsWith("gemma4"));

  it("are all here", () => {
    expect(gemma.map((p) => p.category).sort()).toEqual([
      "gemma4_native_interior_delimiter",
      "gemma4_native_internal_quote",
      "gemma4_native_unparsed_in_content",
    ]);
  });

  it("are native syntax, not JSON: the marker repair leaves them invalid and kept", () => {
    for (const payload of gemma) {
      const result = recover(payload.raw);
      expect(result.status).toBe("invalid");
      expect(result.arguments._raw_arguments).toBe(payload.raw);
    }
  });
});

describe("properties", () => {
  it("never changes valid JSON text, whatever markers its strings hold", () => {
    const markerish = fc.constantFrom('<|"|>', "<|", '<|"', "|>", '"', "\\");
    const text = fc.array(fc.oneof(fc.string(), markerish), { maxLength: 6 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(fc.dictionary(text, fc.oneof(text, fc.jsonValue())), (object) => {
        const json = JSON.stringify(object);
        const result = decodeArguments(json, { repairs: [...coreRepairs, gemmaQuoteMarkers] });
        expect(result.status).toBe("object");
        expect(result.arguments).toEqual(JSON.parse(json));
      }),
    );
  });

  it("with core's repairs listed in any order, recovers every value, commas and braces inside strings included", () => {
    const key = fc.stringMatching(/^[a-z]{1,6}$/);
    const value = fc.stringMatching(/^[a-z0-9 ,{}[\]:]{0,12}$/);
    // The two shapes captured in the wild: "<|\"|"value<|\" and "<|value<|".
    const leak = (text: string, full: boolean) => (full ? `"<|\\"|"${text}<|\\"` : `"<|${text}<|"`);
    const every = [...coreRepairs, gemmaQuoteMarkers];
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.tuple(key, value, fc.boolean()), {
          minLength: 1,
          maxLength: 4,
          selector: ([k]) => k,
        }),
        fc.boolean(),
        fc.shuffledSubarray(every, { minLength: every.length }),
        (entries, trailingComma, listed) => {
          // Short-form leaks alone are valid JSON (strings that hold markers), which is never touched.
          fc.pre(trailingComma || entries.some(([, , full]) => full));
          const body = entries.map(([k, v, full]) => `"${k}": ${leak(v, full)}`).join(", ");
          const text = `{${body}${trailingComma ? "," : ""}}`;
          const result = decodeArguments(text, { repairs: listed });
          expect(result.status).toBe("repaired");
          expect(result.arguments).toEqual(Object.fromEntries(entries.map(([k, v]) => [k, v])));
          expect(result.repairs[0]).toBe("gemma-quote-markers");
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("accepts a result only when it parses to an object", () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const result = recover(`{"a": "<|\\"|"${text}`);
        if (result.status === "repaired" || result.status === "object")
          expect(result.arguments._raw_arguments).toBeUndefined();
        else expect(result.arguments).toEqual({ _raw_arguments: `{"a": "<|\\"|"${text}` });
      }),
    );
  });
});

describe("gemmaQuoteMarkers: linear work on adversarial text up to 1 MiB, counted", () => {
  const Q = '<|"|>';
  const texts: Record<string, (n: number) => string> = {
    "leaked markers": (n) => `{"a": "${'<|\\"|"x<|\\"'.repeat(n / 10)}`,
    "bare openers": (n) => "<|".repeat(n / 2),
    "quotes and markers": (n) => `{"a": ${'"<|'.repeat(n / 3)}`,
    "quote tokens after a bracket": (n) => `[${Q.repeat(n / 5)}`,
    "quote tokens in a string": (n) => `{"a":"${Q.repeat(n / 5)}"}`,
  };
  for (const [name, make] of Object.entries(texts)) {
    it(name, () => {
      expectLinearWork({
        label: name,
        make,
        run: (text, meter) => gemmaQuoteMarkers.repair(text, { meter }),
        unitsPerChar: 8,
      });
      const all = [gemmaQuoteMarkers, ...coreRepairs];
      expectLinearWork({
        label: `decode: ${name}`,
        make,
        run: (text, meter) => decodeArguments(text, { repairs: all, meter }),
        unitsPerChar: WORK_UNITS_PER_CHAR,
      });
    });
  }
});
