import { readFileSync } from "node:fs";
import { WILD_ARGUMENTS } from "@toolcall/conformance";
import { expectFormatLossless } from "@toolcall/conformance/vitest";
import { createRecordEngine } from "@toolcall/core";
import { createFormatRegistry } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { datasetFormats, openhandsTrajectoryFormat } from "../src/index.js";

// Real OpenHands trajectories (MIT, __fixtures__/README.md): the event lists its replay tests feed the agent.
type Event = Record<string, unknown>;
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8")) as Event[];
const engine = createRecordEngine();
const registry = createFormatRegistry(datasetFormats);
const FILES = ["openhands-basic.json", "openhands-basic_gui_mode.json", "openhands-wrong_initial_state.json"];
const recorded = (event: Event | undefined) =>
  (
    event as {
      tool_call_metadata: {
        model_response: {
          choices: Array<{ message: { tool_calls: Array<{ function: { arguments: string } }> } }>;
        };
      };
    }
  ).tool_call_metadata.model_response.choices[0]?.message.tool_calls[0]?.function as { arguments: string };

describe("OpenHands trajectories", () => {
  it.each(FILES)("%s: calls from the recorded model answers, each paired with its observation", (name) => {
    const events = fixture(name);
    expect(registry.detect(events, "record")).toMatchObject({
      certainty: "certain",
      format: { id: "openhands-trajectory" },
    });
    const messages = openhandsTrajectoryFormat.read(events).conversations[0]?.messages ?? [];
    const actions = events.filter((e) => typeof e.action === "string" && e.tool_call_metadata !== undefined);
    const calls = messages.flatMap((m) =>
      ((m.tool_calls as Array<{ id?: string }> | undefined) ?? []).map((call) => call.id),
    );
    expect(calls).toEqual(
      actions.map((e) => (e.tool_call_metadata as { tool_call_id: string }).tool_call_id),
    );
    // Only a session that ends on its `finish` call (no observation follows) has a call awaiting its result.
    const issues = engine.check(openhandsTrajectoryFormat, events).issues;
    expect(issues.every((issue) => issue.code === "tool_result_pending")).toBe(true);
    expectFormatLossless(openhandsTrajectoryFormat, events, { repair: engine.repair });
  });

  it("repaired arguments go into the recorded call of the action and of its observation; other events stay", () => {
    const events = fixture("openhands-wrong_initial_state.json");
    recorded(events[1]).arguments = '```json\n{"path": "/workspace/test.txt"}\n```';
    recorded(events[2]).arguments = '```json\n{"path": "/workspace/test.txt"}\n```';
    const repaired = expectFormatLossless(openhandsTrajectoryFormat, events, { repair: engine.repair });
    expect(repaired.changes.map((change) => [change.rule, change.place])).toEqual([
      ["arguments_canonicalized", "[1]"],
    ]);
    const written = repaired.value as Event[];
    expect(recorded(written[1]).arguments).toBe('{"path":"/workspace/test.txt"}');
    expect(recorded(written[2]).arguments).toBe('{"path":"/workspace/test.txt"}');
    expect(Object.keys(written[1] as object)).toEqual(Object.keys(events[1] as object));
    expect((written[1] as Event).args).toBe((events[1] as Event).args);
    written.forEach((event, index) => {
      if (index !== 1 && index !== 2) expect(event).toBe(events[index]);
    });
  });

  it("an observation whose action is gone is dropped, named; a call left unanswered mid-session gets an error observation", () => {
    const events = fixture("openhands-wrong_initial_state.json");
    const orphaned = [events[0], ...events.slice(2)] as Event[];
    const dropped = engine.repair(openhandsTrajectoryFormat, orphaned);
    expect(dropped.changes.map((change) => [change.rule, change.place])).toEqual([
      ["result_dropped_orphan", "[1]"],
    ]);
    expect(dropped.value).toEqual([orphaned[0], ...orphaned.slice(2)]);
    const unanswered = [...events.slice(0, 2), ...events.slice(3)] as Event[];
    const synthesized = engine.repair(openhandsTrajectoryFormat, unanswered);
    expect(synthesized.changes.map((change) => change.rule)).toEqual(["result_synthesized"]);
    const written = synthesized.value as Event[];
    expect(written).toHaveLength(unanswered.length + 1);
    expect(written[2]).toMatchObject({
      observation: "error",
      tool_call_metadata: {
        function_name: "str_replace_editor",
        tool_call_id: "toolu_01USom24cuiyvAembLhEryrn",
      },
    });
    expect(engine.check(openhandsTrajectoryFormat, written).issues.map((issue) => issue.code)).toEqual([
      "tool_result_pending",
    ]);
  });
});

describe("generated OpenHands sessions", () => {
  const step = fc.record({
    calls: fc.array(fc.constantFrom(...WILD_ARGUMENTS), { minLength: 0, maxLength: 3 }),
    observed: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    text: fc.constantFrom("", "Let me look.", null),
  });
  it("read then write is the record itself; repair loses nothing without naming it", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 5 }), (steps) => {
        const events: Event[] = [
          { id: 0, source: "user", message: "Fix it.", action: "message", args: { content: "Fix it." } },
        ];
        let id = 1;
        steps.forEach((s, turn) => {
          if (s.calls.length === 0) {
            events.push({ id: id++, source: "agent", action: "message", args: { content: s.text ?? "" } });
            return;
          }
          const tool_calls = s.calls.map((args, k) => ({
            function: { arguments: args, name: "execute_bash" },
            id: `toolu_${turn}_${k}`,
            type: "function",
          }));
          const metadata = (k: number) => ({
            function_name: "execute_bash",
            tool_call_id: `toolu_${turn}_${k}`,
            model_response: {
              id: `chatcmpl-${turn}`,
              choices: [{ index: 0, message: { role: "assistant", content: s.text, tool_calls } }],
            },
            total_calls_in_response: s.calls.length,
          });
          s.calls.forEach((_, k) => {
            events.push({
              id: id++,
              source: "agent",
              action: "run",
              tool_call_metadata: metadata(k),
              args: {},
            });
          });
          s.calls.forEach((_, k) => {
            if (s.observed[k])
              events.push({
                id: id++,
                source: "agent",
                observation: "run",
                content: "ok",
                tool_call_metadata: metadata(k),
              });
          });
        });
        expect(openhandsTrajectoryFormat.matches(events)).toBe(true);
        expectFormatLossless(openhandsTrajectoryFormat, events, { repair: engine.repair });
      }),
      { numRuns: 300 },
    );
  });
});
