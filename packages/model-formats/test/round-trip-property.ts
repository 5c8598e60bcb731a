import { decodeArguments, encodeArguments } from "@toolcall/core";
import type { SyntaxParseResult, ToolCallSyntax } from "@toolcall/core/kit";
import { safeRenderChatTemplate } from "@toolcall/jinja";
import fc from "fast-check";
import { expect } from "vitest";
import { detectToolCallSyntax, roundTrip } from "../src/index.js";
import { jsonValue } from "./arbitraries.js";
import { expectSplitInvariant } from "./helpers.js";

/*
 * The round-trip property the template tests share: fast-check generates an assistant message with calls, the
 * template renders it, the rendered turn (what the model would have written) is parsed and rendered back, and the
 * bytes must be the same.
 */

export const TOOLS = [
  {
    type: "function",
    function: {
      name: "edit_file",
      description: "Edit a file.",
      parameters: {
        type: "object",
        properties: {
          path: { type: "string" },
          line: { type: "integer" },
          ratio: { type: "number" },
          force: { type: "boolean" },
          meta: { type: "object" },
          items: { type: "array" },
          note: { anyOf: [{ type: "string" }, { type: "null" }] },
        },
      },
    },
  },
  {
    type: "function",
    function: {
      name: "list_files",
      description: "List files.",
      parameters: { type: "object", properties: {} },
    },
  },
];
export const MESSAGES = [
  { role: "system", content: "You are a coding assistant." },
  { role: "user", content: "Fix the bug in main.py." },
];

/** Text a template keeps as it is: no markers, no surrounding whitespace (several templates strip it). */
const SAFE = [..."abcdefXYZ 0129_-/.:,;!?()=+*'\"\\é中😀\n\t"];
const safeText = fc
  .array(fc.constantFrom(...SAFE), { minLength: 1, maxLength: 24 })
  .map((a) => a.join("").trim())
  .filter((t) => t !== "");
/** Strings inside arguments: anything but the syntaxes' own closing tags. */
const argText = fc
  .array(fc.constantFrom(...SAFE, "<", ">", "{", "}", "[", "]"), { maxLength: 16 })
  .map((a) => a.join(""));

const editArgs = fc.record(
  {
    path: argText,
    line: fc.integer(),
    ratio: fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
    force: fc.boolean(),
    meta: fc.dictionary(fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/), jsonValue, { maxKeys: 3 }),
    items: fc.array(jsonValue, { maxLength: 3 }),
    note: argText,
  },
  { requiredKeys: [] },
);
const toolCall = fc.oneof(
  editArgs.map((args) => ({ name: "edit_file", args: args as Record<string, unknown> })),
  fc.constant({ name: "list_files", args: {} as Record<string, unknown> }),
);

export interface Case {
  template: string;
  /** The template's source, for a look-alike written in a test (default: read `template` from its folder). */
  source?: string;
  syntax: ToolCallSyntax;
  /** The template renders content beside calls. */
  content: boolean;
  /** The template renders the last turn's reasoning (and how: empty allowed or not). */
  reasoning: "none" | "any" | "non-empty";
  /** The most calls one message renders. */
  calls: number;
  ids?: (name: string, index: number) => string;
  variables?: Record<string, unknown>;
  /** Leave out the system message (a template that renders it only beside the last message). */
  noSystem?: boolean;
  /** The tools as the template reads them (default {@link TOOLS}; Apertus reads bare function objects). */
  tools?: unknown[];
  /** What the template drops or rewrites, so some outputs cannot round-trip: the generator stays clear of it. */
  exceptions?: string;
  /** How arguments are compared (default {@link canonical}; a template that sorts keys compares mappings). */
  compare?: (args: string) => unknown;
}

/** The tools without OpenAI's `{ type, function }` envelope, as Apertus's template reads them (`tool.name`). */
export const FLAT_TOOLS = TOOLS.map((tool) => tool.function);

/** The conversation before the assistant's turn. */
export const messagesFor = (testCase: Case) => (testCase.noSystem ? MESSAGES.slice(1) : MESSAGES);

/** What a renderer is asked (as `safeRenderChatTemplate` takes it) and what it answers. */
export interface RenderRequest {
  template: string;
  tools: unknown[];
  variables: Record<string, unknown>;
  messages: unknown[];
  addGenerationPrompt?: boolean;
}
export type Renderer = (request: RenderRequest) => { ok: true; text: string } | { ok: false };

/** The renders `modelOutput` asks for `message`, in order (the one with `content: ""` only when it is null). */
export function renderRequests(
  testCase: Case,
  message: Record<string, unknown>,
  template: string,
): RenderRequest[] {
  const options = {
    template,
    tools: testCase.tools ?? TOOLS,
    variables: { bos_token: "<s>", eos_token: "</s>", ...testCase.variables },
  };
  const messages = messagesFor(testCase);
  return [
    { ...options, messages },
    { ...options, messages, addGenerationPrompt: true },
    { ...options, messages: [...messages, message] },
    ...(message.content === null
      ? [{ ...options, messages: [...messages, { ...message, content: "" }] }]
      : []),
    { ...options, messages: [...messages, { role: "assistant", content: "\u0000E" }] },
  ];
}

/** The clock every render here reads (`strftime_now`): the reference renderer's fixed clock, as local fields. */
export const RENDER_NOW = new Date(2026, 0, 2, 3, 4, 5);

const renderAtFixedTime: Renderer = (request) => safeRenderChatTemplate({ ...request, now: RENDER_NOW });

/** What the model would have written for `message`: the template's turn, minus the generation prompt and end of turn. */
export function modelOutput(
  testCase: Case,
  message: Record<string, unknown>,
  template: string,
  render: Renderer = renderAtFixedTime,
): string | undefined {
  const options = {
    template,
    tools: testCase.tools ?? TOOLS,
    variables: { bos_token: "<s>", eos_token: "</s>", ...testCase.variables },
  };
  const messages = messagesFor(testCase);
  const base = render({ ...options, messages });
  const prompt = render({ ...options, messages, addGenerationPrompt: true });
  let full = render({ ...options, messages: [...messages, message] });
  // gpt-oss and Qwen3-0.6B raise on `content: null` beside calls: render with "" as callers do.
  if (!full.ok && message.content === null)
    full = render({ ...options, messages: [...messages, { ...message, content: "" }] });
  const plain = render({
    ...options,
    messages: [...messages, { role: "assistant", content: "\u0000E" }],
  });
  if (!base.ok || !prompt.ok || !full.ok || !plain.ok) return undefined;
  if (!full.text.startsWith(base.text) || !prompt.text.startsWith(base.text)) return undefined;
  const generationPrompt = prompt.text.slice(base.text.length);
  const endOfTurn = plain.text.slice(plain.text.indexOf("\u0000E") + 2);
  let turn = full.text.slice(base.text.length);
  if (!turn.startsWith(generationPrompt)) return undefined;
  turn = turn.slice(generationPrompt.length);
  return endOfTurn !== "" && turn.endsWith(endOfTurn) ? turn.slice(0, turn.length - endOfTurn.length) : turn;
}

export const canonical = (args: unknown) =>
  encodeArguments(decodeArguments(args, { lossless: true }).arguments, { style: "python" });

/** An assistant message with calls as `testCase`'s template renders them (content and reasoning where it keeps them). */
export function assistantMessage(testCase: Case) {
  return fc
    .record({
      content: testCase.content ? fc.option(safeText, { nil: null }) : fc.constant(null),
      reasoning:
        testCase.reasoning === "none"
          ? fc.constant(undefined)
          : testCase.reasoning === "any"
            ? fc.option(safeText, { nil: undefined })
            : safeText,
      calls: fc.array(toolCall, { minLength: 1, maxLength: testCase.calls }),
    })
    .map(({ content, reasoning, calls }) => {
      const toolCalls = calls.map((call, index) => ({
        id: testCase.ids ? testCase.ids(call.name, index) : `call_${index}`,
        type: "function",
        function: { name: call.name, arguments: JSON.stringify(call.args) },
      }));
      const message: Record<string, unknown> = { role: "assistant", content, tool_calls: toolCalls };
      if (reasoning !== undefined) {
        message.reasoning_content = reasoning;
        message.thinking = reasoning;
      }
      return { message, calls };
    });
}

/**
 * Asserts the round trip for `testCase` over 40 generated messages: the template is detected as the case's syntax,
 * and every output it renders parses and renders back byte for byte, with the same calls.
 */
export function expectRoundTrips(testCase: Case, template: string): void {
  const compare = testCase.compare ?? canonical;
  expect(detectToolCallSyntax(template).id).toBe(testCase.syntax.id);
  let checked = 0;
  fc.assert(
    fc.property(assistantMessage(testCase), ({ message, calls }) => {
      const output = modelOutput(testCase, message, template);
      if (output === undefined) return; // the template refuses this message (a precondition, counted below)
      checked++;
      const result = roundTrip({
        template,
        output,
        messages: messagesFor(testCase),
        tools: testCase.tools ?? TOOLS,
        syntax: testCase.syntax,
        variables: testCase.variables,
        now: RENDER_NOW,
      });
      expect(result.error, output).toBeUndefined();
      expect(
        { ok: result.ok, at: result.firstDifference, rendered: result.rendered },
        JSON.stringify(output),
      ).toMatchObject({ ok: true });
      expect(result.parsed?.toolCalls.map((c) => c.function.name)).toEqual(calls.map((c) => c.name));
      expect(result.parsed?.toolCalls.map((c) => compare(c.function.arguments))).toEqual(
        calls.map((c) => compare(JSON.stringify(c.args))),
      );
    }),
    { numRuns: 40 },
  );
  expect(checked, "most generated messages render").toBeGreaterThan(30);
}

/**
 * Asserts that `turn`, what a template wrote for `message` (read off a render by the family's test), holds the
 * syntax's encoding of the message's calls and reads at any cut to the same calls (names, and arguments by
 * {@link canonical}) with no issue (`info` ones allowed when asked). Returns the parse for the family's own checks of
 * content and reasoning.
 */
export function expectTurnReads(options: {
  syntax: ToolCallSyntax;
  turn: string;
  message: Record<string, unknown>;
  /** Issues of severity `info` (a repair the template's writing asks for) are allowed. */
  allowInfo?: boolean;
}): SyntaxParseResult {
  const { syntax, turn } = options;
  const calls = options.message.tool_calls as { function: { name: string; arguments: string } }[];
  expect(turn).toContain(syntax.encode(calls));
  const parsed = expectSplitInvariant(syntax, turn, { tools: TOOLS });
  expect(parsed.issues.filter((issue) => !options.allowInfo || issue.severity !== "info")).toEqual([]);
  expect(parsed.toolCalls.map((c) => c.function.name)).toEqual(calls.map((c) => c.function.name));
  expect(parsed.toolCalls.map((c) => canonical(c.function.arguments))).toEqual(
    calls.map((c) => canonical(c.function.arguments)),
  );
  return parsed;
}
