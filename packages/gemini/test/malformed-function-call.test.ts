import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readMalformedFunctionCall } from "../src/index.js";

// Shaped as the generateContent candidates quoted in public reports: google/adk-go#492 (`Malformed function call:
// print(default_api.…`), googleapis/python-aiplatform#4472 (`print(157.3 * 1.04)`, no function at all).
const TOOLS = [
  {
    functionDeclarations: [
      {
        name: "get_weather",
        parameters: { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } } },
      },
    ],
  },
];
const candidate = (finishMessage: string) => ({
  content: { role: "model", parts: [] as unknown[] },
  finishReason: "MALFORMED_FUNCTION_CALL",
  index: 0,
  finishMessage,
});

describe("readMalformedFunctionCall", () => {
  it("turns the finish message's Python call into a functionCall part, recorded", () => {
    const result = readMalformedFunctionCall({
      candidate: candidate('Malformed function call: print(default_api.get_weather(city="Paris", days=2))'),
      tools: TOOLS,
    });
    expect(result.status).toBe("read");
    expect(result.candidate).toEqual({
      content: {
        role: "model",
        parts: [{ functionCall: { name: "get_weather", args: { city: "Paris", days: 2 } } }],
      },
      finishReason: "STOP",
      index: 0,
    });
    expect(result.issues.map((issue) => [issue.code, issue.severity])).toEqual([
      ["malformed_call_read", "info"],
    ]);
  });

  it("leaves a call of a tool that was not advertised, with a precise code", () => {
    const original = candidate("Malformed function call: print(default_api.delete_all(confirm=True))");
    const result = readMalformedFunctionCall({ candidate: original, tools: TOOLS });
    expect(result.candidate).toBe(original);
    expect(result.issues.map((issue) => issue.code)).toEqual(["malformed_call_unknown_tool"]);
  });

  it.each([
    "Malformed function call: print(157.3 * 1.04)",
    "Malformed function call: print(default_api.get_weather(city='Oslo'",
    "Malformed function call: print(default_api.get_weather(days=(7 / 12)))",
    "Malformed function call: print(default_api.a(x=1), default_api.b(y=2))",
    "Something else",
  ])("leaves %s as it is (malformed_call_unreadable)", (message) => {
    const original = candidate(message);
    const result = readMalformedFunctionCall({ candidate: original, tools: TOOLS });
    expect(result.status).toBe("unreadable");
    expect(result.candidate).toBe(original);
    expect(result.issues.map((issue) => issue.code)).toEqual(["malformed_call_unreadable"]);
  });

  it("passes any other candidate through untouched", () => {
    const stop = { content: { role: "model", parts: [{ text: "hi" }] }, finishReason: "STOP" };
    expect(readMalformedFunctionCall({ candidate: stop })).toEqual({
      status: "unchanged",
      candidate: stop,
      issues: [],
    });
  });

  it("does work linear in the message", () => {
    const work = (count: number) => {
      const counter = { scanned: 0 };
      const message = `Malformed function call: print(default_api.get_weather(city="${"P".repeat(count)}"))`;
      readMalformedFunctionCall({ candidate: candidate(message), tools: TOOLS, work: counter });
      return counter.scanned;
    };
    const small = work(10_000);
    expect(small).toBeGreaterThan(0);
    expect(work(40_000) / small).toBeLessThan(4.5);
  });

  it("is total: any candidate and any message give a status, never a throw", () => {
    fc.assert(
      fc.property(fc.anything(), fc.string(), (anything, tail) => {
        for (const input of [anything, candidate(`Malformed function call: print(default_api.${tail}`)]) {
          const result = readMalformedFunctionCall({ candidate: input, tools: TOOLS });
          expect(["read", "unchanged", "unreadable"]).toContain(result.status);
        }
      }),
    );
  });
});
