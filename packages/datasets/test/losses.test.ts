import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRecordEngine } from "@toolcall/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sharegptFormat } from "../src/index.js";

// The losses users met on real data sets, each as they reported it, through the record engine every door uses.
const engine = createRecordEngine();
const codes = (value: unknown) => engine.check(sharegptFormat, value).issues.map((issue) => issue.code);

describe("LLaMA-Factory ShareGPT: nothing the model or a tool wrote is lost", () => {
  it("parallel results in one observation pair with the calls by position; nothing is added, the turn is kept whole", () => {
    const record = JSON.parse(
      '{"conversations":[{"from":"human","value":"x"},{"from":"function_call","value":"[{\\"name\\":\\"R\\",\\"arguments\\":{\\"s\\":\\"A\\"}},{\\"name\\":\\"R\\",\\"arguments\\":{\\"s\\":\\"B\\"}}]"},{"from":"observation","value":"[{\\"r\\":1},{\\"r\\":2}]"},{"from":"gpt","value":"ok"}]}',
    );
    const messages = sharegptFormat.read(record).conversations[0]?.messages ?? [];
    expect(messages.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, m.content])).toEqual([
      ["call@1", '{"r":1}'],
      ["call@1.1", '{"r":2}'],
    ]);
    expect(codes(record)).toEqual([]);
    const repaired = engine.repair(sharegptFormat, record);
    expect(repaired.changes).toEqual([]);
    expect(repaired.value).toBeUndefined();
  });

  it("an observation that is not one list per call answers each call with its whole text", () => {
    const record = {
      conversations: [
        { from: "human", value: "x" },
        { from: "function_call", value: '[{"name":"R","arguments":{}},{"name":"S","arguments":{}}]' },
        { from: "observation", value: "both done" },
        { from: "gpt", value: "ok" },
      ],
    };
    expect(codes(record)).toEqual([]);
    expect(engine.repair(sharegptFormat, record).value).toBeUndefined();
  });

  it("a repair that would change one result of a shared observation keeps the record and says why", () => {
    const record = {
      conversations: [
        { from: "human", value: "x" },
        { from: "function_call", value: '[{"name":"R","arguments":""},{"name":"S","arguments":{}}]' },
        { from: "observation", value: '[{"r":1},{"r":2}]' },
        { from: "gpt", value: "ok" },
      ],
    };
    const repaired = engine.repair(sharegptFormat, record);
    // The call's arguments are repaired in place; the shared results are untouched, so the turn is written whole.
    expect(repaired.changes.map((change) => change.rule)).toEqual(["arguments_canonicalized"]);
    const written = repaired.value as { conversations: Array<{ value: string }> };
    expect(written.conversations[2]).toBe(record.conversations[2]);
    expect(written.conversations).toHaveLength(4);
  });

  it("an empty gpt turn is left alone: check and repair agree, the turns still alternate", () => {
    const record = JSON.parse(
      '{"conversations":[{"from":"human","value":"a"},{"from":"gpt","value":""},{"from":"human","value":"b"},{"from":"gpt","value":"c"}]}',
    );
    expect(codes(record)).toEqual([]);
    const repaired = engine.repair(sharegptFormat, record);
    expect(repaired.changes).toEqual([]);
    expect(repaired.value).toBeUndefined();
  });

  it("with a provider whose fixes remove empty turns, the removal is named in the report and the file agrees", () => {
    const record = {
      conversations: [
        { from: "human", value: "a" },
        { from: "gpt", value: "" },
        { from: "human", value: "b" },
        { from: "gpt", value: "c" },
      ],
    };
    const repaired = createRecordEngine({ provider: "anthropic" }).repair(sharegptFormat, record);
    expect(repaired.changes.map((change) => [change.rule, change.place])).toEqual([
      ["message_removed_empty", "conversations[1]"],
    ]);
    expect((repaired.value as { conversations: unknown[] }).conversations).toHaveLength(3);
  });

  it('a function_call of "[]" and its observation are kept as they are, with a warning; report and file agree', () => {
    const record = {
      conversations: [
        { from: "human", value: "a" },
        { from: "function_call", value: "[]" },
        { from: "observation", value: "done" },
        { from: "gpt", value: "c" },
      ],
    };
    expect(engine.check(sharegptFormat, record).issues).toEqual([
      expect.objectContaining({ code: "call_list_empty", severity: "warning", place: "conversations[1]" }),
    ]);
    const repaired = engine.repair(sharegptFormat, record);
    expect(repaired.changes).toEqual([]);
    expect(repaired.value).toBeUndefined();
  });
});

describe("properties on the real data sets", () => {
  const fixtures = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
  const glaive = JSON.parse(
    readFileSync(join(fixtures, "glaive_toolcall_en_demo.json"), "utf8"),
  ) as unknown[];

  it("read then write with no change gives the same record, the same object (so the same bytes)", () => {
    for (const record of glaive) {
      const reading = sharegptFormat.read(record);
      expect(reading.write(reading.conversations.map(() => undefined))).toEqual({ ok: true, value: record });
      const again = reading.write(reading.conversations.map((c) => [...c.messages]));
      expect(again.ok && again.value).toBe(record);
    }
  });

  it("no turn disappears without a change naming it: turns written = turns read − removals + additions", () => {
    const turn = fc.oneof(
      fc.record({ from: fc.constantFrom("human", "gpt"), value: fc.constantFrom("", "hi") }),
      fc.record({
        from: fc.constant("function_call"),
        value: fc.constantFrom(
          '{"name":"f","arguments":{}}',
          '{"name":"f","arguments":""}',
          "[]",
          '[{"name":"f","arguments":{}},{"name":"g","arguments":{}}]',
          "{oops",
        ),
      }),
      fc.record({ from: fc.constant("observation"), value: fc.constantFrom("r", "[1,2]") }),
    );
    fc.assert(
      fc.property(fc.array(turn, { minLength: 1, maxLength: 8 }), (turns) => {
        const record = { conversations: turns };
        const repaired = engine.repair(sharegptFormat, record);
        if (repaired.value === undefined) return;
        const written = (repaired.value as { conversations: unknown[] }).conversations;
        const removed = repaired.changes.filter((change) =>
          [
            "message_removed_empty",
            "result_dropped_orphan",
            "result_dropped_with_call",
            "result_dropped_duplicate",
          ].includes(change.rule),
        ).length;
        const added = repaired.changes.filter((change) => change.rule === "result_synthesized").length;
        const callTurnsGone = turns.length - removed + added - written.length;
        // A function_call turn whose every call was dropped goes with its calls, each named (call_dropped…).
        if (callTurnsGone !== 0)
          expect(repaired.changes.some((change) => change.rule.startsWith("call_dropped"))).toBe(true);
        for (const original of turns) {
          if (!written.includes(original)) expect(repaired.changes.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 500 },
    );
  });
});
