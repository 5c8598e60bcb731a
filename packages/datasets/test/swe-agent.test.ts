import { readFileSync } from "node:fs";
import { WILD_ARGUMENTS } from "@toolcall/conformance";
import { expectFormatLossless } from "@toolcall/conformance/vitest";
import { createRecordEngine } from "@toolcall/core";
import { createFormatRegistry } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { datasetFormats, sweAgentTrajectoryFormat } from "../src/index.js";

// Real SWE-agent trajectories (MIT, __fixtures__/README.md): a function-calling demonstration and a replayed run.
const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), "utf8")) as Record<
    string,
    unknown
  > & { history: Array<Record<string, unknown>> };
const engine = createRecordEngine();
const registry = createFormatRegistry(datasetFormats);

describe("SWE-agent trajectories (.traj)", () => {
  it("reads the history of a real trajectory: every call paired with the result listing its id", () => {
    const traj = fixture("swe-agent-function_calling_simple.traj");
    expect(registry.detect(traj, "record")).toMatchObject({
      certainty: "certain",
      format: { id: "swe-agent-trajectory" },
    });
    const messages = sweAgentTrajectoryFormat.read(traj).conversations[0]?.messages ?? [];
    const calls = messages.flatMap((m) =>
      ((m.tool_calls as Array<{ id?: string }> | undefined) ?? []).map((call) => call.id),
    );
    expect(calls).toHaveLength(5);
    expect(messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id)).toEqual(calls);
    expect(engine.check(sweAgentTrajectoryFormat, traj).issues).toEqual([]);
    expectFormatLossless(sweAgentTrajectoryFormat, traj, { repair: engine.repair });
  });

  it("a replayed run that reuses call ids is reported at its history entries; repair renames them in call and result alike", () => {
    const traj = fixture("swe-agent-marshmallow-1867.traj");
    const issues = engine.check(sweAgentTrajectoryFormat, traj).issues;
    expect(new Set(issues.map((issue) => issue.code))).toEqual(new Set(["id_duplicate"]));
    expect(issues.map((issue) => issue.place)).toEqual([
      "history[8].tool_calls[0].id",
      "history[12].tool_calls[0].id",
      "history[14].tool_calls[0].id",
      "history[18].tool_calls[0].id",
      "history[20].tool_calls[0].id",
    ]);
    // Repair makes each reused id unique, in the call and in the result's tool_call_ids list, and nothing else.
    const repaired = expectFormatLossless(sweAgentTrajectoryFormat, traj, { repair: engine.repair });
    expect(new Set(repaired.changes.map((change) => change.rule))).toEqual(new Set(["call_id_renamed"]));
    const history = (repaired.value as typeof traj).history;
    expect(history[8]?.tool_calls).toMatchObject([{ id: "call_5iDdbOYybq7L19vqXmR0DPaU_2" }]);
    expect(history[9]).toMatchObject({
      tool_call_ids: ["call_5iDdbOYybq7L19vqXmR0DPaU_2"],
      content: traj.history[9]?.content,
    });
    expect(Object.keys(history[9] as object)).toEqual(Object.keys(traj.history[9] as object));
    expect(history[0]).toBe(traj.history[0]);
    expect(repaired.remaining).toEqual([]);
  });

  it("a repair writes back history alone: trajectory, info and the keys' order stay as they are", () => {
    const traj = fixture("swe-agent-marshmallow-1867.traj");
    const entry = traj.history[2] as { tool_calls: Array<{ function: { arguments: string } }> };
    (entry.tool_calls[0] as { function: { arguments: string } }).function.arguments =
      '```json\n{"filename":"reproduce.py"}\n```';
    const repaired = expectFormatLossless(sweAgentTrajectoryFormat, traj, { repair: engine.repair });
    const written = repaired.value as typeof traj;
    expect(Object.keys(written)).toEqual(Object.keys(traj));
    expect(written.trajectory).toBe(traj.trajectory);
    expect(written.info).toBe(traj.info);
    expect(written.replay_config).toBe(traj.replay_config);
  });

  it("repaired arguments are written in their history entry; every other entry is the same object", () => {
    const traj = fixture("swe-agent-function_calling_simple.traj");
    const call = (traj.history[4]?.tool_calls as Array<{ function: { arguments: string } }> | undefined)?.[0];
    if (call === undefined) throw new Error("the fixture changed");
    call.function.arguments = '```json\n{"path":"tests/missing_colon.py"}\n```';
    const repaired = engine.repair(sweAgentTrajectoryFormat, traj);
    expect(repaired.changes.map((change) => [change.rule, change.place])).toEqual([
      ["arguments_canonicalized", "history[4]"],
    ]);
    const history = (repaired.value as typeof traj).history;
    history.forEach((entry, index) => {
      if (index !== 4) expect(entry).toBe(traj.history[index]);
    });
    expect(history[4]).toMatchObject({ thought: traj.history[4]?.thought, message_type: "action" });
    expect(engine.check(sweAgentTrajectoryFormat, repaired.value).issues).toEqual([]);
  });

  it("a bare object with trajectory but no history is probably a SWE-agent trajectory", () => {
    expect(registry.detect({ trajectory: [{ action: "ls" }] }, "record")).toMatchObject({
      certainty: "probable",
      claimed: false,
      format: { id: "swe-agent-trajectory" },
    });
  });
});

describe("generated SWE-agent histories", () => {
  const step = fc.record({
    calls: fc.array(fc.constantFrom(...WILD_ARGUMENTS), { minLength: 0, maxLength: 3 }),
    answered: fc.constantFrom("each", "one list", "none", "orphan"),
    empty: fc.boolean(),
  });
  it("read then write is the record itself; repair loses nothing without naming it", () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 5 }), (steps) => {
        const history: unknown[] = [
          { role: "system", content: "SETTING", agent: "main", message_type: "system_prompt" },
          { role: "user", content: "Fix it.", agent: "main", message_type: "observation" },
        ];
        steps.forEach((s, turn) => {
          const ids = s.calls.map((_, k) => `call_${turn}_${k}`);
          history.push({
            role: "assistant",
            content: s.empty ? "" : "Let me look.",
            thought: "Let me look.",
            action: "ls",
            agent: "main",
            message_type: "action",
            ...(s.calls.length > 0
              ? {
                  tool_calls: s.calls.map((args, k) => ({
                    function: { arguments: args, name: "bash" },
                    id: ids[k],
                    type: "function",
                  })),
                }
              : {}),
          });
          const result = (list: string[]) => ({
            role: "tool",
            content: "OBSERVATION",
            agent: "main",
            message_type: "observation",
            tool_call_ids: list,
          });
          if (s.answered === "each") for (const id of ids) history.push(result([id]));
          else if (s.answered === "one list" && ids.length > 0) history.push(result(ids));
          else if (s.answered === "orphan") history.push(result([`call_gone_${turn}`]));
        });
        const traj = { environment: "main", trajectory: [], history, info: { exit_status: "submitted" } };
        expect(sweAgentTrajectoryFormat.matches(traj)).toBe(true);
        expectFormatLossless(sweAgentTrajectoryFormat, traj, { repair: engine.repair });
      }),
      { numRuns: 300 },
    );
  });
});
