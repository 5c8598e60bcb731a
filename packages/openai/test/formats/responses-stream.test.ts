import { readFileSync } from "node:fs";
import { createRecordEngine, parseJson } from "@toolcall/core";
import { createFormatRegistry } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openaiFormats, openaiResponsesStreamFormat } from "../../src/index.js";

// A recorded Responses API stream (MIT, __fixtures__/README.md): one call whose arguments arrive in five deltas.
const events = (): Array<Record<string, unknown>> =>
  readFileSync(new URL("./__fixtures__/responses-stream-call.sse", import.meta.url), "utf8")
    .split("\n")
    .filter((line) => line.startsWith("data: "))
    .map((line) => JSON.parse(line.slice(6)));
const engine = createRecordEngine();

describe("Responses API stream events", () => {
  it("a recorded stream is detected and read as the answer its items make: the call as its deltas built it", () => {
    const lines = events();
    expect(createFormatRegistry(openaiFormats).detect(lines, "session")?.format.id).toBe(
      "openai-responses-stream",
    );
    const [conversation] = openaiResponsesStreamFormat.read(lines).conversations;
    expect(conversation?.finishReason).toBe("tool_calls");
    expect(conversation?.messages[0]?.tool_calls).toMatchObject([
      {
        id: "call_kL0PCQV7M2WMoVX8V8OtYSAL",
        type: "function",
        function: { name: "get_capital", arguments: '{"country":"France"}' },
      },
    ]);
    // An answer's call awaits its result by nature: a warning, nothing else.
    const codes = (value: unknown) =>
      engine.check(openaiResponsesStreamFormat, value).issues.map((issue) => issue.code);
    expect(codes(lines)).toEqual(["tool_result_pending"]);
    const reading = openaiResponsesStreamFormat.read(lines);
    expect(reading.write([undefined])).toEqual({ ok: true, value: lines });
    const same = reading.write([[...(conversation?.messages ?? [])]]);
    expect(same.ok && same.value).toBe(lines);
  });

  it("repaired arguments go into every event that holds the call; the other events stay the same objects", () => {
    const lines = events();
    const broken = '```json\n{"country":"France"}\n```';
    const touched = new Set<number>();
    lines.forEach((event, line) => {
      if (event.type === "response.function_call_arguments.done") event.arguments = broken;
      else if (event.type === "response.output_item.done")
        (event.item as Record<string, unknown>).arguments = broken;
      else if (event.type === "response.completed")
        (
          (event.response as { output: Array<Record<string, unknown>> }).output[0] as Record<string, unknown>
        ).arguments = broken;
      else if (event.type === "response.function_call_arguments.delta") event.delta = "";
      else return;
      touched.add(line);
    });
    const firstDelta = lines.findIndex((event) => event.type === "response.function_call_arguments.delta");
    (lines[firstDelta] as Record<string, unknown>).delta = broken;
    const repaired = engine.repair(openaiResponsesStreamFormat, lines);
    expect(repaired.changes.map((change) => change.rule)).toEqual(["arguments_canonicalized"]);
    const written = repaired.value as Array<Record<string, unknown>>;
    written.forEach((event, line) => {
      if (!touched.has(line)) expect(event).toBe(lines[line]);
    });
    const reread = openaiResponsesStreamFormat.read(written).conversations[0]?.messages[0]?.tool_calls as
      | unknown[]
      | undefined;
    expect(reread?.[0]).toMatchObject({
      function: { arguments: '{"country":"France"}' },
    });
    const completed = written.find((event) => event.type === "response.completed") as {
      response: { output: Array<{ arguments: string }> };
    };
    expect(completed.response.output[0]?.arguments).toBe('{"country":"France"}');
    expect(engine.check(openaiResponsesStreamFormat, written).issues.map((issue) => issue.code)).toEqual([
      "tool_result_pending",
    ]);
  });

  it("a log read losslessly (numbers kept as written, as the command line reads files) reads the same", () => {
    const lossless = events().map((event) => {
      const parsed = parseJson(JSON.stringify(event), { lossless: true });
      return parsed.success ? parsed.value : undefined;
    });
    const [conversation] = openaiResponsesStreamFormat.read(lossless).conversations;
    expect(conversation?.messages[0]?.tool_calls).toHaveLength(1);
  });

  it("a stream cut inside a call's arguments is read as far as it came, and reported truncated", () => {
    const lines = events();
    const cut = lines.slice(
      0,
      lines.findIndex((event) => event.type === "response.function_call_arguments.done"),
    );
    const codes = engine
      .check(openaiResponsesStreamFormat, cut.slice(0, -1))
      .issues.map((issue) => issue.code);
    expect(codes).toContain("arguments_truncated");
  });
});

describe("generated Responses streams", () => {
  it("read then write is the log itself; a repair changes only the events of the calls it names", () => {
    const args = fc.constantFrom('{"a":1}', "", '```json\n{"a":1}\n```', '{"a":', "{'a': 1}");
    fc.assert(
      fc.property(
        fc.array(fc.record({ args, pieces: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 3 }),
        fc.boolean(),
        (calls, ended) => {
          const lines: Array<Record<string, unknown>> = [
            { type: "response.created", response: { id: "resp_1", output: [] } },
          ];
          const output = calls.map((call, k) => ({
            type: "function_call",
            id: `fc_${k}`,
            call_id: `call_${k}`,
            name: "f",
            arguments: call.args,
          }));
          calls.forEach((call, k) => {
            lines.push({
              type: "response.output_item.added",
              output_index: k,
              item: { ...output[k], arguments: "" },
            });
            const size = Math.ceil(call.args.length / call.pieces) || 1;
            for (let at = 0; at < call.args.length; at += size)
              lines.push({
                type: "response.function_call_arguments.delta",
                output_index: k,
                item_id: `fc_${k}`,
                delta: call.args.slice(at, at + size),
              });
            lines.push({
              type: "response.function_call_arguments.done",
              output_index: k,
              item_id: `fc_${k}`,
              arguments: call.args,
            });
            lines.push({ type: "response.output_item.done", output_index: k, item: output[k] });
          });
          if (ended)
            lines.push({
              type: "response.completed",
              response: { id: "resp_1", status: "completed", output },
            });
          const reading = openaiResponsesStreamFormat.read(lines);
          const same = reading.write(reading.conversations.map((c) => [...c.messages]));
          expect(same.ok && same.value).toBe(lines);
          const repaired = engine.repair(openaiResponsesStreamFormat, lines);
          if (repaired.value === undefined) return;
          const written = repaired.value as unknown[];
          expect(written).toHaveLength(lines.length);
          const calls2 =
            openaiResponsesStreamFormat.read(written).conversations[0]?.messages[0]?.tool_calls ?? [];
          expect(calls2).toHaveLength(calls.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
