import { safeRenderChatTemplate } from "@toolcall/jinja";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { commandA, commandR7b, detectOutputSyntax, detectToolCallSyntax } from "../src/index.js";
import { cutsFor, expectSplitInvariant } from "./helpers.js";
import { familyTemplate } from "./reference-round-trip.js";
import { referenceRenders, referenceSamples } from "./round-trip-families-cases.js";
import { type Case, expectTurnReads, MESSAGES, type RenderRequest, TOOLS } from "./round-trip-property.js";

/*
 * Cohere Command A (CohereLabs/command-a-reasoning-08-2025) reads as Command R7B and writes its list without R7B's
 * newlines (docs/decisions.md, Command A). Its real template is read where it is (../shared/templates/families), never copied
 * into the repository, and rendered by @toolcall/jinja and by the reference renderer (transformers' Jinja2).
 */
const template = familyTemplate("CohereLabs-command-a-reasoning-08-2025");
const CASE: Case = {
  template: "CohereLabs-command-a-reasoning-08-2025",
  syntax: commandA,
  // The template never renders a call turn's content: Cohere's plan is `tool_plan`, rendered as thinking.
  content: false,
  reasoning: "non-empty",
  calls: 3,
};
const TURN = "<|START_OF_TURN_TOKEN|><|CHATBOT_TOKEN|>";
const END = "<|END_OF_TURN_TOKEN|>";

type Call = { id: string; type: string; function: { name: string; arguments: string } };

/** The request for a conversation ending in `message`; the template reads the arguments as a mapping. */
function request(message: Record<string, unknown>, variables: Record<string, unknown> = {}): RenderRequest {
  const calls = (message.tool_calls as Call[] | undefined)?.map((call) => ({
    ...call,
    function: { ...call.function, arguments: JSON.parse(call.function.arguments) },
  }));
  return {
    template,
    tools: TOOLS,
    variables: { bos_token: "<BOS_TOKEN>", ...variables },
    messages: [...MESSAGES, calls ? { ...message, tool_calls: calls } : message],
  };
}

function render(input: RenderRequest): string | undefined {
  const rendered = safeRenderChatTemplate({
    template: input.template,
    tools: input.tools,
    messages: input.messages as never,
    variables: input.variables,
  });
  return rendered.ok ? rendered.text : undefined;
}

/** The last assistant turn of a rendered conversation, without its turn markers. */
function lastTurn(text: string): string {
  const start = text.lastIndexOf(TURN) + TURN.length;
  return text.slice(start, text.indexOf(END, start));
}

describe("Command A (command-a-reasoning-08-2025) on its real template", () => {
  it("is detected by rendering (the probe turn carries a tool_plan, which the template requires)", () => {
    expect(detectToolCallSyntax(template)).toMatchObject({
      id: "command-a",
      method: "render",
      startInReasoning: false,
      parallelCalls: true,
    });
  });

  it("renders as the reference renderer does, and each call turn parses to its calls and its plan", () => {
    // Arguments both renderers write alike (the float forms are @toolcall/jinja's parity tests' subject).
    const samples = referenceSamples(CASE);
    const requests = samples.map((message) => request(message));
    const reference = referenceRenders(requests);
    samples.forEach((message, index) => {
      const input = requests[index] as RenderRequest;
      const expected = reference(input);
      expect(expected.ok).toBe(true);
      const text = expected.ok ? expected.text : "";
      expect(render(input)).toBe(text);
      // The template numbers the calls itself; the encoder writes the same numbers for ids that are not numbers.
      const parsed = expectTurnReads({ syntax: commandA, turn: lastTurn(text), message });
      expect(parsed.content).toBeNull();
      expect(parsed.reasoning).toBe(message.thinking);
      expect(parsed.toolCalls.map((c) => c.id)).toEqual(parsed.toolCalls.map((_, k) => String(k)));
    });
  });

  it("a tool_plan is the call turn's reasoning; without one the template raises unless reasoning is off, when it writes the encoder's text alone", () => {
    const calls: Call[] = [
      { id: "call_a", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } },
    ];
    const planned = request({ role: "assistant", content: "", tool_plan: "Look it up.", tool_calls: calls });
    const bare = request({ role: "assistant", content: "", tool_calls: calls });
    const off = request({ role: "assistant", content: "", tool_calls: calls }, { reasoning: false });
    const reference = referenceRenders([planned, bare, off]);
    const withPlan = reference(planned);
    expect(withPlan.ok && lastTurn(withPlan.text)).toBe(
      `<|START_THINKING|>Look it up.<|END_THINKING|>${commandA.encode(calls)}`,
    );
    expect(commandA.parse(withPlan.ok ? lastTurn(withPlan.text) : "").reasoning).toBe("Look it up.");
    expect(reference(bare).ok).toBe(false);
    expect(render(bare)).toBeUndefined();
    const skipped = reference(off);
    expect(skipped.ok && lastTurn(skipped.text)).toBe(commandA.encode(calls));
    expect(render(off)).toBe(skipped.ok ? skipped.text : "");
  });

  it("an answer turn: thinking, then the response, split at any cut", () => {
    const answer = request({
      role: "assistant",
      thinking: "Simple.",
      content: "Paris <co>is</co: 0:[1]> sunny.",
    });
    const reference = referenceRenders([answer]);
    const rendered = reference(answer);
    const turn = rendered.ok ? lastTurn(rendered.text) : "";
    expect(turn).toBe(
      "<|START_THINKING|>Simple.<|END_THINKING|><|START_RESPONSE|>Paris <co>is</co: 0:[1]> sunny.<|END_RESPONSE|>",
    );
    fc.assert(
      fc.property(cutsFor(turn.length), (cuts) => {
        const parsed = expectSplitInvariant(commandA, turn, {}, [cuts]);
        expect(parsed).toMatchObject({
          toolCalls: [],
          reasoning: "Simple.",
          content: "Paris <co>is</co: 0:[1]> sunny.",
          issues: [],
        });
      }),
      { numRuns: 20, seed: 30 },
    );
  });

  it("its output alone is named by the list's layout, for certain; both families read the same calls", () => {
    const calls: Call[] = [
      { id: "0", type: "function", function: { name: "get_weather", arguments: '{"city": "Paris"}' } },
      { id: "1", type: "function", function: { name: "get_time", arguments: '{"tz": "CET"}' } },
    ];
    for (const syntax of [commandA, commandR7b]) {
      const output = `<|START_THINKING|>Check.<|END_THINKING|>${syntax.encode(calls)}`;
      expect(detectOutputSyntax(output)).toEqual({
        status: "detected",
        id: syntax.id,
        confidence: "certain",
        candidates: ["command-a", "command-r7b"],
      });
    }
  });
});
