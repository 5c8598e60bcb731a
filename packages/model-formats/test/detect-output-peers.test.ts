import { readFileSync } from "node:fs";
import type { SyntaxParseResult } from "@toolcall/core/kit";
import { describe, expect, it } from "vitest";
import { detectOutputSyntax } from "../src/detect-output-syntax.js";
import { SYNTAXES } from "../src/registry.js";
import { loadVllmCases, type VllmCase } from "./peers-vllm-cases.js";

/** Every peer case (vLLM's, SGLang's and llama.cpp's): its family is known, so detection from its text alone can be checked. */
function peerCases(): VllmCase[] {
  const others = [
    "sglang-function-call-parser-cases.json",
    "sglang-detector-cases.json",
    "llama-cpp-chat-cases.json",
  ].flatMap(
    (file) =>
      (
        JSON.parse(readFileSync(new URL(`./__fixtures__/peers/${file}`, import.meta.url), "utf8")) as {
          cases: VllmCase[];
        }
      ).cases,
  );
  return [...loadVllmCases(), ...others];
}

const ids = ({ index }: { index: number }) => `call_${index}`;

function reading(id: string, c: VllmCase): string {
  const result = SYNTAXES[id]?.parse(c.text, { tools: c.tools ?? null, createId: ids }) as SyntaxParseResult;
  return JSON.stringify([
    result.toolCalls.map((call) => [call.function.name, call.function.arguments]),
    result.content,
    result.reasoning,
  ]);
}

describe("detectOutputSyntax on the peers' model outputs", () => {
  it("names the case's family, or a syntax that reads the text exactly alike, or declines: never another", () => {
    const named: Record<"family" | "alike" | "declined", number> = { family: 0, alike: 0, declined: 0 };
    const alike: string[] = [];
    for (const c of peerCases()) {
      const found = detectOutputSyntax(c.text, { tools: c.tools ?? null });
      if (found.status === "declined") named.declined++;
      else if (found.id === c.syntax) named.family++;
      else {
        // GLM-4.5 and GLM-4.7 share one reader; a text both read to the same message may be named by either.
        expect(reading(found.id, c), `${c.id}: named ${found.id}, the case is ${c.syntax}`).toBe(
          reading(c.syntax, c),
        );
        named.alike++;
        alike.push(`${c.syntax}->${found.id}`);
      }
    }
    // MiMo and Step-3.5 write Qwen3-Coder's `<tool_call><function=…>` exactly: from output alone it is named, and it
    // reads those texts alike.
    expect(new Set(alike)).toEqual(new Set(["glm47->glm45", "mimo->qwen3-coder", "step3p5->qwen3-coder"]));
    // At the time of writing: 200 named right, 2 alike, 155 declined of 357; most declines are texts with no call.
    expect(named.family).toBeGreaterThanOrEqual(185);
  });

  it("declines a list in a wrapper that its reader does not close (xLAM's list in Hermes' tags)", () => {
    const list = '[{"name": "get_weather", "arguments": {"city": "Dallas"}}]';
    expect(detectOutputSyntax(`Checking.<tool_call>${list}</tool_call>`)).toMatchObject({
      status: "declined",
      reason: "ambiguous",
      candidates: ["granite"],
    });
    // Granite 3.1's own form, with no closing tag, is still named.
    expect(detectOutputSyntax(`<tool_call> ${list}`)).toMatchObject({ status: "detected", id: "granite" });
  });
});
