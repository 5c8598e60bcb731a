import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import fc from "fast-check";
import {
  apertus,
  functionaryV31,
  functionaryV32,
  granite,
  hermes,
  hunyuan,
  seedOss,
  xlam,
} from "../src/index.js";
import {
  APERTUS_LOOK_ALIKE,
  FUNCTIONARY_V31_LOOK_ALIKE,
  FUNCTIONARY_V32_LOOK_ALIKE,
  GRANITE_33_LOOK_ALIKE,
  GRANITE_40_LOOK_ALIKE,
  HUNYUAN_LOOK_ALIKE,
  SEED_OSS_LOOK_ALIKE,
  XLAM_LOOK_ALIKE,
} from "./look-alike-templates.js";
import {
  assistantMessage,
  type Case,
  FLAT_TOOLS,
  type Renderer,
  type RenderRequest,
} from "./round-trip-property.js";

/*
 * The families whose real templates live in the second batch of the shared corpus, ../shared/templates/families (read
 * where they are, never copied into the repository), or in the directory $TOOLCALL_TEMPLATES names; a test whose
 * template is in neither is skipped, saying where the template is published. Each family has a look-alike
 * (look-alike-templates.ts) its tests run on everywhere, held to the real template by round-trip-families-guard.
 */

const templateDirs = [
  ...(process.env.TOOLCALL_TEMPLATES ? [resolve(process.env.TOOLCALL_TEMPLATES)] : []),
  resolve(import.meta.dirname, "../../../../shared/templates/families"),
];
const LLAMA_CPP = "ggml-org/llama.cpp models/templates";
const VLLM = "vllm-project/vllm examples";

/** A family: its real template's name, where it is published, its look-alike, and what the tests expect of it. */
export interface Family {
  /** The real template's file name in ../shared/templates/families, without `.jinja`. */
  template: string;
  /** Where the real template is published (the model's own repository and licence in the package README). */
  published: string;
  lookAlike: string;
  /** The round trip's case (for Granite 3.3, which renders no calls, only what the generator writes). */
  case: Omit<Case, "template" | "source">;
  /** The round trip holds (Granite 3.3 drops the calls: no round trip is possible). */
  roundTrips: boolean;
  /** What `detectToolCallSyntax` finds in the template, and how. */
  detected: { id: string; method: "render" | "signature" };
}

const calls = { content: true, reasoning: "none", calls: 3 } as const;

export const FAMILIES: Family[] = [
  {
    template: "ByteDance-Seed-Seed-OSS-36B-Instruct",
    published: LLAMA_CPP,
    lookAlike: SEED_OSS_LOOK_ALIKE,
    case: { ...calls, syntax: seedOss, reasoning: "non-empty", exceptions: "drops blank reasoning" },
    roundTrips: true,
    detected: { id: seedOss.id, method: "render" },
  },
  {
    template: "meetkai-functionary-medium-v3.1",
    published: LLAMA_CPP,
    lookAlike: FUNCTIONARY_V31_LOOK_ALIKE,
    case: { ...calls, syntax: functionaryV31, exceptions: "drops reasoning" },
    roundTrips: true,
    detected: { id: functionaryV31.id, method: "render" },
  },
  {
    template: "meetkai-functionary-medium-v3.2",
    published: LLAMA_CPP,
    lookAlike: FUNCTIONARY_V32_LOOK_ALIKE,
    case: { ...calls, syntax: functionaryV32, exceptions: "drops reasoning" },
    roundTrips: true,
    detected: { id: functionaryV32.id, method: "render" },
  },
  {
    template: "swiss-ai-Apertus-8B-Instruct-2509",
    published: LLAMA_CPP,
    lookAlike: APERTUS_LOOK_ALIKE,
    case: {
      ...calls,
      syntax: apertus,
      tools: FLAT_TOOLS,
      exceptions: "drops reasoning; reads bare function objects as tools; arguments as the wire text",
    },
    roundTrips: true,
    detected: { id: apertus.id, method: "render" },
  },
  {
    template: "tencent-Hunyuan-A13B-Instruct",
    published: VLLM,
    lookAlike: HUNYUAN_LOOK_ALIKE,
    case: { ...calls, syntax: hunyuan, exceptions: "drops reasoning" },
    roundTrips: true,
    detected: { id: hunyuan.id, method: "render" },
  },
  {
    template: "Salesforce-xLAM-2.vllm-tool_chat_template_xlam_qwen",
    published: VLLM,
    lookAlike: XLAM_LOOK_ALIKE,
    case: { ...calls, syntax: xlam, content: false, exceptions: "drops content beside calls, and reasoning" },
    roundTrips: true,
    detected: { id: xlam.id, method: "render" },
  },
  {
    // Granite 4.0 writes Hermes' <tool_call>.
    template: "ibm-granite-granite-4.0-h-small",
    published: LLAMA_CPP,
    lookAlike: GRANITE_40_LOOK_ALIKE,
    case: { ...calls, syntax: hermes, exceptions: "drops reasoning" },
    roundTrips: true,
    detected: { id: hermes.id, method: "render" },
  },
  {
    // Granite 3.3 renders no assistant calls: only its signature tells.
    template: "ibm-granite-granite-3.3-2b-instruct",
    published: LLAMA_CPP,
    lookAlike: GRANITE_33_LOOK_ALIKE,
    case: { ...calls, syntax: granite, exceptions: "drops the calls" },
    roundTrips: false,
    detected: { id: granite.id, method: "signature" },
  },
];

/** The real template's text, or the test skipped with where to get it. */
export function realTemplate(family: Family, context: { skip: (note: string) => never }): string {
  for (const dir of templateDirs) {
    const file = join(dir, `${family.template}.jinja`);
    if (existsSync(file)) return readFileSync(file, "utf8");
  }
  return context.skip(
    `${family.template}.jinja is not in ../shared/templates/families nor $TOOLCALL_TEMPLATES (published: ${family.published})`,
  );
}

/** One template a family's tests run on: its look-alike (everywhere), or the real one (where it is at hand). */
export interface Variant {
  family: Family;
  /** How the tests name it: `look-alike of NAME`, or the real template's name. */
  label: string;
  source: (context: { skip: (note: string) => never }) => string;
}

/** Every family's look-alike (run everywhere), then every family's real template (run where it is at hand). */
export const VARIANTS: Variant[] = [
  ...FAMILIES.map((family) => ({
    family,
    label: `look-alike of ${family.template}`,
    source: () => family.lookAlike,
  })),
  ...FAMILIES.map((family) => ({
    family,
    label: family.template,
    source: (context: { skip: (note: string) => never }) => realTemplate(family, context),
  })),
];

const referenceRenderer = resolve(import.meta.dirname, "../../../../shared/parity/hf_render.py");

/** Calls the reference renderer (Python + Jinja2, as transformers renders) once for every request. */
export function referenceRenders(requests: RenderRequest[]): Renderer {
  const input = JSON.stringify(
    requests.map((request) => ({
      template: request.template,
      messages: request.messages,
      tools: request.tools,
      add_generation_prompt: request.addGenerationPrompt === true,
      kwargs: request.variables,
    })),
  );
  const run = spawnSync("python3", [referenceRenderer], { input, encoding: "utf8", maxBuffer: 1 << 28 });
  if (run.status !== 0) throw new Error(run.stderr);
  const answers = JSON.parse(run.stdout) as ({ ok: string } | { error: string })[];
  const byRequest = new Map(requests.map((request, i) => [JSON.stringify(request), answers[i]]));
  return (request) => {
    const answer = byRequest.get(JSON.stringify(request));
    if (answer === undefined) throw new Error("a render the batch did not hold");
    return "ok" in answer ? { ok: true, text: answer.ok } : { ok: false };
  };
}

// Values both renderers write alike (strings, integers, booleans, null, lists): floats and the exponent forms Python
// and JavaScript spell differently are @toolcall/jinja's own parity tests' subject.
const plainArgs = fc.record(
  {
    path: fc.string({ maxLength: 12 }).filter((s) => !/[<>]/.test(s)),
    line: fc.integer({ min: -1000, max: 100000 }),
    force: fc.boolean(),
    note: fc.option(fc.constantFrom("a", "b c", "é中😀", 'quote "x"'), { nil: null }),
    items: fc.array(fc.integer({ min: 0, max: 99 }), { maxLength: 3 }),
  },
  { requiredKeys: [] },
);

/**
 * The assistant messages the reference-renderer test renders (8, fixed seed): the round trip's generator, with
 * arguments both renderers write alike.
 */
export function referenceSamples(testCase: Case): Record<string, unknown>[] {
  return fc
    .sample(fc.tuple(assistantMessage(testCase), fc.array(plainArgs, { minLength: 3, maxLength: 3 })), {
      numRuns: 8,
      seed: 22,
    })
    .map(([{ message }, args]) => {
      const toolCalls = (message.tool_calls as { function: { name: string } }[]).map((call, i) => ({
        ...call,
        function: {
          name: call.function.name,
          arguments: call.function.name === "list_files" ? "{}" : JSON.stringify(args[i]),
        },
      }));
      return { ...message, tool_calls: toolCalls };
    });
}

/** An assistant turn of one call and empty content (Granite 3.3's test: the turn renders empty). */
export const LIST_FILES_TURN = {
  role: "assistant",
  content: "",
  tool_calls: [{ id: "c1", type: "function", function: { name: "list_files", arguments: "{}" } }],
};
