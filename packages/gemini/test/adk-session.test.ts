import { readFileSync } from "node:fs";
import { WILD_ARGUMENTS } from "@toolcall/conformance";
import { expectFormatLossless } from "@toolcall/conformance/vitest";
import { createRecordEngine } from "@toolcall/core";
import { createFormatRegistry } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { adkSessionFormat, geminiFormats } from "../src/index.js";

// A real ADK session (Apache-2.0, __fixtures__/README.md): calls without ids, parts under their Python names.
type Session = { events: Array<{ content?: { parts: Array<Record<string, unknown>> } }> };
const session = () =>
  JSON.parse(
    readFileSync(new URL("./__fixtures__/adk-flow_complex_spark.session.json", import.meta.url), "utf8"),
  ) as Session;
const engine = createRecordEngine();

describe("Google ADK sessions", () => {
  it("are detected and read: each function_call paired with the function_response after it", () => {
    const value = session();
    expect(createFormatRegistry(geminiFormats).detect(value, "record")).toMatchObject({
      certainty: "certain",
      format: { id: "adk-session" },
    });
    const messages = adkSessionFormat.read(value).conversations[0]?.messages ?? [];
    const calls = messages.flatMap((m) =>
      ((m.tool_calls as Array<{ id: string }> | undefined) ?? []).map((c) => c.id),
    );
    expect(calls).toEqual(["call@1.0", "call@7.0"]);
    expect(messages.filter((m) => m.role === "tool").map((m) => m.tool_call_id)).toEqual(calls);
    expect(engine.check(adkSessionFormat, value).issues).toEqual([]);
    expectFormatLossless(adkSessionFormat, value, { repair: engine.repair });
  });

  it("repaired args are written as an object under the session's own key; other events stay the same objects", () => {
    const value = session();
    const part = value.events[1]?.content?.parts[0] as { function_call: { args: unknown } };
    const args = part.function_call.args;
    part.function_call.args = `\`\`\`json\n${JSON.stringify(args)}\n\`\`\``;
    const repaired = expectFormatLossless(adkSessionFormat, value, { repair: engine.repair });
    expect(repaired.changes.map((change) => [change.rule, change.place])).toEqual([
      ["arguments_canonicalized", "events[1].content.parts[0]"],
    ]);
    const written = repaired.value as Session;
    expect(written.events[1]?.content?.parts[0]).toEqual({ function_call: { ...part.function_call, args } });
    written.events.forEach((event, index) => {
      if (index !== 1) expect(event).toBe(value.events[index]);
    });
  });

  it("a change ADK cannot hold keeps the session and says why", () => {
    const value = session();
    value.events.splice(2, 1);
    const repaired = engine.repair(adkSessionFormat, value);
    expect(repaired.value).toBeUndefined();
    expect(repaired.notRewritable).toMatch(/ADK session/);
  });
});

describe("generated ADK sessions", () => {
  it("read then write is the session itself; repair loses nothing without naming it", () => {
    const step = fc.record({
      args: fc.oneof(fc.constantFrom(...WILD_ARGUMENTS), fc.constant({ q: 1 })),
      answered: fc.boolean(),
      camel: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 4 }), (steps) => {
        const events: unknown[] = [
          { author: "user", invocation_id: "i", content: { role: "user", parts: [{ text: "go" }] } },
        ];
        steps.forEach((s, k) => {
          const call = s.camel ? "functionCall" : "function_call";
          const response = s.camel ? "functionResponse" : "function_response";
          events.push({
            author: "agent",
            invocation_id: "i",
            content: { role: "model", parts: [{ [call]: { id: `c${k}`, name: "f", args: s.args } }] },
          });
          if (s.answered)
            events.push({
              author: "agent",
              invocation_id: "i",
              content: {
                role: "user",
                parts: [{ [response]: { id: `c${k}`, name: "f", response: { ok: true } } }],
              },
            });
        });
        const value = { id: "s", app_name: "app", user_id: "u", state: {}, events };
        expect(adkSessionFormat.matches(value)).toBe(true);
        expectFormatLossless(adkSessionFormat, value, { repair: engine.repair });
      }),
      { numRuns: 300 },
    );
  });
});
