// Every tool-call syntax the packages implement, by id: model-formats' families, Qwen3-Coder from qwen-templates
// and Gemma 4 from gemma-recovery (detection names all of them; each lives in its own package).
import type { ToolCallSyntax } from "@toolcall/core/kit";
import { gemma4 } from "@toolcall/gemma-recovery";
import { SYNTAXES } from "@toolcall/model-formats";
import { qwen3Coder } from "@toolcall/qwen-templates";

/** The syntaxes the page can parse with, by id, in the order the picker lists them. */
export const ALL_SYNTAXES: Readonly<Record<string, ToolCallSyntax>> = Object.freeze({
  ...SYNTAXES,
  [qwen3Coder.id]: qwen3Coder,
  [gemma4.id]: gemma4,
});

/**
 * The syntax with this id, or `undefined`.
 *
 * @example
 * syntaxFor("qwen3-coder")?.name; // "Qwen3-Coder / Qwen3.5 (…)"
 */
export function syntaxFor(id: string | null): ToolCallSyntax | undefined {
  return id !== null && Object.hasOwn(ALL_SYNTAXES, id) ? ALL_SYNTAXES[id] : undefined;
}
