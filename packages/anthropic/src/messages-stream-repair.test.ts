import { coreRepairs } from "@toolcall/core";
import { createWorkMeter } from "@toolcall/core/kit";
import { qwen3Coder } from "@toolcall/model-formats";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MessagesStreamRepair } from "./messages-stream-repair.js";
import { parseSseEvent } from "./sse-events.js";

const CALL = "<tool_call>\n<function=f>\n</function>\n</tool_call>";

const event = (type: string, data: Record<string, unknown>) =>
  parseSseEvent(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}`);

/**
 * The work a stream of `count` tool_use blocks costs, the first one's input `first`: the decider's steps, plus one
 * per event the client gets (with `splitMergedCalls`, every block after a merged first one waits, then goes moved up).
 */
function blocks(count: number, first: string, splitMergedCalls = false): number {
  const meter = createWorkMeter();
  const repair = new MessagesStreamRepair({ repairs: coreRepairs, meter, splitMergedCalls });
  let sent = 0;
  for (let index = 0; index < count; index++) {
    sent += repair.push(
      event("content_block_start", {
        index,
        content_block: { type: "tool_use", id: `toolu_${index}`, name: "f", input: {} },
      }),
    ).length;
    sent += repair.push(
      event("content_block_delta", {
        index,
        delta: { type: "input_json_delta", partial_json: index === 0 ? first : '{"a": 1}' },
      }),
    ).length;
    sent += repair.push(event("content_block_stop", { index })).length;
  }
  sent += repair.push(event("message_delta", { delta: { stop_reason: "tool_use" } })).length;
  sent += repair.end().length;
  return meter.steps + sent;
}

describe("MessagesStreamRepair", () => {
  it("costs work linear in the number of blocks, clean, held behind the first, or moved up behind a split", () => {
    for (const [first, split] of [
      ['{"a": 0}', false],
      ["{'a': 0}", false],
      ['{"a": 0}{"b": 0}', true],
    ] as const) {
      const small = blocks(2_000, first, split);
      const large = blocks(32_000, first, split);
      expect(small).toBeGreaterThan(0);
      // 16 times the blocks, at most 17 times the work (a scan of every block per block would cost 256 times).
      expect(large).toBeLessThanOrEqual(17 * small);
    }
  });

  it("never throws on events of any shape, and hands every event it does not read on as it came", () => {
    const data = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record(
        {
          type: fc.constantFrom(
            "content_block_start",
            "content_block_delta",
            "content_block_stop",
            "message_delta",
          ),
          index: fc.oneof(fc.nat(3), fc.jsonValue({ maxDepth: 1 })),
          content_block: fc.oneof(
            fc.record({ type: fc.constant("tool_use"), id: fc.string(), name: fc.string() }),
            fc.record({ type: fc.constant("text"), text: fc.constantFrom("", CALL, "x") }),
            fc.jsonValue({ maxDepth: 2 }),
          ),
          delta: fc.oneof(
            fc.record({ type: fc.constant("input_json_delta"), partial_json: fc.string() }),
            fc.record({
              type: fc.constant("input_json_delta"),
              partial_json: fc.constantFrom('{"a":1}{"b":2}', "{", "}"),
            }),
            fc.record({ type: fc.constant("text_delta"), text: fc.constantFrom(CALL, "<tool", "x", "") }),
            fc.record({ stop_reason: fc.constantFrom("tool_use", "max_tokens", "end_turn", null) }),
            fc.jsonValue({ maxDepth: 2 }),
          ),
        },
        { requiredKeys: ["type"] },
      ),
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(data, fc.string()), { maxLength: 12 }), fc.boolean(), (values, more) => {
        // With calls read from text and merged input split too: blocks renumbered, never a throw.
        const repair = new MessagesStreamRepair({
          repairs: coreRepairs,
          ...(more ? { syntaxes: [qwen3Coder], splitMergedCalls: true } : {}),
        });
        for (const value of values) {
          const text =
            typeof value === "string" ? `data: ${value}` : `event: x\ndata: ${JSON.stringify(value)}`;
          expect(Array.isArray(repair.push(parseSseEvent(text)))).toBe(true);
        }
        expect(Array.isArray(repair.end())).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
