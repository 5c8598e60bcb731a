import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { expectConversationFormat } from "@toolcall/conformance/vitest";
import { coreRepairs, type SanitizeOptions, sanitizeHistory, validateHistory } from "@toolcall/core";
import type { ConversationFormat } from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { datasetFormats, llamafactoryFormat, sharegptFormat } from "../src/index.js";

// The conversation-format contract (@toolcall/conformance) on one record, sanitized by core; call ids compare
// by order, as data sets store none.
const checkRoundTrip = (
  format: ConversationFormat,
  value: unknown,
  options: SanitizeOptions = { repairs: coreRepairs },
) => expectConversationFormat(format, value, { sanitize: sanitizeHistory, options, callIds: "by-order" });
const asData = (value: unknown): unknown => JSON.parse(JSON.stringify(value)); // as a file holds it

const fixtures = fileURLToPath(new URL("./__fixtures__/", import.meta.url));
const read = (name: string) => readFileSync(join(fixtures, name), "utf8");
const jsonl = (name: string): unknown[] =>
  read(name)
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));

/** Every issue of a record, `code @ place`, at a severity. */
function issuesOf(format: ConversationFormat, value: unknown, severity: string): string[] {
  const reading = format.read(value);
  return [
    ...reading.issues.filter((i) => i.severity === severity).map((i) => `${i.code} @ ${i.place}`),
    ...reading.conversations.flatMap((c) =>
      validateHistory(c.messages, {
        ...(c.tools ? { tools: c.tools } : {}),
        pendingCalls: "pending",
        repairs: coreRepairs,
      })
        .filter((i) => i.severity === severity)
        .map((i) => `${i.code} @ ${c.placeOf?.(i.path)}`),
    ),
  ];
}

describe("LLaMA-Factory's demo data (hiyouga/LLaMA-Factory data/)", () => {
  it("glaive_toolcall_en_demo.json: 300 ShareGPT conversations read whole, function calls paired with observations", () => {
    const records = JSON.parse(read("glaive_toolcall_en_demo.json")) as unknown[];
    expect(records).toHaveLength(300);
    const errors: string[] = [];
    let calls = 0;
    records.forEach((record, index) => {
      expect(datasetFormats.find((f) => f.matches(record))).toBe(sharegptFormat);
      for (const c of sharegptFormat.read(record).conversations) {
        calls += c.messages.reduce((n, m) => n + ((m.tool_calls as unknown[] | undefined)?.length ?? 0), 0);
      }
      errors.push(...issuesOf(sharegptFormat, record, "error").map((e) => `${index}: ${e}`));
      expect(checkRoundTrip(sharegptFormat, record).changes).toBe(0);
    });
    expect(calls).toBe(211);
    // One real defect in the set: a call whose argument is a list where the tool's schema says number.
    expect(errors).toEqual(["259: arguments_schema @ conversations[3]"]);
  });

  it("reason_tool_use_demo_50.jsonl: tool_call parts and results without ids pair in order; no message is an orphan", () => {
    const records = jsonl("reason_tool_use_demo_50.jsonl");
    let messages = 0;
    const warnings: string[] = [];
    for (const record of records) {
      expect(datasetFormats.find((f) => f.matches(record))).toBe(llamafactoryFormat);
      messages += (record as { messages: unknown[] }).messages.length;
      expect(issuesOf(llamafactoryFormat, record, "error")).toEqual([]);
      warnings.push(...issuesOf(llamafactoryFormat, record, "warning"));
      expect(
        checkRoundTrip(llamafactoryFormat, record, { repairs: coreRepairs, pendingCalls: "keep" }).changes,
      ).toBe(0);
    }
    expect(messages).toBe(274);
    // Samples that end with the assistant's calls teach the call itself: their calls await results, never missing.
    expect(new Set(warnings.map((w) => w.split(" @ ")[0]))).toEqual(new Set(["tool_result_pending"]));
  });

  it("mllm_demo.json holds OpenAI Chat messages: no data set format claims it", () => {
    for (const record of JSON.parse(read("mllm_demo.json")) as unknown[]) {
      expect(datasetFormats.some((f) => f.matches(record))).toBe(false);
    }
  });
});

describe("Hermes function-calling v1 (the data set card's examples)", () => {
  const records = jsonl("hermes-function-calling-v1-card.jsonl");

  it("a call written as a Python dict is read, with a warning; the tool_response answers it", () => {
    const [flight] = records;
    expect(sharegptFormat.matches(flight)).toBe(true);
    expect(issuesOf(sharegptFormat, flight, "error")).toEqual([]);
    expect(issuesOf(sharegptFormat, flight, "warning")).toEqual(["call_python_literal @ conversations[2]"]);
    const messages = asData(sharegptFormat.read(flight).conversations[0]?.messages) as Array<
      Record<string, unknown>
    >;
    expect(messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "assistant"]);
    expect(messages[2]).toMatchObject({
      content: null,
      tool_calls: [{ id: "call@2", function: { name: "search_flights" } }],
    });
    expect(messages[3]).toMatchObject({ tool_call_id: "call@2" });
  });

  it("the card's broken extraction call (escaped newlines, single quotes, name inside arguments) is found and kept under _raw_arguments", () => {
    const broken = records[1] as { conversations: Array<{ value: string }> };
    expect(issuesOf(sharegptFormat, broken, "error")).toEqual([
      "call_unreadable @ conversations[2]",
      "arguments_invalid_json @ conversations[2]",
    ]);
    const { value } = checkRoundTrip(sharegptFormat, broken);
    const turn = (value as typeof broken).conversations[2]?.value as string;
    expect(turn.startsWith("<tool_call>\n{")).toBe(true);
    const body = JSON.parse(turn.slice("<tool_call>\n".length, -"\n</tool_call>".length));
    expect(body).toEqual({
      name: "ExpertQAExtractor",
      arguments: { _raw_arguments: broken.conversations[2]?.value.slice(11, -12) },
    });
  });

  it("JSON-mode examples hold no calls and nothing to report", () => {
    for (const record of records.slice(2)) expect(issuesOf(sharegptFormat, record, "error")).toEqual([]);
  });
});

describe("what issue 19 found", () => {
  it("a speaker no data set has is role_unknown at its from; every other turn is read", () => {
    const record = {
      conversations: [
        { from: "human", value: "hi" },
        { from: "bogus", value: "?" },
      ],
    };
    expect(issuesOf(sharegptFormat, record, "error")).toEqual(["role_unknown @ conversations[1].from"]);
  });

  it("an observation with no call before it is an orphan; repair drops that turn only", () => {
    const record = {
      conversations: [
        { from: "human", value: "hi" },
        { from: "observation", value: "{}" },
        { from: "gpt", value: "hello" },
      ],
      tools: "[]",
    };
    expect(issuesOf(sharegptFormat, record, "error")).toEqual(["tool_result_orphan @ conversations[1]"]);
    const { value } = checkRoundTrip(sharegptFormat, record);
    const out = value as typeof record;
    expect(out.conversations).toEqual([record.conversations[0], record.conversations[2]]);
    expect(out.tools).toBe("[]");
  });
});

describe("generated ShareGPT conversations", () => {
  it("read, repair, write and read again give the repaired history; untouched records stay the same object", () => {
    const call = fc.oneof(
      fc.constant('{"name": "get_weather", "arguments": {"city": "Paris"}}'),
      fc.constant('{"name": "get_weather", "arguments": "{\\"city\\": \\"Rome\\"}"}'),
      fc.constant('{"name": "get_weather", "arguments": ""}'),
      fc.constant('{"name": "get_weather", "arguments": "{oops"}'),
      fc.constant("{'name': 'get_weather', 'arguments': {'city': 'Oslo'}}"),
      fc.constant('{"name": "get_weather", "arguments": '),
    );
    const turn = fc.oneof(
      fc.record({ from: fc.constant("human"), value: fc.constantFrom("hi", "weather?") }),
      fc.record({ from: fc.constant("gpt"), value: fc.constantFrom("ok", "") }),
      fc.record({ from: fc.constant("function_call"), value: call }),
      fc.record({ from: fc.constant("observation"), value: fc.constantFrom("{}", '{"t": 18}') }),
    );
    fc.assert(
      fc.property(
        fc.array(turn, { minLength: 1, maxLength: 8 }),
        fc.constantFrom("preserve", "drop", "empty"),
        fc.constantFrom("synthesize", "drop-call"),
        (conversations, policy, missingResult) => {
          const record = {
            conversations,
            tools: '[{"name": "get_weather", "parameters": {"type": "object"}}]',
          };
          try {
            checkRoundTrip(sharegptFormat, record, {
              repairs: coreRepairs,
              policy: policy as "preserve",
              missingResult: missingResult as "synthesize",
            });
          } catch (error) {
            // Calls written as Python literals are not rewritten as JSON (that would not be Python any more).
            if (!String(error).includes("Python literal")) throw error;
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
