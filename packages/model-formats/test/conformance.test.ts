import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { loadVectors } from "@toolcall/conformance";
import { describeConformance } from "@toolcall/conformance/vitest";
import { safeRenderChatTemplate } from "@toolcall/jinja";
import { describe, expect, it } from "vitest";
import { modelFormatsImplementation } from "./conformance-implementation.js";

// Every R10 vector through this package: parsed whole, streamed in the runner's splits, encoded.
describeConformance({ implementation: modelFormatsImplementation, rules: ["R10"] });
// And at the mapping level, as a stack that re-serialises arguments would be scored (they compare by JSON value).
describeConformance({
  implementation: modelFormatsImplementation,
  rules: ["R10"],
  level: "mapping",
  title: "conformance at the mapping level: @toolcall/model-formats",
});

const templates = resolve(import.meta.dirname, "../../../../shared/templates");

describe("R10 encode vectors are what the templates render", () => {
  const cases = loadVectors({ rules: ["R10"], operations: ["encodeToolCalls"] });
  for (const testCase of cases) {
    const template = /^\.\.\/shared\/templates\/(.+\.jinja), rendered$/.exec(testCase.source ?? "")?.[1];
    if (template === undefined) continue;
    it(testCase.id, () => {
      const calls = testCase.input as Array<{ id?: string; name: string; arguments: string }>;
      const message = {
        role: "assistant",
        content: null,
        tool_calls: calls.map((c, i) => ({
          id: c.id ?? `call${i}abcd`.slice(0, 9),
          type: "function",
          function: { name: c.name, arguments: c.arguments },
        })),
      };
      const options = {
        template: readFileSync(join(templates, template), "utf8"),
        variables: { bos_token: "<s>", eos_token: "</s>" },
      };
      const user = { role: "user", content: "q" };
      let rendered = safeRenderChatTemplate({ ...options, messages: [user, message] });
      if (!rendered.ok)
        rendered = safeRenderChatTemplate({ ...options, messages: [user, { ...message, content: "" }] });
      expect(rendered.ok && rendered.text).toContain(testCase.expected.text as string);
    });
  }
});
