import type { ToolCallSyntax } from "@toolcall/core/kit";
import { gemma4 } from "@toolcall/gemma-recovery";
import { SYNTAX_DESCRIPTORS, SYNTAXES } from "@toolcall/model-formats";

/**
 * Every tool-call syntax the command line can parse, by id: the registry of `@toolcall/model-formats` (Qwen3-Coder
 * included), and Gemma 4 from `@toolcall/gemma-recovery` until its family joins the engine.
 */
const ALL: Readonly<Record<string, ToolCallSyntax>> = Object.freeze({
  ...SYNTAXES,
  [gemma4.id]: gemma4,
});

/**
 * The ids, in the order detection knows them (`toolcall probe`'s, the error message's): the more specific first.
 *
 * @example
 * SYNTAX_IDS.includes("glm47"); // true
 */
export const SYNTAX_IDS: readonly string[] = [
  ...SYNTAX_DESCRIPTORS.map((descriptor) => descriptor.id).filter((id) => Object.hasOwn(ALL, id)),
  ...Object.keys(ALL).filter((id) => !SYNTAX_DESCRIPTORS.some((descriptor) => descriptor.id === id)),
];

/**
 * The syntax with this id, whichever package implements it, or `undefined`.
 *
 * @example
 * toolCallSyntax("qwen3-coder")?.name; // "Qwen3-Coder / Qwen3.5 (<function=…><parameter=…>)"
 */
export function toolCallSyntax(id: string): ToolCallSyntax | undefined {
  return Object.hasOwn(ALL, id) ? ALL[id] : undefined;
}
