import { type ConformanceRenderInput, FloatValue } from "@toolcall/conformance";
import { describeConformance } from "@toolcall/conformance/vitest";
import { templatesDir } from "../scripts/parity-cases.mjs";
import { compileTemplate, PyFloat, TemplateError } from "../src/index.js";

// The R8 render vectors, run against this engine: the package's own feature templates and the shared real chat
// templates (read from ../shared/templates; a vector whose file is absent or different is skipped, with why).

/** Vector values to engine values: a tagged integral float becomes a Python float. */
function engineValue(value: unknown): unknown {
  if (value instanceof FloatValue) return new PyFloat(value.value);
  if (Array.isArray(value)) return value.map(engineValue);
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, engineValue(v)]));
  return value;
}

function clock(now: string): Date {
  const [y, mo, d, h, mi, s] = now.split(/[-T:]/).map(Number) as number[];
  return new Date(y as number, (mo as number) - 1, d, h, mi, s);
}

function render(input: ConformanceRenderInput) {
  const variables = {
    messages: engineValue(input.messages),
    tools: engineValue(input.tools),
    documents: null,
    add_generation_prompt: input.addGenerationPrompt,
    ...(engineValue(input.variables) as Record<string, unknown>),
  };
  try {
    return { text: compileTemplate(input.template).render(variables, { now: clock(input.now) }) };
  } catch (error) {
    if (TemplateError.isInstance(error)) return { error: { type: error.type, message: error.message } };
    throw error;
  }
}

describeConformance({
  implementation: { name: "@toolcall/jinja", render },
  rules: ["R8"],
  templatesDir,
  title: "conformance (R8 render): @toolcall/jinja",
});
