import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { probeChatTemplate, safeRenderChatTemplate } from "@toolcall/jinja";
import { expect, it } from "vitest";
import { roundTrip } from "../src/index.js";
import { referenceRenders, referenceSamples } from "./round-trip-families-cases.js";
import {
  type Case,
  canonical,
  expectRoundTrips,
  messagesFor,
  modelOutput,
  RENDER_NOW,
  renderRequests,
  TOOLS,
} from "./round-trip-property.js";

/** The second batch of the shared corpus: real templates, read where they are, never copied into the repository. */
const FAMILY_TEMPLATES = resolve(import.meta.dirname, "../../../../shared/templates/families");

/** The text of `NAME.jinja` in ../shared/templates/families. */
export function familyTemplate(name: string): string {
  return readFileSync(join(FAMILY_TEMPLATES, `${name}.jinja`), "utf8");
}

/**
 * The round-trip tests every family runs on its template (call inside the family's `describe`): over 40 messages
 * @toolcall/jinja renders, and over the reference renderer's turns (at least six compared). The template is the
 * case's `source` (a look-alike written in the test) or its real one in ../shared/templates/families.
 */
export function itRoundTripsOnTemplate(testCase: Case): void {
  const template = testCase.source ?? familyTemplate(testCase.template);
  it("round-trips what @toolcall/jinja renders", () => {
    expectRoundTrips(testCase, template);
  });
  it("round-trips what the reference renderer (transformers' Jinja2) renders, byte for byte", () => {
    expect(expectReferenceRoundTrip(testCase, template)).toBeGreaterThanOrEqual(6);
  });
}

/**
 * The round trip against the reference renderer (../shared/parity/hf_render.py, transformers' Jinja2) for one
 * family's template: the prompts @toolcall/jinja writes are the reference's byte for byte (most of them render), and
 * every call turn the reference writes is @toolcall/jinja's too, parses to its calls and renders back byte for byte.
 * Returns how many turns were compared.
 */
export function expectReferenceRoundTrip(
  testCase: Case,
  template: string,
  /** Compare the prompts only (a template that renders no calls: no turn to round-trip). */
  options: { promptsOnly?: boolean } = {},
): number {
  const compare = testCase.compare ?? canonical;
  const mapping = probeChatTemplate(template).argumentsForm === "mapping";
  const samples = referenceSamples(testCase);
  // What transformers would be handed: arguments in the form the template reads (the probe's choice).
  const handed = (message: Record<string, unknown>) => ({
    ...message,
    tool_calls: (message.tool_calls as { function: { name: string; arguments: string } }[]).map((call) => ({
      ...call,
      function: {
        ...call.function,
        arguments: mapping ? JSON.parse(call.function.arguments) : call.function.arguments,
      },
    })),
  });
  const requests = samples.flatMap((message) => renderRequests(testCase, handed(message), template));
  const reference = referenceRenders(requests);
  // Whole prompts first (system prompt with the tools, the conversation, the turn): byte for byte.
  let prompts = 0;
  for (const request of requests) {
    const expected = reference(request);
    const actual = safeRenderChatTemplate({ ...request, now: RENDER_NOW });
    expect(actual.ok, JSON.stringify(request.messages.at(-1))).toBe(expected.ok);
    if (actual.ok && expected.ok) {
      expect(actual.text).toBe(expected.text);
      prompts++;
    }
  }
  expect(prompts, "most prompts render").toBeGreaterThan(requests.length / 2);
  if (options.promptsOnly) return 0;
  let compared = 0;
  for (const message of samples) {
    const expected = modelOutput(testCase, handed(message), template, reference);
    if (expected === undefined) continue;
    compared++;
    // @toolcall/jinja at the same clock (the default renderer of `modelOutput`).
    expect(modelOutput(testCase, message, template), expected).toBe(expected);
    const result = roundTrip({
      template,
      output: expected,
      messages: messagesFor(testCase),
      tools: testCase.tools ?? TOOLS,
      syntax: testCase.syntax,
      variables: testCase.variables,
      now: RENDER_NOW,
    });
    expect({ ok: result.ok, at: result.firstDifference, error: result.error }, expected).toMatchObject({
      ok: true,
    });
    const calls = message.tool_calls as { function: { name: string; arguments: string } }[];
    const wanted = testCase.calls === 1 ? calls.slice(0, 1) : calls;
    expect(result.parsed?.toolCalls.map((c) => c.function.name)).toEqual(wanted.map((c) => c.function.name));
    expect(result.parsed?.toolCalls.map((c) => compare(c.function.arguments))).toEqual(
      wanted.map((c) => compare(c.function.arguments)),
    );
  }
  return compared;
}
