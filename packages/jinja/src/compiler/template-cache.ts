import { Template, type TemplateOptions } from "./template.js";

const LIMIT = 64;
const cache = new Map<string, Template>();

/**
 * A compiled template for the source, compiled once and kept (the 64 most recently used sources, with
 * transformers' options: `trim_blocks` and `lstrip_blocks`).
 *
 * @example
 * getCompiledTemplate("{{ bos_token }}") === getCompiledTemplate("{{ bos_token }}"); // true
 */
export function getCompiledTemplate(source: string | Template, options?: TemplateOptions): Template {
  if (typeof source !== "string") return source;
  if (options !== undefined) return new Template(source, options);
  const hit = cache.get(source);
  if (hit !== undefined) {
    cache.delete(source);
    cache.set(source, hit);
    return hit;
  }
  const compiled = new Template(source);
  cache.set(source, compiled);
  if (cache.size > LIMIT) cache.delete(cache.keys().next().value as string);
  return compiled;
}
