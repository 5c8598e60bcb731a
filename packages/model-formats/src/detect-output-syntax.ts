import type { SyntaxParseResult, ToolCallSyntax } from "@toolcall/core/kit";
import { SYNTAX_DESCRIPTORS, SYNTAXES } from "./registry.js";

/** What {@link detectOutputSyntax} found in a model's text alone. */
export type OutputSyntax =
  | {
      status: "detected";
      /** The syntax id (`hermes`, `glm47`, `qwen3-coder`, …). */
      id: string;
      /**
       * `certain`: that syntax alone writes the calls back exactly as they stand in the text, and every syntax that
       * reads the text cleanly reads the same calls; `likely`: it alone reads calls cleanly, but does not write them
       * byte for byte.
       */
      confidence: "certain" | "likely";
      /** Every syntax that read calls without a warning or an error. */
      candidates: string[];
    }
  | {
      status: "declined";
      /** `no_calls`: no syntax reads a call without a warning or an error; `ambiguous`: several do, differently or alike. */
      reason: "no_calls" | "ambiguous";
      candidates: string[];
    };

/** The syntaxes in detection's order (the more specific first), then any the descriptors do not list. */
function ordered(): [string, ToolCallSyntax][] {
  // A syntax that reads as another (its `readsAs`) is that reader's: the output alone cannot tell them apart.
  const variants = new Set(SYNTAX_DESCRIPTORS.filter((d) => d.readsAs !== undefined).map((d) => d.id));
  const ids = SYNTAX_DESCRIPTORS.map((descriptor) => descriptor.id).filter(
    (id) => Object.hasOwn(SYNTAXES, id) && !variants.has(id),
  );
  for (const id of Object.keys(SYNTAXES)) if (!ids.includes(id) && !variants.has(id)) ids.push(id);
  return ids.flatMap((id) => {
    const syntax = SYNTAXES[id];
    return syntax === undefined ? [] : [[id, syntax] as [string, ToolCallSyntax]];
  });
}

function clean(result: SyntaxParseResult): boolean {
  return result.toolCalls.length > 0 && result.issues.every((issue) => issue.severity === "info");
}

/**
 * Names the tool-call syntax of a model's output from the text alone (no template: recovering calls a server left in
 * `content`): every syntax of the registry parses it, and a syntax is named only when it alone reads calls with no
 * warning or error (`likely`), and `certain` when it alone writes them back exactly as they stand in the text and
 * every syntax that reads the text reads those same calls.
 * Text that several syntaxes read (a bare `<function=…>` that Qwen3-Coder and Seed-OSS both take), or none, is
 * declined: a guess would run calls the model did not write. Work: one parse per syntax, each linear in the text.
 *
 * @example
 * detectOutputSyntax('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>');
 * // { status: "detected", id: "hermes", confidence: "certain", candidates: ["hermes"] }
 * detectOutputSyntax("The weather is fine.");
 * // { status: "declined", reason: "no_calls", candidates: [] }
 */
export function detectOutputSyntax(
  text: string,
  options: { tools?: readonly unknown[] | null } = {},
): OutputSyntax {
  const input = typeof text === "string" ? text : "";
  const tools = Array.isArray(options?.tools) ? options.tools : null;
  const readers: { id: string; syntax: ToolCallSyntax; result: SyntaxParseResult }[] = [];
  for (const [id, syntax] of ordered()) {
    const result = syntax.parse(input, { tools, createId: ({ index }) => `call_${index}` });
    if (clean(result)) readers.push({ id, syntax, result });
  }
  const candidates = readers.map((reader) => reader.id);
  if (readers.length === 0) return { status: "declined", reason: "no_calls", candidates };
  const exact = readers.filter(({ syntax, result }) => {
    const written = syntax.encode(result.toolCalls).trim();
    return written !== "" && input.includes(written);
  });
  const calls = (result: SyntaxParseResult) =>
    JSON.stringify(result.toolCalls.map((call) => [call.function.name, call.function.arguments]));
  if (exact.length === 1 && exact[0] !== undefined) {
    const mine = calls(exact[0].result);
    // Another syntax reading other calls from the same text (Llama's `<|python_tag|>` calls, which Functionary reads
    // as code): writing it back exactly does not settle what the model meant.
    if (readers.every((reader) => calls(reader.result) === mine))
      return { status: "detected", id: exact[0].id, confidence: "certain", candidates };
  }
  const only = readers.length === 1 ? readers[0] : undefined;
  // A reading that is not written back byte for byte is named only when it leaves no closing tag whose opener it
  // took as its marker: `<tool_call>[{…}]</tool_call>` read as Granite 3.1's `<tool_call>[…]` leaves
  // `</tool_call>` behind, so the text was written in some other family's wrapper (xLAM's list in Hermes' tags), and
  // naming Granite would be a guess.
  if (exact.length === 0 && only !== undefined && !closerLeftBehind(input, only.result.content))
    return { status: "detected", id: only.id, confidence: "likely", candidates };
  return { status: "declined", reason: "ambiguous", candidates };
}

/** The tag names written as `<X>` (openers) or `</X>` (closers) in a text: one linear scan. */
function tagNames(text: string, closing: boolean): Set<string> {
  const names = new Set<string>();
  const pattern = closing ? /<\/([^<>\s/]{1,64})>/g : /<([^<>\s/]{1,64})>/g;
  for (const match of text.matchAll(pattern)) names.add(match[1] as string);
  return names;
}

/** Whether the content keeps a closing tag `</X>` whose opener `<X>` stands in the text but not in the content. */
function closerLeftBehind(input: string, content: string | null): boolean {
  if (content === null || !content.includes("</")) return false;
  const inInput = tagNames(input, false);
  const inContent = tagNames(content, false);
  for (const name of tagNames(content, true)) if (inInput.has(name) && !inContent.has(name)) return true;
  return false;
}
