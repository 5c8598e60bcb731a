import { describe, expect, it } from "vitest";
import { checkResult } from "./check-result.js";
import type { ConformanceLevel } from "./levels.js";
import { type ConformanceCase, loadVectors } from "./load-vectors.js";
import { compareMessagesAtMappingLevel } from "./message-view.js";

// Each test takes a real vector, changes its expected history the way another stack's answer differs, and checks
// both levels: the mapping level ignores what the rule is not about, the full level does not.

const cases = loadVectors();
type Message = Record<string, unknown> & {
  tool_calls?: Array<{ id?: string; function: { name: string; arguments: unknown } }>;
};

function vector(id: string): { testCase: ConformanceCase; messages: Message[] } {
  const testCase = cases.find((c) => c.id === id) as ConformanceCase;
  return { testCase, messages: structuredClone(testCase.expected.messages) as Message[] };
}

function check(testCase: ConformanceCase, messages: unknown, level: ConformanceLevel): string[] {
  const actual = testCase.operation === "sanitize" ? { messages, changes: [] } : messages;
  const expected = { messages: testCase.expected.messages };
  return checkResult({ operation: testCase.operation, expected, actual, input: testCase.input, level });
}

describe("the mapping level of a message list", () => {
  it("takes content None turned into an empty string as no content (R5)", () => {
    const { testCase, messages } = vector("r5-prepare-object-text-becomes-a-mapping");
    for (const message of messages) if (message.content === null) message.content = "";
    expect(check(testCase, messages, "mapping")).toEqual([]);
    expect(check(testCase, messages, "full")).toEqual([expect.stringMatching(/^messages: expected/)]);
  });

  it("compares wire arguments by the JSON they hold, not their bytes (R4)", () => {
    const { testCase, messages } = vector("r4-sanitize-empty-string");
    for (const message of messages)
      for (const call of message.tool_calls ?? []) call.function.arguments = "{ }";
    expect(check(testCase, messages, "mapping")).toEqual([]);
    expect(check(testCase, messages, "full")).toHaveLength(1);
  });

  it("does not compare the reference's own wording: a synthesized result or a made-up id", () => {
    const synthesized = vector("r4-sanitize-call-without-a-result");
    const tool = synthesized.messages.find(
      (m) => m.role === "tool" && !JSON.stringify(synthesized.testCase.input).includes(String(m.content)),
    ) as Message;
    tool.content = "Error: no result.";
    expect(check(synthesized.testCase, synthesized.messages, "mapping")).toEqual([]);
    expect(check(synthesized.testCase, synthesized.messages, "full")).toHaveLength(1);

    const assigned = vector("r4-sanitize-call-without-an-id-gets-one");
    const call = assigned.messages.flatMap((m) => m.tool_calls ?? [])[0] as { id: string };
    const result = assigned.messages.find((m) => m.tool_call_id === call.id) as Message;
    call.id = "toolu_01";
    result.tool_call_id = "toolu_01";
    expect(check(assigned.testCase, assigned.messages, "mapping")).toEqual([]);
  });

  it("fails a result that answers another call, naming the message", () => {
    const { testCase, messages } = vector("r4-sanitize-parallel-calls-and-two-turns");
    const results = messages.filter((m) => m.role === "tool");
    const [first, second] = results as [Message, Message];
    [first.tool_call_id, second.tool_call_id] = [second.tool_call_id, first.tool_call_id];
    const problems = check(testCase, messages, "mapping");
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^messages\[\d+\]\.answers call: expected 0, got 1$/);
  });

  it("fails changed arguments, a changed kept result and a lost message, naming the field", () => {
    const args = vector("r4-sanitize-compact-object-text");
    const call = args.messages.flatMap((m) => m.tool_calls ?? [])[0] as { function: { arguments: unknown } };
    call.function.arguments = '{"city":"Lyon"}';
    expect(check(args.testCase, args.messages, "mapping")).toEqual([
      expect.stringMatching(/^messages\[\d\]\.tool_calls\[0\]\.arguments: expected \{"city":"Paris"\}, got/),
    ]);

    const kept = vector("r4-sanitize-compact-object-text");
    (kept.messages.find((m) => m.role === "tool") as Message).content = "Rainy";
    expect(check(kept.testCase, kept.messages, "mapping")).toEqual([
      expect.stringMatching(/\.content: expected "Sunny, 18 C", got "Rainy"$/),
    ]);

    const lost = vector("r4-sanitize-compact-object-text");
    lost.messages.pop();
    expect(check(lost.testCase, lost.messages, "mapping")).toEqual([
      expect.stringMatching(/^messages: expected \d+ messages \(system, user, assistant, tool/),
    ]);
  });

  it("keeps the template form exact: a string where a mapping belongs fails (R5)", () => {
    const { testCase, messages } = vector("r5-prepare-object-text-becomes-a-mapping");
    const call = messages.flatMap((m) => m.tool_calls ?? [])[0] as { function: { arguments: unknown } };
    call.function.arguments = '{"city": "Paris"}';
    expect(check(testCase, messages, "mapping")).toEqual([
      expect.stringMatching(/tool_calls\[0\]\.arguments: expected \{"city":"Paris"\}, got "/),
    ]);
  });

  it("takes text the reference wrote from a mapping by its JSON value, and kept text by its bytes (R5)", () => {
    const written = vector("r5-prepare-mapping-becomes-compact-text");
    const call = written.messages.flatMap((m) => m.tool_calls ?? [])[0] as {
      function: { arguments: unknown };
    };
    // Other bytes for the same JSON value (an indented dump), not the reference's compact text.
    call.function.arguments = JSON.stringify(JSON.parse(call.function.arguments as string), null, 1);
    expect(check(written.testCase, written.messages, "mapping")).toEqual([]);
    expect(check(written.testCase, written.messages, "full")).toHaveLength(1);
    call.function.arguments = JSON.parse(call.function.arguments as string);
    expect(check(written.testCase, written.messages, "mapping")).toEqual([
      expect.stringMatching(/arguments: expected text, got \{"city":"Paris"/),
    ]);
    const kept = vector("r5-prepare-object-text-keeps-its-bytes");
    const keptCall = kept.messages.flatMap((m) => m.tool_calls ?? [])[0] as {
      function: { arguments: unknown };
    };
    keptCall.function.arguments = JSON.stringify(JSON.parse(keptCall.function.arguments as string));
    expect(check(kept.testCase, kept.messages, "mapping")).toHaveLength(1);
  });

  it("is a total comparison of anything", () => {
    expect(
      compareMessagesAtMappingLevel({ form: "wire", input: null, expected: [1, "x"], actual: "nope" }),
    ).toEqual(['messages: expected [1,"x"], got "nope"']);
    expect(
      compareMessagesAtMappingLevel({ form: "wire", input: [], expected: [null, 3], actual: [null, 3] }),
    ).toEqual([]);
  });
});
