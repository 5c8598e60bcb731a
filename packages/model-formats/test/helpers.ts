import type {
  SyntaxParseOptions,
  SyntaxParseResult,
  SyntaxStreamEvent,
  ToolCallSyntax,
  WorkCounter,
} from "@toolcall/core/kit";
import fc from "fast-check";
import { expect } from "vitest";
import { foldEvents } from "../src/engine/define-syntax.js";

/** Ids by index, so whole and streamed parses can be compared. */
export const fixedIds: SyntaxParseOptions["createId"] = ({ index }) => `call_${index}`;

/** Feeds `chunks` to a new stream; returns the events and their fold. */
export function streamChunks(
  syntax: ToolCallSyntax,
  chunks: readonly string[],
  options: SyntaxParseOptions = {},
): { events: SyntaxStreamEvent[]; result: SyntaxParseResult } {
  const stream = syntax.createStream({ createId: fixedIds, ...options });
  const events: SyntaxStreamEvent[] = [];
  for (const chunk of chunks) events.push(...stream.push(chunk));
  events.push(...stream.end());
  return { events, result: foldEvents(events) };
}

/** Splits `text` at the given cut points (sorted, deduplicated, inside the text). */
export function splitAt(text: string, cuts: readonly number[]): string[] {
  const points = [...new Set(cuts.filter((c) => c > 0 && c < text.length))].sort((a, b) => a - b);
  const out: string[] = [];
  let last = 0;
  for (const point of points) {
    out.push(text.slice(last, point));
    last = point;
  }
  out.push(text.slice(last));
  return out;
}

/**
 * Checks what every stream must give: the same result as the whole parse, argument deltas that add up to each
 * call's final arguments (void for aborted calls), one start and one end or abort per announced call.
 */
export function checkEvents(events: readonly SyntaxStreamEvent[]): void {
  const open = new Map<number, { name: string; id: string; args: string }>();
  let nextIndex = 0;
  for (const event of events) {
    switch (event.type) {
      case "tool_call_start":
        expect(open.size, "one call at a time").toBe(0);
        expect(event.index).toBe(nextIndex);
        open.set(event.index, { name: event.name, id: event.id, args: "" });
        break;
      case "tool_call_delta": {
        const call = open.get(event.index);
        expect(call, "a delta belongs to a started call").toBeDefined();
        if (call) call.args += event.arguments;
        break;
      }
      case "tool_call_end": {
        const call = open.get(event.index);
        expect(call, "an end belongs to a started call").toBeDefined();
        expect(event.toolCall.function.arguments).toBe(call?.args);
        expect(event.toolCall.function.name).toBe(call?.name);
        expect(event.toolCall.id).toBe(call?.id);
        JSON.parse(event.toolCall.function.arguments);
        open.delete(event.index);
        nextIndex++;
        break;
      }
      case "tool_call_abort":
        expect(open.has(event.index)).toBe(true);
        open.delete(event.index);
        break;
      default:
        break;
    }
  }
  expect(open.size, "every announced call ends or is aborted").toBe(0);
}

/** The whole parse, and streams of the text one character at a time, in halves and at `cuts`, all agree. */
export function expectSplitInvariant(
  syntax: ToolCallSyntax,
  text: string,
  options: SyntaxParseOptions = {},
  cuts: readonly (readonly number[])[] = [],
): SyntaxParseResult {
  const whole = syntax.parse(text, { createId: fixedIds, ...options });
  const splits = [
    [text],
    [...text],
    splitAt(text, [Math.floor(text.length / 2)]),
    ...cuts.map((c) => splitAt(text, c)),
  ];
  for (const chunks of splits) {
    const { events, result } = streamChunks(syntax, chunks, options);
    checkEvents(events);
    expect(result, `split ${JSON.stringify(chunks.slice(0, 8))}`).toEqual(whole);
  }
  return whole;
}

/** Random cut points for a text (fast-check). */
export const cutsFor = (length: number) =>
  fc.array(fc.integer({ min: 1, max: Math.max(1, length - 1) }), { maxLength: 12 });

/** The work a parse of `text` does, streamed in pieces of `size` characters. */
export function streamedWork(
  syntax: ToolCallSyntax,
  text: string,
  size: number,
  options: SyntaxParseOptions = {},
): number {
  const work: WorkCounter = { scanned: 0 };
  const stream = syntax.createStream({ ...options, work });
  for (let i = 0; i < text.length; i += size) stream.push(text.slice(i, i + size));
  stream.end();
  return work.scanned;
}
