// Shared template files for render vectors, read from disk: what the Node entry of the package hands the runner
// (the browser entry reads no files).
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resolveRenderInput as resolveWith, type TemplateFileReader } from "./render-case.js";

/**
 * Reads `file` in `directory`: its path, text and SHA-256, or `undefined` when it is not there.
 *
 * @example
 * readTemplateFile("../shared/templates", "Qwen-Qwen3-8B.jinja")?.sha256;
 */
export const readTemplateFile: TemplateFileReader = (directory, file) => {
  const path = join(directory, file);
  if (!existsSync(path)) return undefined;
  const bytes = readFileSync(path);
  return { path, text: bytes.toString("utf8"), sha256: createHash("sha256").update(bytes).digest("hex") };
};

/**
 * The directory shared chat templates are read from: the `templatesDir` option, else `$TOOLCALL_TEMPLATES`.
 *
 * @example
 * templatesDirectory(undefined); // process.env.TOOLCALL_TEMPLATES
 */
export function templatesDirectory(option: string | undefined): string | undefined {
  return option ?? process.env.TOOLCALL_TEMPLATES ?? undefined;
}

/**
 * A render vector's input, ready for the implementation, the template file read from disk (and checked against the
 * vector's SHA-256) when the vector names one.
 *
 * @example
 * resolveRenderInput({ template: "{{ 1 }}" }, undefined); // { input: { template: "{{ 1 }}", messages: [], … } }
 */
export function resolveRenderInput(
  raw: unknown,
  templatesDir: string | undefined,
  reader: TemplateFileReader = readTemplateFile,
): ReturnType<typeof resolveWith> {
  return resolveWith(raw, templatesDir, reader);
}
