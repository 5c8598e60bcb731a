import { readFileSync } from "node:fs";
import { createRecordEngine } from "@toolcall/core";
import { createFormatRegistry } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { kimiCliContextFormat, openaiFormats } from "../../src/index.js";

// A look-alike of a Kimi CLI context.jsonl (__fixtures__/README.md names the published session it follows).
const lines = (): Array<Record<string, unknown>> =>
  readFileSync(new URL("./__fixtures__/kimi-cli-context.lookalike.jsonl", import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line));
const engine = createRecordEngine();

describe("Kimi CLI session context", () => {
  it("is detected and read: messages in order, markers left out, every call answered", () => {
    const value = lines();
    expect(createFormatRegistry(openaiFormats).detect(value, "session")?.format.id).toBe("kimi-cli-context");
    const messages = kimiCliContextFormat.read(value).conversations[0]?.messages ?? [];
    expect(messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);
    expect(engine.check(kimiCliContextFormat, value).issues).toEqual([]);
    const reading = kimiCliContextFormat.read(value);
    expect(reading.write([undefined])).toEqual({ ok: true, value });
    const same = reading.write([[...(reading.conversations[0]?.messages ?? [])]]);
    expect(same.ok && same.value).toBe(value);
  });

  it("a repaired call is written in its line; markers and other lines stay the same objects", () => {
    const value = lines();
    const at = value.findIndex((line) => Array.isArray(line.tool_calls) && line.tool_calls.length === 2);
    const calls = value[at]?.tool_calls as Array<{ function: { arguments: string } }>;
    (calls[1] as { function: { arguments: string } }).function.arguments =
      "{'path': '/testbed/sklearn/utils/_set_output.py'}";
    const repaired = engine.repair(kimiCliContextFormat, value);
    expect(repaired.changes.map((change) => [change.rule, change.place])).toEqual([
      ["arguments_canonicalized", `record ${at + 1}`],
    ]);
    const written = repaired.value as Array<Record<string, unknown>>;
    expect(written).toHaveLength(value.length);
    written.forEach((line, index) => {
      if (index !== at) expect(line).toBe(value[index]);
    });
    expect(JSON.parse(JSON.stringify(written[at]))).toMatchObject({
      tool_calls: [
        { id: "Bash:1" },
        { id: "ReadFile:2", function: { arguments: '{"path":"/testbed/sklearn/utils/_set_output.py"}' } },
      ],
    });
    expect(engine.check(kimiCliContextFormat, written).issues).toEqual([]);
  });

  it("a result missing mid-session is synthesized as a tool line after its call; a dropped orphan line is named", () => {
    const value = lines();
    const result = value.findIndex((line) => line.tool_call_id === "Bash:1");
    const missing = value.filter((_, index) => index !== result);
    const repaired = engine.repair(kimiCliContextFormat, missing);
    expect(repaired.changes.map((change) => change.rule)).toEqual(["result_synthesized"]);
    const written = repaired.value as Array<Record<string, unknown>>;
    expect(written).toHaveLength(missing.length + 1);
    expect(written.find((line) => line.tool_call_id === "Bash:1")).toMatchObject({ role: "tool" });
    const orphan = [...lines(), { role: "tool", content: "late", tool_call_id: "Gone:9" }];
    const dropped = engine.repair(kimiCliContextFormat, orphan);
    expect(dropped.changes.map((change) => change.rule)).toContain("result_dropped_orphan");
    expect((dropped.value as unknown[]).length).toBe(orphan.length - 1);
  });
});

describe("generated Kimi CLI contexts", () => {
  it("read then write is the session itself; a repair loses no line without naming it and keeps every marker line", () => {
    const args = fc.constantFrom('{"command":"ls"}', "", "{'a': 1}", '{"a": ', '```json\n{"a":1}\n```');
    fc.assert(
      fc.property(
        fc.array(fc.record({ args, answered: fc.boolean() }), { minLength: 1, maxLength: 5 }),
        (steps) => {
          const value: Array<Record<string, unknown>> = [
            { role: "_checkpoint", id: 0 },
            { role: "user", content: "go" },
          ];
          steps.forEach((step, k) => {
            value.push({ role: "_usage", token_count: k });
            value.push({
              role: "assistant",
              content: [],
              tool_calls: [
                { type: "function", id: `Bash:${k}`, function: { name: "Bash", arguments: step.args } },
              ],
            });
            if (step.answered)
              value.push({
                role: "tool",
                content: [{ type: "text", text: "ok" }],
                tool_call_id: `Bash:${k}`,
              });
          });
          const reading = kimiCliContextFormat.read(value);
          const same = reading.write(reading.conversations.map((c) => [...c.messages]));
          expect(same.ok && same.value).toBe(value);
          const repaired = engine.repair(kimiCliContextFormat, value);
          if (repaired.value === undefined) return;
          const written = repaired.value as Array<Record<string, unknown>>;
          const named = repaired.changes.filter(
            (change) =>
              change.rule.startsWith("call_dropped") ||
              change.rule.startsWith("result_dropped") ||
              change.rule === "message_removed_empty",
          );
          if (written.length < value.length) expect(named.length).toBeGreaterThan(0);
          expect(written.filter((line) => String(line.role).startsWith("_"))).toEqual(
            value.filter((line) => String(line.role).startsWith("_")),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
