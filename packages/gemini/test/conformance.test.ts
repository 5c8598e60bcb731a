import { describeConformance } from "@toolcall/conformance/vitest";
import { readMalformedFunctionCall } from "../src/index.js";

// The R10 vectors of Gemini's call left in a MALFORMED_FUNCTION_CALL finishMessage, at the full level and at the
// mapping level (the candidate alone, as any stack that repairs Gemini responses would be scored).
const implementation = {
  name: "@toolcall/gemini",
  operations: ["readMalformedFunctionCall" as const],
  readMalformedFunctionCall: (candidate: unknown, options: Record<string, unknown>) =>
    readMalformedFunctionCall({ candidate, tools: (options.tools as unknown[] | undefined) ?? null }),
};
describeConformance({ implementation, rules: ["R10"], operations: ["readMalformedFunctionCall"] });
describeConformance({
  implementation,
  rules: ["R10"],
  operations: ["readMalformedFunctionCall"],
  level: "mapping",
  title: "conformance at the mapping level: @toolcall/gemini",
});
