import type { Result } from "@toolcall/core";
import { serializeJson } from "@toolcall/core/kit";

/** How a JSON text was written, so that what is rewritten looks like what was read. */
export interface JsonStyle {
  /** One indentation level (`"  "`, `"\t"`); empty for single-line JSON. */
  indent: string;
  /** `", "` and `": "` (Python's `json.dumps`) or `","` and `":"` (`JSON.stringify`); single-line JSON only. */
  spaced: boolean;
  /** Non-ASCII characters written as `\uXXXX` (Python's default `ensure_ascii=True`). */
  ensureAscii: boolean;
  /** The line ending used between lines of an indented document. */
  eol: "\n" | "\r\n";
}

const NON_ASCII = /[^\x00-\x7f]/;
// A \u escape of a character outside ASCII: the mark of an ensure_ascii writer.
const ESCAPED_NON_ASCII =
  /\\u(?:00[89a-fA-F][0-9a-fA-F]|007[fF]|0[1-9a-fA-F][0-9a-fA-F]{2}|[1-9a-fA-F][0-9a-fA-F]{3})/;

/** Index of the first `ch` outside string literals, or -1. Linear; stops at the first hit. */
function firstOutsideStrings(text: string, ch: number): number {
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === ch) return i;
  }
  return -1;
}

/**
 * The style of one JSON text: indentation from its first indented line, spaced separators when its first `:` is
 * followed by a space, `ensure_ascii` when it is pure ASCII and escapes non-ASCII characters (or is pure ASCII and
 * spaced, as Python writes by default).
 *
 * `known.ascii` skips the scan for non-ASCII characters when the caller already knows (from the bytes).
 *
 * @example
 * detectJsonStyle('{"a": 1, "b": "\\u00e9"}'); // { indent: "", spaced: true, ensureAscii: true, eol: "\n" }
 * detectJsonStyle('{\n  "a": 1\n}'); // { indent: "  ", spaced: true, ensureAscii: false, eol: "\n" }
 */
export function detectJsonStyle(text: string, known: { ascii?: boolean } = {}): JsonStyle {
  // A JSONL line has no line break outside strings, and none inside (JSON escapes them): no indentation to find.
  const indentMatch = text.includes("\n") ? /\n([ \t]+)\S/.exec(text) : null;
  const indent = indentMatch?.[1] ?? "";
  const colon = firstOutsideStrings(text, 0x3a);
  const spaced = colon !== -1 && text.charCodeAt(colon + 1) === 0x20;
  const ascii = known.ascii ?? !NON_ASCII.test(text);
  const ensureAscii =
    ascii && ((spaced && indent === "") || (text.includes("\\u") && ESCAPED_NON_ASCII.test(text)));
  const eol = indent !== "" && text.includes("\r\n") ? "\r\n" : "\n";
  return { indent, spaced, ensureAscii, eol };
}

/**
 * Re-lays compact JSON text (`JSON.stringify` without indentation) in a style, token by token: strings and numbers
 * keep their exact text, so nothing about the values changes. With an indent, the layout is `JSON.stringify(v, null,
 * indent)`'s (which is also Python's `json.dumps(v, indent=…)`).
 *
 * @example
 * layoutJson('{"a":[1,{}]}', { indent: "  ", spaced: true, ensureAscii: false, eol: "\n" });
 * // '{\n  "a": [\n    1,\n    {}\n  ]\n}'
 */
export function layoutJson(compact: string, style: JsonStyle): string {
  if (style.indent === "" && !style.spaced) return compact;
  const pretty = style.indent !== "";
  const pads: string[] = [];
  const pad = (depth: number) => {
    let value = pads[depth];
    if (value === undefined) {
      value = style.eol + style.indent.repeat(depth);
      pads[depth] = value;
    }
    return value;
  };
  const out: string[] = [];
  const n = compact.length;
  let depth = 0;
  let segment = 0;
  let i = 0;
  while (i < n) {
    const c = compact.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: the closing quote is the first one not preceded by an odd run of backslashes.
      let end = compact.indexOf('"', i + 1);
      while (end !== -1) {
        let slashes = 0;
        while (compact.charCodeAt(end - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
        end = compact.indexOf('"', end + 1);
      }
      i = end === -1 ? n : end + 1;
      continue;
    }
    if (c === 0x7b || c === 0x5b) {
      if (compact.charCodeAt(i + 1) === c + 2) {
        i += 2; // {} and [] stay as they are
        continue;
      }
      if (pretty) {
        depth++;
        out.push(compact.slice(segment, i + 1), pad(depth));
        segment = i + 1;
      }
    } else if (c === 0x7d || c === 0x5d) {
      if (pretty) {
        depth--;
        out.push(compact.slice(segment, i), pad(depth));
        segment = i;
      }
    } else if (c === 0x2c) {
      out.push(compact.slice(segment, i + 1), pretty ? pad(depth) : " ");
      segment = i + 1;
    } else if (c === 0x3a) {
      out.push(compact.slice(segment, i + 1), " ");
      segment = i + 1;
    }
    i++;
  }
  out.push(compact.slice(segment));
  return out.join("");
}

/**
 * Writes a value in a style. A tree with `JsonNumber`s (read losslessly) goes through core's serializer, which writes
 * each number's exact text; a plain tree whose numbers all round-trip goes through `JSON.stringify`, which writes
 * the same bytes faster. A value that cannot be written (nesting beyond core's limit) is an error, never a crash.
 *
 * @example
 * writeJson({ a: 1 }, { indent: "", spaced: true, ensureAscii: false, eol: "\n" }); // { success: true, value: '{"a": 1}' }
 */
export function writeJson(value: unknown, style: JsonStyle, lossless = true): Result<string> {
  if (!lossless && !style.ensureAscii) {
    try {
      return { success: true, value: layoutJson(JSON.stringify(value), style) };
    } catch {
      // too deep for the native serializer: core's reports it as an error below
    }
  }
  const compact = serializeJson(value, { ensureAscii: style.ensureAscii });
  if (!compact.success) return compact;
  return { success: true, value: layoutJson(compact.value, style) };
}
