import { EMPTY_LIST, type SyntaxParseResult, type ToolCallSyntax } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldEvents } from "../src/engine/define-syntax.js";
import { SYNTAXES } from "../src/registry.js";
import { trickyText } from "./arbitraries.js";

/**
 * Core's contract: a parse result's lists are readonly, and a list that holds nothing is the one shared frozen
 * `EMPTY_LIST` (a plain answer, the common case on a server, makes no list). Checked on every syntax of the registry,
 * on the fast path (no options), the path with options, and a parse that goes through the stream.
 */

/** An assistant answer that calls nothing, with the characters most families' markers begin with. */
const PLAIN =
  "Here are the results:\n\n- open `main.py` and see [the guide](https://example.com) {the notes}\n" +
  "| name | value |\n|------|-------|\n| rate_limit | 10 |\n\n<b>Done</b> — “quoted” 東京 😀";

function expectSharedWhenEmpty(result: SyntaxParseResult): void {
  if (result.toolCalls.length === 0) expect(result.toolCalls).toBe(EMPTY_LIST);
  if (result.issues.length === 0) expect(result.issues).toBe(EMPTY_LIST);
}

/** Text around and between the syntax's own start markers: calls begun, cut, malformed, and plain text. */
const markedText = (syntax: ToolCallSyntax) =>
  fc
    .array(fc.oneof(trickyText(12), fc.constantFrom(...syntax.startMarkers, '{"name": "f"}', "}", "\n")), {
      maxLength: 8,
    })
    .map((parts) => parts.join(""));

describe("readonly result lists", () => {
  it("the shared empty list is frozen: adding to it throws", () => {
    expect(Object.isFrozen(EMPTY_LIST)).toBe(true);
    expect(() => (EMPTY_LIST as unknown as string[]).push("x")).toThrow(TypeError);
  });

  for (const syntax of Object.values(SYNTAXES)) {
    describe(syntax.id, () => {
      it("a plain answer shares the empty list, with options or without", () => {
        for (const result of [
          syntax.parse(PLAIN),
          syntax.parse(PLAIN, { tools: [] }),
          syntax.parse(""),
          syntax.parse("", { tools: [] }),
        ]) {
          expect(result.toolCalls).toBe(EMPTY_LIST);
          expect(result.issues).toBe(EMPTY_LIST);
        }
      });

      it("every empty list of a result is the shared one; a list that holds something is its own", () => {
        fc.assert(
          fc.property(markedText(syntax), fc.boolean(), (text, withOptions) => {
            const result = withOptions ? syntax.parse(text, { tools: [] }) : syntax.parse(text);
            expectSharedWhenEmpty(result);
            if (result.toolCalls.length > 0) expect(Object.isFrozen(result.toolCalls)).toBe(false);
            const stream = syntax.createStream();
            expectSharedWhenEmpty(foldEvents([...stream.push(text), ...stream.end()]));
          }),
          { numRuns: 60 },
        );
      });
    });
  }

  it("a call read from text comes in a list of its own", () => {
    const hermes = SYNTAXES.hermes as ToolCallSyntax;
    const result = hermes.parse('<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>');
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls).not.toBe(EMPTY_LIST);
    expect(result.issues).toBe(EMPTY_LIST);
  });
});
