import type { ConformanceRenderInput } from "./implementation.js";
import { show } from "./json-equal.js";

/** The clock `strftime_now` reads in a render vector that does not name one (`../parity/hf_render.py`'s). */
export const DEFAULT_RENDER_CLOCK = "2026-01-02T03:04:05";

/**
 * Reads a shared template file for a render vector: its text and SHA-256 (hex), or `undefined` when there is no
 * such file. Where there are files (Node), the package's Node entry passes one in (template-file.ts); the browser
 * entry has none, and a vector naming a file is skipped there.
 */
export type TemplateFileReader = (
  directory: string,
  file: string,
) => { path: string; text: string; sha256: string } | undefined;

/**
 * A render vector's input, ready for the implementation: the template file read (and checked against the
 * vector's SHA-256) when the vector names one, defaults filled in. `skip` says why it cannot run.
 *
 * @example
 * resolveRenderInput({ template: "{{ 1 }}" }, undefined); // { input: { template: "{{ 1 }}", messages: [], … } }
 */
export function resolveRenderInput(
  raw: unknown,
  templatesDir: string | undefined,
  readTemplateFile?: TemplateFileReader,
): { input: ConformanceRenderInput } | { skip: string } {
  const given = (raw ?? {}) as Record<string, unknown>;
  let template = given.template;
  if (typeof given.templateFile === "string") {
    const file = given.templateFile;
    if (templatesDir === undefined)
      return {
        skip: `renders the shared template ${file}: set TOOLCALL_TEMPLATES (or templatesDir) to its directory`,
      };
    if (readTemplateFile === undefined)
      return { skip: `renders the shared template ${file}: this runtime reads no files` };
    const read = readTemplateFile(templatesDir, file);
    if (read === undefined)
      return { skip: `renders the shared template ${file}, not found in ${templatesDir}` };
    if (typeof given.templateSha256 === "string" && read.sha256 !== given.templateSha256)
      return { skip: `${read.path} is not the template the vector was made with (sha256 ${read.sha256})` };
    template = read.text;
  }
  if (typeof template !== "string") return { skip: "the vector has no template" };
  return {
    input: {
      template,
      messages: (given.messages as unknown[] | undefined) ?? [],
      tools: (given.tools as unknown[] | null | undefined) ?? null,
      addGenerationPrompt: (given.addGenerationPrompt as boolean | undefined) ?? false,
      variables: (given.variables as Record<string, unknown> | undefined) ?? {},
      now: (given.now as string | undefined) ?? DEFAULT_RENDER_CLOCK,
    },
  };
}

/**
 * Compares a render outcome with `expected` (`text`, or `error` with `type` and `message`), the keys the run's level
 * includes (`at`).
 */
export function checkRender(
  expected: Record<string, unknown>,
  actual: unknown,
  at: (key: string) => boolean,
  failures: string[],
): void {
  const result = (actual ?? {}) as { text?: unknown; error?: { type?: unknown; message?: unknown } };
  if ("text" in expected && at("text") && result.text !== expected.text)
    failures.push(
      result.error
        ? `text: expected ${show(expected.text)}, got ${String(result.error.type)}: ${String(result.error.message)}`
        : `text: expected ${show(expected.text)}, got ${show(result.text)}`,
    );
  if ("error" in expected && at("error")) {
    const want = expected.error as { type: string; message?: string };
    const got = result.error;
    if (got === undefined) failures.push(`error: expected ${want.type}, got text ${show(result.text)}`);
    else if (got.type !== want.type || ("message" in want && got.message !== want.message))
      failures.push(
        `error: expected ${"message" in want ? `${want.type}: ${want.message}` : want.type}, got ${String(got.type)}: ${String(got.message)}`,
      );
  }
}
