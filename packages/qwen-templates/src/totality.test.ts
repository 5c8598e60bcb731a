import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { anyValue, build } from "../../core/test/hostile-values.js";
import { fuzzRuns } from "../../core/test/linear-work.js";
import { convertParameterValue, parameterType } from "./convert-parameter-value.js";
import { qwen3Coder } from "./qwen3-coder-syntax.js";

// Totality for any JavaScript value: the parser, the stream and the typing return their documented results for
// throwing getters, revoked proxies, huge sparse arrays, cycles and exotic objects, as text, tools, schemas or options.

const RUNS = fuzzRuns(300);

/** Model text that holds calls, so hostile tools and schemas are really read. */
const callText = fc.constantFrom(
  "<tool_call>\n<function=f>\n<parameter=a>\n1\n</parameter>\n<parameter=b>\n{'x': 1e400}\n</parameter>\n</function>\n</tool_call>",
  '<tool_call>{"name": "f", "arguments": {"a": 1}}</tool_call>',
  "<function=f><parameter=a>x</function>",
);

describe("every public function of qwen-templates is total over hostile values", () => {
  it("the parser and the stream, with hostile text, tools and options", () => {
    fc.assert(
      fc.property(
        fc.oneof(anyValue, callText),
        anyValue,
        anyValue,
        fc.array(fc.oneof(anyValue, callText), { maxLength: 3 }),
        (textRecipe, toolsRecipe, optionsRecipe, deltas) => {
          const text = build(textRecipe);
          const tools = build(toolsRecipe);
          const parameters = { type: "object", properties: { a: tools, b: tools } };
          for (const options of [
            { tools },
            build(optionsRecipe),
            { tools: [{ name: "f", parameters: tools }] },
            { tools: [{ name: "f", parameters }] },
          ]) {
            const parsed = qwen3Coder.parse(text as string, options as never);
            expect(Array.isArray(parsed.toolCalls) && Array.isArray(parsed.issues)).toBe(true);
            for (const call of parsed.toolCalls)
              expect(() => JSON.parse(call.function.arguments)).not.toThrow();
            const stream = qwen3Coder.createStream(options as never);
            for (const delta of deltas) expect(Array.isArray(stream.push(build(delta) as string))).toBe(true);
            expect(Array.isArray(stream.end())).toBe(true);
          }
        },
      ),
      RUNS,
    );
  });

  it("the typing of one value", () => {
    fc.assert(
      fc.property(anyValue, anyValue, (textRecipe, schemaRecipe) => {
        const schema = build(schemaRecipe);
        expect(typeof convertParameterValue({ text: build(textRecipe) as string, schema }).success).toBe(
          "boolean",
        );
        expect(typeof convertParameterValue(build(schemaRecipe) as never).success).toBe("boolean");
        expect(typeof parameterType(schema).nullable).toBe("boolean");
      }),
      RUNS,
    );
  });
});
