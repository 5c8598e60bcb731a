// Every tool-call syntax the packages implement, by id: model-formats' registry (Qwen3-Coder included), and Gemma 4
// from gemma-recovery until its family joins the engine.
import type { ToolCallSyntax } from "@toolcall/core/kit";
import { gemma4 } from "@toolcall/gemma-recovery";
import { SYNTAXES } from "@toolcall/model-formats";

/** The syntaxes the page can parse with, by id, in the order the picker lists them. */
export const ALL_SYNTAXES: Readonly<Record<string, ToolCallSyntax>> = Object.freeze({
  ...SYNTAXES,
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
