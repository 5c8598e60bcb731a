import { decodeArguments, encodeArguments } from "@toolcall/core";
import {
  createWorkMeter,
  type SyntaxParseResult,
  type SyntaxStreamEvent,
  type ToolCallSyntax,
  type WorkCounter,
} from "@toolcall/core/kit";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldEvents } from "../src/engine/define-syntax.js";
import { SYNTAXES } from "../src/registry.js";
import { toolName, wireCall } from "./arbitraries.js";
import { cutsFor, expectSplitInvariant, streamedWork } from "./helpers.js";

/** Each syntax's markers and the text that most often breaks parsers: fragments to build hostile text from. */
/** A JSON value with every object's keys in code-point order. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort())
    Object.defineProperty(out, key, {
      value: sortedKeys((value as Record<string, unknown>)[key]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

const FRAGMENTS: Record<string, string[]> = {
  hermes: ["<tool_call>", "</tool_call>", '{"name": "f", "arguments": ', "<think>", "</think>"],
  glm45: [
    "<tool_call>",
    "f\n",
    "<arg_key>",
    "k",
    "</arg_key>",
    "<arg_value>",
    "</arg_value>",
    "</tool_call>",
    "<think>",
    "</think>",
  ],
  "qwen3-coder": [
    "<tool_call>",
    "\n<function=f>",
    "<parameter=k>",
    "\nv\n",
    "</parameter>",
    "</function>",
    "</tool_call>",
    "<think>",
    "</think>",
  ],
  // Qwen3.6 and EXAONE 4: Qwen3-Coder's and Hermes' readers, with their own writers.
  qwen36: [
    "<tool_call>",
    "\n<function=f>",
    "<parameter=k>",
    "\nv\n",
    "</parameter>",
    "</function>",
    "</tool_call>",
    "<think>",
    "</think>",
  ],
  gigachat3: [
    "<|message_sep|>\n\nfunction call<|role_sep|>\n",
    "<|function_call|>",
    '{"name": "f", "arguments": ',
    "}",
    "</s>",
  ],
  functiongemma: [
    "<start_function_call>",
    "call:f{",
    "k:",
    "<escape>",
    "v",
    ",",
    "}",
    "<end_function_call>",
    "<start_function_response>",
  ],
  interns1: [
    "<|action_start|>",
    "<|plugin|>",
    '{"name": "f", "parameters": ',
    "}",
    "<|action_end|>",
    "<think>",
    "</think>",
  ],
  exaone4: ["<tool_call>", "</tool_call>", '{"name": "f", "arguments": ', "<think>", "</think>"],
  gemma4: [
    "<|tool_call>",
    "call:f{",
    "k:",
    '<|"|>',
    "v",
    ",",
    "}",
    "<tool_call|>",
    "<|channel>thought\n",
    "<channel|>",
  ],
  glm47: ["<tool_call>f", "<arg_key>k</arg_key>", "<arg_value>", "</arg_value>", "</tool_call>", "</think>"],
  "hy-v3": [
    "<tool_calls>",
    "<tool_call>",
    "f",
    "<tool_sep>",
    "\n",
    "<arg_key>",
    "k",
    "</arg_key>",
    "<arg_value>",
    "</arg_value>",
    "</tool_call>",
    "</tool_calls>",
    "<think>",
    "</think>",
  ],
  "hy-v4": [
    "<tool_calls:opensource>",
    "<tool_call:opensource>f",
    "<arg_key:opensource>k</arg_key:opensource>",
    "<arg_value:opensource>",
    "</arg_value:opensource>",
    "</tool_call:opensource>",
    "</tool_calls:opensource>",
    "<think:opensource>",
    "</think:opensource>",
  ],
  "kimi-k2": [
    "<|tool_calls_section_begin|>",
    "<|tool_call_begin|>",
    "functions.f:0",
    "<|tool_call_argument_begin|>",
    "<|tool_call_end|>",
    "<|tool_calls_section_end|>",
  ],
  "deepseek-v3": [
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁call▁begin｜>",
    "function<｜tool▁sep｜>f\n```json\n",
    "\n```",
    "<｜tool▁call▁end｜>",
    "<｜tool▁calls▁end｜>",
  ],
  "deepseek-v31": [
    "<｜tool▁calls▁begin｜>",
    "<｜tool▁call▁begin｜>f<｜tool▁sep｜>",
    "<｜tool▁call▁end｜>",
    "<｜tool▁calls▁end｜>",
    "</think>",
  ],
  "deepseek-v32": [
    "<｜DSML｜function_calls>",
    '<｜DSML｜invoke name="f">',
    '<｜DSML｜parameter name="k" string="false">',
    "</｜DSML｜parameter>",
    "</｜DSML｜invoke>",
    "</｜DSML｜function_calls>",
  ],
  "mistral-list": ["[TOOL_CALLS]", "[", '{"name": "f", "arguments": ', ", ", "]", "[THINK]", "[/THINK]"],
  "mistral-args": ["[TOOL_CALLS]", "f", "[ARGS]", "[CALL_ID]", "abcdefghi"],
  "mistral-call-id": ["[TOOL_CALLS]f[CALL_ID]abcdefghi[ARGS]", "[TOOL_CALLS]"],
  "llama3-json": [
    "<|python_tag|>",
    '{"name": "f", "parameters": ',
    ";",
    "f.call(",
    "x=1",
    ")",
    "<|python_start|>",
    "<|python_end|>",
  ],
  "llama-pythonic": ["[", "f(", "x=", "'s'", "True", ")", "]", ", ", "<|python_start|>", "<|python_end|>"],
  harmony: [
    "<|start|>assistant",
    "<|channel|>analysis",
    "<|channel|>commentary",
    " to=functions.f",
    "<|constrain|>json",
    "<|message|>",
    "<|end|>",
    "<|call|>",
  ],
  "harmony-stripped": ["analysis", "assistantcommentary", " to=functions.f", " json", "assistantfinal"],
  "minimax-m2": [
    "<minimax:tool_call>",
    '<invoke name="f">',
    "<invoke ",
    '<parameter name="k">',
    "</parameter>",
    "</invoke>",
    "</minimax:tool_call>",
    "<think>",
    "</think>",
  ],
  "seed-oss": [
    "<seed:tool_call>",
    "<function=f>",
    "<function=",
    "<parameter=k>",
    "</parameter>",
    "</function>",
    "</seed:tool_call>",
    "<seed:think>",
    "</seed:think>",
  ],
  granite: [
    "<|tool_call|>",
    "<tool_call>",
    "[",
    '{"name": "f", "arguments": ',
    "]",
    "<think>",
    "<response>",
    "</response>",
  ],
  "phi4-mini": ["functools", "functools[", '{"name": "f", "arguments": ', ", ", "]", "<think>"],
  "command-r7b": [
    "<|START_ACTION|>",
    '[{"tool_call_id": "0", "tool_name": "f", "parameters": ',
    "]",
    "<|END_ACTION|>",
    "<|START_THINKING|>",
    "<|END_THINKING|>",
    "<|START_RESPONSE|>",
    "<|END_RESPONSE|>",
  ],
  "command-a": [
    "<|START_ACTION|>",
    '[    {"tool_call_id": "0", "tool_name": "f", "parameters": ',
    ",    ",
    "]",
    "<|END_ACTION|>",
    "<|START_THINKING|>",
    "<|END_THINKING|>",
    "<|START_RESPONSE|>",
    "<co>",
    "</co: 0:[1]>",
  ],
  "functionary-v31": ["<function=f>", "<function=", "</function>", "<|python_tag|>", "<|eom_id|>"],
  "functionary-v32": [">>>", ">>>all\n", ">>>f\n", "all\n", "f\n", "python\n", ">>>python\n"],
  hunyuan: [
    "<tool_calls>",
    "[",
    '{"name": "f", "arguments": ',
    "]",
    "</tool_calls>",
    "<think>",
    "</think>",
    "<answer>",
    "</answer>",
    "助手：",
  ],
  jamba: ["<tool_calls>", "[", '{"name": "f", "arguments": ', "]", "</tool_calls>"],
  "nemotron-nano-v2": [
    "<TOOLCALL>",
    "[",
    '{"name": "f", "arguments": ',
    "]",
    "</TOOLCALL>",
    "<think>",
    "</think>",
  ],
  lfm2: ["<|tool_call_start|>", "[", "f(", "a=1", ")", "]", "<|tool_call_end|>", "<think>", "</think>"],
  "minimax-m3": [
    "]<]minimax[>[<tool_call>",
    "]<]minimax[>[<invoke",
    ' name="f">',
    "]<]minimax[>[<a>",
    "]<]minimax[>[</a>",
    "]<]minimax[>[</invoke>",
    "]<]minimax[>[</tool_call>",
    "<mm:think>",
    "</mm:think>",
  ],
  xlam: ["[", '{"name": "f", "arguments": ', "]", "```json\n", "```", "<think>", "</think>"],
  apertus: [
    "<|tools_prefix|>",
    "[",
    '{"f": ',
    "]",
    "<|tools_suffix|>",
    "<|inner_prefix|>",
    "<|inner_suffix|>",
  ],
  // MiMo and Step-3.5 share Qwen3-Coder's reader; LongCat Hermes' with its own tags.
  mimo: [
    "<tool_call>",
    "\n<function=f>",
    "<parameter=k>",
    "v\n",
    "</parameter>",
    "</function>",
    "</tool_call>",
    "<think>",
    "</think>",
  ],
  step3p5: [
    "<tool_call>",
    "\n<function=f>",
    "<parameter=k>",
    "\nv\n",
    "</parameter>",
    "</function>",
    "</tool_call>",
    "<think>",
    "</think>",
  ],
  longcat: [
    "<longcat_tool_call>",
    "</longcat_tool_call>",
    '{"name": "f", "arguments": ',
    "<longcat_think>",
    "</longcat_think>",
  ],
  olmo3: [
    "<function_calls>",
    "f(",
    "a=1",
    "b='x'",
    ", ",
    ")",
    "\n",
    "</function_calls>",
    "<think>",
    "</think>",
  ],
  step3: [
    "<｜tool_calls_begin｜>",
    "<｜tool_call_begin｜>",
    "<｜tool_call_begin>｜>",
    "function<｜tool_sep｜>",
    '<steptml:invoke name="f">',
    '<steptml:parameter name="k">',
    "</steptml:parameter>",
    "</steptml:invoke>",
    "<｜tool_call_end｜>",
    "<｜tool_calls_end｜>",
    "<think>",
    "</think>",
  ],
  "kimi-k3": [
    "<|open|>tools<|sep|>",
    '<|open|>call tool="f" index="1"<|sep|>',
    '<|open|>argument key="k" type="string"<|sep|>',
    '<|open|>argument key="n" type="number"<|sep|>',
    "v",
    "<|close|>argument<|sep|>",
    "<|close|>call<|sep|>",
    "<|close|>tools<|sep|>",
    "<|open|>think<|sep|>",
    "<|close|>think<|sep|>",
    "<|open|>response<|sep|>",
    "<|close|>response<|sep|>",
    "<|close|>message<|sep|>",
  ],
};
const COMMON = ["{", "}", '"', "\\", "\n", " ", "x", "<", "[", "😀"];

const syntaxes = Object.values(SYNTAXES) as ToolCallSyntax[];

/** What a parse gives, in a form `toEqual` compares (calls by name and argument text, issues by code). */
const shape = (r: SyntaxParseResult) => ({
  calls: r.toolCalls.map((c) => [c.function.name, c.function.arguments]),
  content: r.content,
  reasoning: r.reasoning,
  issues: r.issues.map((i) => i.code),
});

describe("every syntax: total, split-invariant, linear", () => {
  for (const syntax of syntaxes) {
    const pieces = fc.constantFrom(...(FRAGMENTS[syntax.id] ?? []), ...COMMON);

    it(`${syntax.id}: hostile text never throws, and every split gives the whole parse`, () => {
      fc.assert(
        fc.property(
          fc.array(pieces, { maxLength: 24 }),
          cutsFor(300),
          fc.boolean(),
          (parts, cuts, startInReasoning) => {
            expectSplitInvariant(syntax, parts.join(""), { startInReasoning }, [cuts]);
          },
        ),
        { numRuns: 200 },
      );
    });

    it(`${syntax.id}: the fast path agrees with the full parser on arbitrary text and on every cut of its markers`, () => {
      // Whole markers, and every prefix and suffix of each (a truncated marker, a call whose opening marker is
      // missing), among arbitrary code units (lone surrogates included) and the family's fragments.
      const markers = [...syntax.startMarkers, ...(FRAGMENTS[syntax.id] ?? [])];
      const cuts = markers.flatMap((marker) =>
        Array.from({ length: Math.max(0, marker.length - 1) }, (_, i) => [
          marker.slice(0, i + 1),
          marker.slice(i + 1),
        ]).flat(),
      );
      const piece = fc.oneof(
        fc.string({ unit: "binary", maxLength: 8 }),
        fc.constantFrom(...markers),
        fc.constantFrom(...cuts, ...COMMON),
      );
      fc.assert(
        fc.property(
          fc.constantFrom("", " ", "\n\t ", "\u3000", "x"),
          fc.array(piece, { maxLength: 12 }),
          (lead, parts) => {
            const text = lead + parts.join("");
            const stream = syntax.createStream();
            expect(shape(syntax.parse(text)), JSON.stringify(text)).toEqual(
              shape(foldEvents([...stream.push(text), ...stream.end()])),
            );
          },
        ),
        { numRuns: 300 },
      );
    });

    it(`${syntax.id}: parse with no options (the plain-text check first) agrees with the stream`, () => {
      const leads = fc.constantFrom(
        "",
        " ",
        "\n",
        "all\n",
        "python\n",
        "f\n{",
        "f\n x",
        "The f\n{",
        "a".repeat(257),
      );
      fc.assert(
        fc.property(leads, fc.array(pieces, { maxLength: 16 }), (lead, parts) => {
          const text = lead + parts.join("");
          const stream = syntax.createStream();
          expect(shape(syntax.parse(text)), JSON.stringify(text)).toEqual(
            shape(foldEvents([...stream.push(text), ...stream.end()])),
          );
        }),
        { numRuns: 200 },
      );
    });

    it(`${syntax.id}: what encode writes parses back to the same calls`, () => {
      const multiple = !["llama3-json"].includes(syntax.id);
      fc.assert(
        fc.property(
          fc.array(wireCall, { minLength: 1, maxLength: multiple ? 3 : 1 }),
          fc.array(toolName, { minLength: 3, maxLength: 3 }),
          (calls, names) => {
            // Kimi and Mistral write ids; give them ones their templates accept.
            const withIds = calls.map((call, i) => ({
              ...call,
              id:
                syntax.id === "kimi-k2"
                  ? `functions.${call.function.name}:${i}`
                  : `${names[i] ?? "x"}abcdefghi`.slice(0, 9).padEnd(9, "z"),
            }));
            const text = syntax.encode(withIds);
            const result = expectSplitInvariant(syntax, text);
            expect(result.issues.filter((i) => i.severity === "error")).toEqual([]);
            expect(result.toolCalls.map((c) => c.function.name)).toEqual(calls.map((c) => c.function.name));
            const canonical = (args: string) =>
              encodeArguments(decodeArguments(args, { lossless: true }).arguments, { style: "python" });
            // Text-valued syntaxes read values back as text without a schema: compare through the encoded JSON then.
            if (
              [
                "glm45",
                "glm47",
                "deepseek-v32",
                "llama-pythonic",
                "minimax-m2",
                "minimax-m3",
                "seed-oss",
                "qwen3-coder",
                "qwen36",
                "mimo",
                "step3p5",
                "step3",
                "hy-v3",
                "hy-v4",
              ].includes(syntax.id)
            )
              return;
            // Gemma 4's template writes keys in `dictsort` order: compare the mappings, whatever their key order.
            const compare =
              syntax.id === "gemma4" || syntax.id === "functiongemma"
                ? (args: string) => sortedKeys(JSON.parse(canonical(args)))
                : canonical;
            expect(result.toolCalls.map((c) => compare(c.function.arguments))).toEqual(
              calls.map((c) => compare(c.function.arguments)),
            );
          },
        ),
        { numRuns: 100 },
      );
    });

    it(`${syntax.id}: work is linear on hostile text, however it is split`, () => {
      const fragments = FRAGMENTS[syntax.id] ?? [];
      for (const fragment of [...fragments, "<", "{", "[", "x"]) {
        const text = fragment.repeat(Math.ceil(20_000 / fragment.length));
        for (const size of [1, 64, 4096]) {
          const work = streamedWork(syntax, text, size);
          expect(work, `${JSON.stringify(fragment)} in pieces of ${size}`).toBeLessThanOrEqual(
            12 * text.length + 1000,
          );
        }
      }
    });
  }
});

describe("core's work budget", () => {
  for (const syntax of syntaxes) {
    it(`${syntax.id}: past a caller's budget the rest is content, unread, and nothing is lost`, () => {
      const fragments = FRAGMENTS[syntax.id] ?? [];
      const text = `Hello. ${fragments.join("")}`.repeat(200);
      const meter = createWorkMeter({ limit: 2_000 });
      const work: WorkCounter = { scanned: 0 };
      const events: SyntaxStreamEvent[] = [];
      const stream = syntax.createStream({ meter, work });
      for (let i = 0; i < text.length; i += 64) events.push(...stream.push(text.slice(i, i + 64)));
      events.push(...stream.end());
      expect(meter.exhausted).toBe(true);
      const issues = events.flatMap((e) =>
        e.type === "issue" || e.type === "tool_call_abort" ? [e.issue] : [],
      );
      expect(issues.map((i) => i.code)).toContain("budget_exhausted");
      // The work the meter saw is the work the counter saw: one count, two readers.
      expect(work.scanned).toBe(meter.steps);
      // Parsing stopped near the limit: the rest passed through unread.
      expect(meter.steps).toBeLessThan(2_000 + 4 * 64 + 1000);
      const result = foldEvents(events);
      expect(result.content?.length ?? 0).toBeGreaterThan(text.length / 2);
      expect(result.content?.endsWith(text.slice(-64))).toBe(true);
    });

    it(`${syntax.id}: its own budget never runs out on the hostile fragments`, () => {
      for (const fragment of [...(FRAGMENTS[syntax.id] ?? []), "<", "{", "["]) {
        const text = fragment.repeat(Math.ceil(20_000 / fragment.length));
        const result = syntax.parse(text);
        expect(
          result.issues.map((i) => i.code),
          fragment,
        ).not.toContain("budget_exhausted");
      }
    });
  }
});

describe("content is passed on as soon as it cannot start a marker", () => {
  for (const syntax of syntaxes) {
    it(syntax.id, () => {
      const stream = syntax.createStream();
      const words = "Plain words, no markers here at all. ".repeat(3).trimEnd();
      const events = stream.push(words);
      const released = events.map((e) => (e.type === "content" ? e.text : "")).join("");
      // Only what could still be a separator or a marker's start is held: trailing whitespace, or a leading word
      // a stripped-token syntax reads as a channel name.
      expect(words.startsWith(released)).toBe(true);
      if (syntax.id !== "harmony-stripped") expect(released).toBe(words);
      stream.end();
    });
  }
});

describe("hostile options never make a parse throw", () => {
  const throwing = new Proxy([], {
    get() {
      throw new Error("no");
    },
  });
  for (const syntax of syntaxes) {
    it(syntax.id, () => {
      const text = syntax.encode([{ id: "functions.f:0", function: { name: "f", arguments: '{"a": 1}' } }]);
      expect(
        syntax.parse(text, { tools: throwing as unknown as unknown[] }).toolCalls.map((c) => c.function.name),
      ).toEqual(["f"]);
      const failing = syntax.parse(`${text}`, {
        createId: () => {
          throw new Error("no ids today");
        },
      });
      // A throwing id factory is an internal failure, not a crash: the text comes back as content.
      if (!["kimi-k2", "mistral-list", "mistral-call-id", "command-r7b", "command-a"].includes(syntax.id)) {
        expect(failing.issues.map((i) => i.code)).toContain("parser_error");
        expect(failing.toolCalls).toEqual([]);
        expect(failing.content).toBe(text);
      }
      expect(syntax.parse(undefined as unknown as string)).toEqual({
        toolCalls: [],
        content: null,
        reasoning: null,
        issues: [],
      });
    });
  }
});
