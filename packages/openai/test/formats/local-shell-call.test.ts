import { createRecordEngine } from "@toolcall/core";
import { describe, expect, it } from "vitest";
import { codexRolloutFormat, openaiResponsesFormat } from "../../src/index.js";

// Items in the shapes of the Responses API reference (`local_shell_call`: `call_id`, `action` of type `exec`;
// `local_shell_call_output`: `id` naming the call) and of a Codex rollout, which answers a local shell call with a
// `function_call_output`. Written here after those shapes; no recorded file with these items was found.
const call = {
  type: "local_shell_call",
  id: "lsh_68a1",
  call_id: "call_ls_1",
  status: "completed",
  action: {
    type: "exec",
    command: ["bash", "-lc", "ls -la"],
    env: {},
    timeout_ms: 10000,
    working_directory: "/repo",
  },
};
const engine = createRecordEngine();

describe("local_shell_call items", () => {
  it("a local shell call is a call, and the output naming it by id is its result (not an orphan)", () => {
    const input = [
      { role: "user", content: "list the files" },
      call,
      { type: "local_shell_call_output", id: "call_ls_1", output: "total 0" },
    ];
    const reading = openaiResponsesFormat.read({ input });
    const messages = reading.conversations[0]?.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
    expect(messages[1]?.tool_calls).toMatchObject([
      { id: "call_ls_1", function: { name: "local_shell", arguments: JSON.stringify(call.action) } },
    ]);
    expect(messages[2]?.tool_call_id).toBe("call_ls_1");
    expect(engine.check(openaiResponsesFormat, { input }).issues).toEqual([]);
    const repaired = engine.repair(openaiResponsesFormat, { input });
    expect(repaired.changes).toEqual([]);
    expect(repaired.value).toBeUndefined();
  });

  it("in a Codex rollout, the function_call_output answering a local shell call is kept (before: dropped as an orphan)", () => {
    const lines = [
      { timestamp: "2025-09-01T10:00:00.000Z", type: "session_meta", payload: { id: "s1", cwd: "/repo" } },
      {
        timestamp: "2025-09-01T10:00:01.000Z",
        type: "response_item",
        payload: { type: "message", role: "user", content: [{ type: "input_text", text: "ls" }] },
      },
      { timestamp: "2025-09-01T10:00:02.000Z", type: "response_item", payload: call },
      {
        timestamp: "2025-09-01T10:00:03.000Z",
        type: "response_item",
        payload: { type: "function_call_output", call_id: "call_ls_1", output: "total 0" },
      },
    ];
    expect(engine.check(codexRolloutFormat, lines).issues).toEqual([]);
    const repaired = engine.repair(codexRolloutFormat, lines);
    expect(repaired.changes).toEqual([]);
  });

  it("a result missing for a local shell call is synthesized after it; the call item is kept as it was", () => {
    const input = [{ role: "user", content: "ls" }, call, { role: "user", content: "and now?" }];
    const repaired = engine.repair(openaiResponsesFormat, { input });
    expect(repaired.changes.map((change) => change.rule)).toEqual(["result_synthesized"]);
    const written = (repaired.value as { input: unknown[] }).input;
    expect(written[1]).toBe(call);
    expect(written[2]).toMatchObject({ type: "function_call_output", call_id: "call_ls_1" });
  });
});
