import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ConformanceRenderInput } from "./implementation.js";
import { show } from "./json-equal.js";

/** The clock `strftime_now` reads in a render vector that does not name one (`../parity/hf_render.py`'s). */
export const DEFAULT_RENDER_CLOCK = "2026-01-02T03:04:05";

/**
 * The directory shared chat templates are read from, for render vectors that name a template file instead of
 * holding it: the `templatesDir` option, else `$TOOLCALL_TEMPLATES`.
 */
export function templatesDirectory(option: string | undefined): string | undefined {
  return option ?? process.env.TOOLCALL_TEMPLATES ?? undefined;
}

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
): { input: ConformanceRenderInput } | { skip: string } {
  const given = (raw ?? {}) as Record<string, unknown>;
  let template = given.template;
  if (typeof given.templateFile === "string") {
    const file = given.templateFile;
    if (templatesDir === undefined)
      return {
        skip: `renders the shared template ${file}: set TOOLCALL_TEMPLATES (or templatesDir) to its directory`,
      };
    const path = join(templatesDir, file);
    if (!existsSync(path))
      return { skip: `renders the shared template ${file}, not found in ${templatesDir}` };
    const bytes = readFileSync(path);
    const digest = createHash("sha256").update(bytes).digest("hex");
    if (typeof given.templateSha256 === "string" && digest !== given.templateSha256)
      return { skip: `${path} is not the template the vector was made with (sha256 ${digest})` };
    template = bytes.toString("utf8");
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
