import { loadVectors } from "@toolcall/conformance";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { detectOutputSyntax } from "../src/detect-output-syntax.js";
import { SYNTAX_DESCRIPTORS, SYNTAXES } from "../src/registry.js";

const ids = ({ index }: { index: number }) => `call_${index}`;

describe("detectOutputSyntax: the syntax of a model's text, without a template", () => {
  it("names a syntax only where it reads the calls the R10 vectors expect, and names most", () => {
    let named = 0;
    let total = 0;
    for (const testCase of loadVectors({ rules: ["R10"], operations: ["parseToolCalls"] })) {
      const options = testCase.options as { syntax: string; tools?: unknown[]; startInReasoning?: boolean };
      const expected = testCase.expected as {
        toolCalls: { name: string; arguments: string }[];
        issues: string[];
      };
      if (options.startInReasoning || !Object.hasOwn(SYNTAXES, options.syntax)) continue;
      if (expected.toolCalls.length === 0 || expected.issues.length > 0) continue;
      total++;
      const input = testCase.input as string;
      const found = detectOutputSyntax(input, { tools: options.tools ?? null });
      if (found.status === "declined") continue;
      named++;
      // A family that only writes differently (MiMo, Step-3.5, EXAONE 4) is named by its reader, by design: its
      // vectors may hold what the two read apart (a MiMo value with newlines around it).
      const reader = SYNTAX_DESCRIPTORS.find((descriptor) => descriptor.id === options.syntax)?.readsAs;
      if (reader !== undefined && found.id === reader) continue;
      const read = SYNTAXES[found.id]?.parse(input, { tools: options.tools ?? null, createId: ids });
      expect(
        read?.toolCalls.map((call) => ({ name: call.function.name, arguments: call.function.arguments })),
        testCase.id,
      ).toEqual(expected.toolCalls.map((call) => ({ name: call.name, arguments: call.arguments })));
    }
    expect(total).toBeGreaterThan(100);
    expect(named / total).toBeGreaterThan(0.85);
  });

  it("is sure of each family's own writing", () => {
    const cases: [string, string][] = [
      ["hermes", '<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>'],
      ["glm47", "<tool_call>get_weather<arg_key>city</arg_key><arg_value>Paris</arg_value></tool_call>"],
      [
        "qwen3-coder",
        "<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>",
      ],
      [
        "kimi-k2",
        '<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Paris"}<|tool_call_end|><|tool_calls_section_end|>',
      ],
      [
        "deepseek-v31",
        '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>get_weather<｜tool▁sep｜>{"city": "Paris"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
      ],
    ];
    for (const [id, text] of cases)
      expect(detectOutputSyntax(`I will check.\n\n${text}`), id).toMatchObject({ status: "detected", id });
  });

  it("declines text with no call, and text that two syntaxes read", () => {
    expect(detectOutputSyntax("The weather in Paris is mild.")).toEqual({
      status: "declined",
      reason: "no_calls",
      candidates: [],
    });
    // Mistral's list with a space after [TOOL_CALLS]: each of its three syntaxes reads it alike, and none writes it.
    const list = detectOutputSyntax('[TOOL_CALLS] [{"name": "get_weather", "arguments": {"city": "Paris"}}]');
    expect(list).toEqual({
      status: "declined",
      reason: "ambiguous",
      candidates: ["mistral-call-id", "mistral-args", "mistral-list"],
    });
    // A bare <function=…> (Qwen3-Coder and Seed-OSS both read it, each with a warning): no syntax is named.
    expect(
      detectOutputSyntax("<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n</function>").status,
    ).toBe("declined");
  });

  it("is total on any text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const found = detectOutputSyntax(text);
        expect(["detected", "declined"]).toContain(found.status);
      }),
      { numRuns: 200 },
    );
    expect(detectOutputSyntax(undefined as unknown as string).status).toBe("declined");
  });
});
