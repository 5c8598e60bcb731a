import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type ThoughtPiece, ThoughtSplitter } from "./split-thought.js";

function fold(pieces: readonly ThoughtPiece[]): { content: string; reasoning: string | null } {
  let reasoning: string | null = null;
  let content = "";
  for (const piece of pieces) {
    if (piece.type === "reasoning") reasoning = (reasoning ?? "") + piece.text;
    else content += piece.text;
  }
  return { content, reasoning };
}

function split(parts: readonly string[]): { content: string; reasoning: string | null } {
  const splitter = new ThoughtSplitter();
  return fold([...parts.flatMap((part) => splitter.push(part)), ...splitter.end()]);
}

describe("ThoughtSplitter", () => {
  it("splits the thought channel out, as the template writes it", () => {
    expect(split(["<|channel>thought\nWeather first.\n<channel|>Sure."])).toEqual({
      content: "Sure.",
      reasoning: "Weather first.",
    });
    expect(split(["Hello <|channel>final\nx<channel|>"])).toEqual({
      content: "Hello <|channel>final\nx<channel|>",
      reasoning: null,
    });
    expect(split(["<|channel>thought\nunclosed"])).toEqual({ content: "", reasoning: "unclosed" });
  });

  it("gives the same result however the text is split", () => {
    const pieces = fc.constantFrom("<|channel>", "thought", "\n", "<channel|>", "<|", "|>", "a", " ", "<");
    fc.assert(
      fc.property(
        fc.array(pieces, { maxLength: 20 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (parts, cuts) => {
          const text = parts.join("");
          const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
          const chunks: string[] = [];
          let from = 0;
          for (const point of points) {
            chunks.push(text.slice(from, point));
            from = point;
          }
          chunks.push(text.slice(from));
          expect(split(chunks)).toEqual(split([text]));
        },
      ),
      { numRuns: 300 },
    );
  });
});
