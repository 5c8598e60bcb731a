import { syntaxById } from "@toolcall/model-formats";
import type { CallText } from "./call-text.js";

/** A name as ToolACE writes one: any text up to `(` without quotes, brackets, `=` or a line break (`Market Trends API`). */
const NAME = /^[^"'()[\]{}=,\n]{1,200}$/;

/**
 * The calls of an assistant turn written as a Python call list, as ToolACE writes them (`[Market Trends
 * API(trend_type="INDEXES"), get_time()]`): each call read by `@toolcall/model-formats`' pythonic syntax, its name
 * taken as written (spaces and dots included, which the syntax itself does not take). `undefined` unless the whole
 * text is such a list and every call reads. One pass over the text, then the syntax's own linear read.
 *
 * @example
 * readPythonicTurn('[Market Trends API(trend_type="INDEXES")]')?.[0]?.name; // "Market Trends API"
 */
export function readPythonicTurn(text: string): CallText[] | undefined {
  const trimmed = text.trim();
  if (!trimmed.startsWith("[") || !trimmed.endsWith("]") || trimmed.length < 4) return undefined;
  const names: string[] = [];
  let out = "[";
  let depth = 1;
  let quote: string | undefined;
  let start: number | undefined = 1;
  for (let i = 1; i < trimmed.length; i++) {
    const char = trimmed[i] as string;
    if (quote !== undefined) {
      if (char === "\\") {
        out += char + (trimmed[i + 1] ?? "");
        i++;
        continue;
      }
      if (char === quote) quote = undefined;
      out += char;
      continue;
    }
    if (start !== undefined) {
      // Reading a call's name, up to its `(`.
      if (char !== "(") continue;
      const name = trimmed.slice(start, i).trim();
      if (!NAME.test(name)) return undefined;
      names.push(name);
      out += `f${names.length - 1}(`;
      depth++;
      start = undefined;
      continue;
    }
    if (char === '"' || char === "'") quote = char;
    else if (char === "(" || char === "[" || char === "{") depth++;
    else if (char === ")" || char === "]" || char === "}") depth--;
    out += char;
    if (depth === 1 && char === ",") start = i + 1;
    if (depth === 0 && i !== trimmed.length - 1) return undefined;
  }
  if (start !== undefined || depth !== 0 || names.length === 0) return undefined;
  const parsed = syntaxById("llama-pythonic")?.parse(out, { createId: () => "" });
  if (parsed === undefined || parsed.toolCalls.length !== names.length) return undefined;
  if ((parsed.content ?? "").trim() !== "" || (parsed.issues ?? []).length > 0) return undefined;
  return parsed.toolCalls.map((call, index) => ({
    name: names[index],
    arguments: call.function?.arguments,
    syntax: "pythonic",
    spaced: false,
  }));
}
