import { readFileSync } from "node:fs";
import { expectFormatLossless } from "@toolcall/conformance/vitest";
import { createRecordEngine } from "@toolcall/core";
import { createFormatRegistry } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adkEvalSetFormat, geminiFormats } from "../src/index.js";

// A real ADK eval set (Apache-2.0, __fixtures__/README.md): two invocations, each expecting one tool use (id null).
const evalSet = () =>
  JSON.parse(
    readFileSync(new URL("./__fixtures__/adk-dependent_tool_calls.test.json", import.meta.url), "utf8"),
  ) as {
    eval_cases: Array<{
      conversation: Array<{ intermediate_data: { tool_uses: Array<Record<string, unknown>> } }>;
    }>;
  };
const engine = createRecordEngine();

describe("Google ADK eval sets", () => {
  it("are detected and read: one answer per invocation, its expected tool uses as calls", () => {
    const value = evalSet();
    expect(createFormatRegistry(geminiFormats).detect(value, "record")).toMatchObject({
      certainty: "certain",
      format: { id: "adk-eval-set" },
    });
    const reading = adkEvalSetFormat.read(value);
    expect(reading.conversations.map((c) => c.label)).toEqual([
      "eval_cases[0].conversation[0]",
      "eval_cases[0].conversation[1]",
    ]);
    const calls = reading.conversations.flatMap((c) =>
      c.messages.flatMap((m) => (m.tool_calls as Array<{ function: unknown }> | undefined) ?? []),
    );
    expect(calls.map((call) => call.function)).toEqual([
      { name: "set_device_info", arguments: '{"location":"Bedroom","status":"OFF","device_id":"device_2"}' },
      { name: "get_device_info", arguments: '{"device_id":"device_2"}' },
    ]);
    // Expected calls await no result: the verdict says nothing about results.
    expect(engine.check(adkEvalSetFormat, value).issues).toEqual([]);
    expectFormatLossless(adkEvalSetFormat, value, { repair: engine.repair });
  });

  it("an expected tool use with a name providers refuse is reported where it is; no rule renames it", () => {
    const value = evalSet();
    const use = value.eval_cases[0]?.conversation[1]?.intermediate_data.tool_uses[0] as Record<
      string,
      unknown
    >;
    use.name = "device.get info";
    const found = engine.check(adkEvalSetFormat, value).issues;
    expect(found.map((issue) => [issue.code, issue.place])).toEqual([
      ["name_invalid", "eval_cases[0].conversation[1].intermediate_data.tool_uses[0]"],
    ]);
    const repaired = engine.repair(adkEvalSetFormat, value);
    expect(repaired.value).toBeUndefined();
  });

  it("a repair is written back as tool uses: args an object again, a nameless use out of the list", () => {
    const value = evalSet();
    const [first, second] = value.eval_cases[0]?.conversation ?? [];
    const uses = first?.intermediate_data.tool_uses ?? [];
    // `args` written as JSON text, as a converter that stringifies would; a use that lost its name.
    uses[0] = { ...uses[0], args: JSON.stringify(uses[0]?.args) };
    uses.push({ id: null, name: null, args: {} });
    const repaired = engine.repair(adkEvalSetFormat, value);
    expect(repaired.changes.map((change) => [change.rule, change.place])).toEqual([
      ["arguments_canonicalized", "eval_cases[0].conversation[0]"],
      ["call_dropped_no_name", "eval_cases[0].conversation[0]"],
    ]);
    const written = repaired.value as ReturnType<typeof evalSet>;
    expect(written.eval_cases[0]?.conversation[0]?.intermediate_data.tool_uses).toEqual([
      {
        id: null,
        name: "set_device_info",
        args: { location: "Bedroom", status: "OFF", device_id: "device_2" },
      },
    ]);
    // The invocation no rule touched is the same object; what is written reads again with nothing to say.
    expect(written.eval_cases[0]?.conversation[1]).toBe(second);
    expect(repaired.remaining).toEqual([]);
  });
});

describe("generated ADK eval sets", () => {
  it("read then write is the eval set itself", () => {
    const use = fc.record({
      id: fc.constantFrom(null, "u1"),
      name: fc.constantFrom("f", "a.b", ""),
      args: fc.dictionary(fc.string(), fc.jsonValue()),
    });
    const turn = fc.record({
      user_content: fc.constant({ role: "user", parts: [{ text: "go" }] }),
      intermediate_data: fc.record({
        tool_uses: fc.array(use, { maxLength: 3 }),
        intermediate_responses: fc.constant([]),
      }),
    });
    fc.assert(
      fc.property(fc.array(turn, { maxLength: 3 }), (conversation) => {
        const value = { eval_set_id: "s", eval_cases: [{ eval_id: "c", conversation }] };
        expectFormatLossless(adkEvalSetFormat, value, { repair: engine.repair });
      }),
      { numRuns: 200 },
    );
  });
});
