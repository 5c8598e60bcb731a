import { readFile } from "node:fs/promises";
import { detectToolCallSyntax, syntaxById } from "@toolcall/model-formats";
import type { ContentCallExtractor } from "@toolcall/openai";
import { syntaxContentCalls } from "@toolcall/openai";
import { extractorName } from "./content-call-extractors.js";
import { parseUpstream } from "./upstream-target.js";

/** What `--content-calls auto` found in a chat template. */
export type DetectedContentCalls =
  | { ok: true; extractor: ContentCallExtractor; syntax: string; startInReasoning: boolean; method: string }
  | { ok: false; error: string };

/**
 * `--content-calls auto`: the tool-call syntax a chat template writes (`detectToolCallSyntax` of
 * `@toolcall/model-formats`: differential rendering, then known signatures), as an extractor; a template whose
 * generation prompt opens the reasoning block (`<think>`) is read starting in reasoning. A template that writes no
 * known syntax is an error result, never a throw.
 *
 * @example
 * const detected = detectContentCalls({ template: readFileSync("chat_template.jinja", "utf8") });
 * if (detected.ok) detected.syntax; // "glm47"
 */
export function detectContentCalls(args: { template: string }): DetectedContentCalls {
  const found = detectToolCallSyntax(args.template);
  if (found.id === null)
    return { ok: false, error: "the chat template writes no tool-call syntax this proxy knows" };
  const { startInReasoning } = found;
  const syntax = syntaxById(found.id);
  const extractor: ContentCallExtractor | undefined =
    syntax === undefined
      ? undefined
      : syntaxContentCalls({ syntax, startInReasoning, name: extractorName(found.id) });
  if (extractor === undefined)
    return {
      ok: false,
      error: `the chat template writes ${found.id}, which --content-calls cannot read yet`,
    };
  return { ok: true, extractor, syntax: found.id, startInReasoning, method: found.method };
}

/**
 * The chat template an upstream serves, if it serves one: llama.cpp's server answers `GET /props` with
 * `chat_template`; vLLM and SGLang do not serve theirs over HTTP (give it with `--chat-template FILE`). Resolves
 * `undefined` for anything else (no such route, not JSON, no template, unreachable); never rejects.
 *
 * @example
 * const template = await fetchUpstreamTemplate({ upstream: "http://127.0.0.1:8080" });
 */
export async function fetchUpstreamTemplate(args: {
  upstream: string;
  timeoutMs?: number;
}): Promise<string | undefined> {
  const target = parseUpstream(args.upstream);
  if (!target.ok) return undefined;
  try {
    const response = await fetch(`${target.origin}${target.pathPrefix}/props`, {
      signal: AbortSignal.timeout(args.timeoutMs ?? 10_000),
    });
    if (!response.ok) return undefined;
    const props = (await response.json()) as { chat_template?: unknown };
    return typeof props?.chat_template === "string" && props.chat_template !== ""
      ? props.chat_template
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Resolves `--content-calls auto` at start-up: the template from `--chat-template FILE` when given, else the one the
 * upstream serves (`GET /props`, llama.cpp), then {@link detectContentCalls}. Says where the template came from.
 *
 * @example
 * const resolved = await resolveAutoContentCalls({ upstream: "http://127.0.0.1:8080" });
 * if (resolved.ok) console.log(resolved.syntax, resolved.source); // "hermes" "upstream /props"
 */
export async function resolveAutoContentCalls(args: {
  upstream: string;
  templateFile?: string | undefined;
}): Promise<DetectedContentCalls & { source?: string }> {
  let template: string | undefined;
  let source: string;
  if (args.templateFile !== undefined) {
    source = args.templateFile;
    try {
      template = await readFile(args.templateFile, "utf8");
    } catch (error) {
      return {
        ok: false,
        error: `cannot read --chat-template ${args.templateFile}: ${(error as Error).message}`,
      };
    }
  } else {
    source = "upstream /props";
    template = await fetchUpstreamTemplate({ upstream: args.upstream });
    if (template === undefined)
      return {
        ok: false,
        error:
          "--content-calls auto needs a chat template: give --chat-template FILE (vLLM and SGLang do not serve theirs over HTTP; llama.cpp's GET /props does)",
      };
  }
  const detected = detectContentCalls({ template });
  return detected.ok ? { ...detected, source } : { ok: false, error: `${detected.error} (${source})` };
}
