import type { SyntaxParseOptions } from "@toolcall/core/kit";
import { foldEvents } from "../src/engine/define-syntax.js";
import { readFencedJsonCalls } from "../src/families/hermes-fenced.js";
import { syntaxById } from "../src/registry.js";

const ids: SyntaxParseOptions["createId"] = ({ index }) => `call_${index}`;

function syntaxOf(options: Record<string, unknown>) {
  const syntax = syntaxById(String(options.syntax));
  if (syntax === undefined) throw new Error(`no syntax ${String(options.syntax)}`);
  return syntax;
}

function parseOptions(options: Record<string, unknown>): SyntaxParseOptions {
  return {
    tools: (options.tools as unknown[] | undefined) ?? null,
    startInReasoning: options.startInReasoning === true,
    createId: ids,
  };
}

/** This package as the conformance suite calls it (R10). */
export const modelFormatsImplementation = {
  name: "@toolcall/model-formats",
  parseToolCalls: (text: string, options: Record<string, unknown>) =>
    syntaxOf(options).parse(text, parseOptions(options)),
  streamToolCalls: (chunks: readonly string[], options: Record<string, unknown>) => {
    const stream = syntaxOf(options).createStream(parseOptions(options));
    const events = chunks.flatMap((chunk) => stream.push(chunk));
    return foldEvents([...events, ...stream.end()]);
  },
  readFencedJsonCalls: (content: string, options: Record<string, unknown>) =>
    readFencedJsonCalls({ content, tools: (options.tools as unknown[] | undefined) ?? null, createId: ids }),
  encodeToolCalls: (
    calls: Array<{ id?: string; name: string; arguments: string }>,
    options: Record<string, unknown>,
  ) =>
    syntaxOf(options).encode(
      calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })),
    ),
};
