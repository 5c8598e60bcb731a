// The reference renderer, Python + Jinja2 as transformers sets it up (../shared/parity/hf_render.py), for the same
// inputs the page renders: arguments reach Python decoded by its own json.loads (the mapping a template iterates),
// or as the wire text for templates that concatenate it, as the probe of @toolcall/jinja decides.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { repositoryRoot } from "./bundle-package.js";

export const sharedDir = join(repositoryRoot, "../shared");
const hfRender = join(sharedDir, "parity/hf_render.py");

export interface ReferenceCase {
  template: string;
  messages: unknown[];
  tools: unknown[] | null;
  addGenerationPrompt: boolean;
  variables: Record<string, unknown>;
  /** How the calls' arguments reach the template. */
  form: "mapping" | "string";
}

const HOLE = "\u0000ARGUMENTS\u0000";

/** hf_render.py's input for one case: each call's wire text spliced in as JSON (mapping) or as a JSON string. */
function caseText(c: ReferenceCase): string {
  const raw: string[] = [];
  const messages = c.messages.map((message) => {
    const calls = (message as { tool_calls?: Array<{ function: { arguments: string } }> }).tool_calls;
    if (!Array.isArray(calls)) return message;
    return {
      ...(message as object),
      tool_calls: calls.map((call) => {
        raw.push(call.function.arguments);
        return { ...call, function: { ...call.function, arguments: HOLE } };
      }),
    };
  });
  const text = JSON.stringify({
    template: c.template,
    messages,
    tools: c.tools,
    add_generation_prompt: c.addGenerationPrompt,
    kwargs: c.variables,
  });
  let next = 0;
  return text.replaceAll(JSON.stringify(HOLE), () => {
    const args = raw[next++] ?? "";
    return c.form === "string" ? JSON.stringify(args) : args;
  });
}

/**
 * Renders every case with the reference renderer in one Python process: `{ ok: text }` or `{ error: "Type: message" }`
 * for each.
 *
 * @example
 * renderWithPython([{ template, messages, tools: null, addGenerationPrompt: true, variables: {}, form: "mapping" }]);
 */
export function renderWithPython(cases: readonly ReferenceCase[]): Array<{ ok: string } | { error: string }> {
  const result = spawnSync("python3", [hfRender], {
    input: `[${cases.map(caseText).join(",")}]`,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`hf_render.py failed: ${result.stderr || result.error?.message}`);
  return JSON.parse(result.stdout) as Array<{ ok: string } | { error: string }>;
}
