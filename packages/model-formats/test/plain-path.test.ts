import type { ToolCallSyntax, WorkCounter } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { plainCheckOf } from "../src/engine/define-syntax.js";
import {
  findNeedle,
  type PlainCheck,
  type PlainWork,
  plainCheck,
  plainContent,
} from "../src/engine/plain-check.js";
import { SYNTAXES } from "../src/registry.js";

/**
 * Look-alikes of assistant answers that call nothing, as a server sees them on most turns: prose, lists, links and
 * code blocks holding `<`, `[`, `{`, `|`, `_` and `>` (the first characters of most families' markers), seeded.
 */
function plainAnswers(count: number): string[] {
  const words =
    "the answer reads the files and finds three rivers two cities and a forecast for the week with numbers".split(
      " ",
    );
  const blocks = [
    "```ts\nconst total = items.reduce((sum, item) => sum + item.price, 0);\nif (total > limit) throw new Error('over');\n```",
    '```html\n<div class="note"><p>Read the <a href="/docs">docs</a> first.</p></div>\n```',
    "| name | value |\n|------|-------|\n| rate_limit | 10 |",
    "- open `main.py`\n- run `pytest -q`\n- see [the guide](https://example.com/guide) and {the notes}",
    "> quoted: “the” answer, with typographic quotes",
  ];
  let seed = 0x5eed;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = "";
    const target = 400 + next(4000);
    while (text.length < target) {
      if (next(4) === 0) text += `${blocks[next(blocks.length)]}\n\n`;
      else {
        const line: string[] = [];
        for (let w = 20 + next(40); w > 0; w--) line.push(words[next(words.length)] as string);
        text += `${line.join(" ")}.\n\n`;
      }
    }
    out.push(`Here ${text.trimEnd()}`);
  }
  return out;
}

/** Where `probe` occurs in `text`, overlaps included: the hits a search that goes on after each one meets. */
function hitsOf(text: string, probe: string): number {
  let hits = 0;
  for (let at = text.indexOf(probe); at !== -1; at = text.indexOf(probe, at + 1)) hits++;
  return hits;
}

const longest = (check: PlainCheck) => Math.max(0, ...check.needles.map((needle) => needle.length));

const ANSWERS = plainAnswers(40);

/** A syntax's plain check; one made by spreading another (EXAONE 4 is Hermes with its own encoder) runs that one's. */
function checkOf(syntax: ToolCallSyntax): PlainCheck | undefined {
  const own = plainCheckOf(syntax);
  if (own !== undefined) return own;
  const source = Object.values(SYNTAXES).find((other) => other.parse === syntax.parse && plainCheckOf(other));
  return source === undefined ? undefined : plainCheckOf(source);
}

describe("the plain-text path is one pass (counted, never timed)", () => {
  for (const syntax of Object.values(SYNTAXES)) {
    it(`${syntax.id}: a plain answer costs one native search, resumed only past a hit of the probe`, () => {
      const check = checkOf(syntax);
      if (check === undefined) throw new Error(`${syntax.id} has no plain check`);
      expect(check.probe === null || check.probe.length <= 6).toBe(true);
      for (const text of ANSWERS) {
        const work: PlainWork = { searches: 0, scanned: 0, compared: 0 };
        expect(plainContent(check, text, work)).toBe(text);
        const hits = check.probe === null ? 0 : hitsOf(text, check.probe);
        // Each character examined once by the native search, however many hits it met on the way.
        expect(work.scanned).toBe(check.probe === null ? 0 : text.length);
        expect(work.searches).toBe(check.probe === null ? 0 : 1 + (check.needles.length === 0 ? 0 : hits));
        expect(work.compared).toBeLessThanOrEqual(hits * check.needles.length * (longest(check) + 1));
        // The parse counts the same work, and returns the text as it came.
        const counter: WorkCounter = { scanned: 0 };
        const result = syntax.parse(text, { work: counter });
        expect(result).toEqual({ toolCalls: [], content: text, reasoning: null, issues: [] });
        expect(counter.scanned).toBe(work.scanned + work.compared);
        expect(syntax.parse(text)).toEqual(result);
      }
    });

    it(`${syntax.id}: text made of its probe, hit at every place, is still one pass`, () => {
      const check = checkOf(syntax);
      if (check?.probe == null || check.needles.length === 0) return;
      const probe = check.probe;
      for (const size of [1 << 12, 1 << 14]) {
        const text = probe.repeat(Math.ceil(size / probe.length));
        const work: PlainWork = { searches: 0, scanned: 0, compared: 0 };
        const found = findNeedle(check, text, work);
        const expected = check.needles.map((n) => text.indexOf(n)).filter((at) => at !== -1);
        expect(found).toBe(expected.length === 0 ? -1 : Math.min(...expected));
        expect(work.scanned).toBeLessThanOrEqual(text.length);
        expect(work.compared).toBeLessThanOrEqual(text.length * check.needles.length * (longest(check) + 1));
      }
    });
  }

  it("two needles that share their first character are found by one search for it", () => {
    const check = plainCheck(["<tool_call>", "<function="], ["<think>"]);
    expect(check.probe).toBe("<");
    const text = `${'<div class="a"><p>hi</p></div> '.repeat(50)}then <function=f>`;
    const work: PlainWork = { searches: 0, scanned: 0, compared: 0 };
    expect(findNeedle(check, text, work)).toBe(text.indexOf("<function="));
    // One search per `<` met, each starting after the last: the text's characters up to the call, once.
    expect(work.searches).toBe(hitsOf(text.slice(0, text.indexOf("<function=") + 1), "<"));
    expect(work.scanned).toBe(text.indexOf("<function=") + 1);
  });

  it("a long needle is searched by its first six characters and compared in place", () => {
    const check = plainCheck("<|python_", ["{"]);
    expect(check).toMatchObject({ probe: "<|pyth", needles: ["<|python_"] });
    const short = plainCheck("|>", []);
    expect(short).toMatchObject({ probe: "|>", needles: [] });
    expect(() => plainCheck(["<a>", "[b]"], [])).toThrow(/share their first character/);
  });

  it("finds the first needle wherever any occurs, as one indexOf per needle would (property)", () => {
    const needles = fc.constantFrom(
      ["<tool_call>", "<function="],
      ["<seed:tool_call>", "<function="],
      ["<|python_"],
      ["｜"],
      ["_begin|>"],
      ["[TOOL_CALLS]"],
    );
    const piece = fc.constantFrom(
      "<",
      "<tool",
      "<tool_call",
      "<function",
      "=",
      ">",
      "<|pyth",
      "<|python_",
      "｜",
      "_begin",
      "|>",
      "[TOOL_",
      "CALLS]",
      "a",
      " ",
      "\n",
    );
    fc.assert(
      fc.property(needles, fc.array(piece, { maxLength: 40 }), (list, parts) => {
        const text = parts.join("");
        const check = plainCheck(list, []);
        const work: PlainWork = { searches: 0, scanned: 0, compared: 0 };
        const expected = list.map((n) => text.indexOf(n)).filter((at) => at !== -1);
        expect(findNeedle(check, text, work)).toBe(expected.length === 0 ? -1 : Math.min(...expected));
        expect(work.scanned).toBeLessThanOrEqual(text.length);
      }),
      { numRuns: 500 },
    );
  });
});
