import type { Result } from "@toolcall/core";
import { type JsonStyle, writeJson } from "./json-style.js";

/** Where one element of a JSON array is in the array's text: `[start, end)`. */
export interface Span {
  start: number;
  end: number;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);

/**
 * The spans of the elements of the top-level JSON array in `text` (valid JSON, already parsed), so one element can
 * be replaced without rewriting the others. One forward scan; strings are skipped with their escapes.
 *
 * @example
 * arrayElementSpans('[ {"a": 1}, 2 ]'); // [{ start: 2, end: 10 }, { start: 12, end: 13 }]
 */
export function arrayElementSpans(text: string): Span[] | undefined {
  let i = 0;
  const n = text.length;
  while (i < n && WHITESPACE.has(text.charCodeAt(i))) i++;
  if (text.charCodeAt(i) !== 0x5b) return undefined;
  i++;
  const spans: Span[] = [];
  let depth = 0;
  let start = -1;
  let last = -1;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      if (start === -1) start = i;
      i++;
      while (i < n && text.charCodeAt(i) !== 0x22) i += text.charCodeAt(i) === 0x5c ? 2 : 1;
      last = i;
      continue;
    }
    if (WHITESPACE.has(c)) continue;
    if (depth === 0 && (c === 0x2c || c === 0x5d)) {
      if (start !== -1) spans.push({ start, end: last + 1 });
      start = -1;
      if (c === 0x5d) return spans;
      continue;
    }
    if (start === -1) start = i;
    last = i;
    if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return undefined;
}

/**
 * A record as JSON text in a style, nested `depth` levels deep (each line after the first indented `depth` times):
 * what replaces one element of a pretty-printed array. `undefined` when the value cannot be written.
 *
 * @example
 * serializeRecord({ a: 1 }, { indent: "  ", spaced: true, ensureAscii: false, eol: "\n" }, false, 1);
 * // '{\n    "a": 1\n  }'
 */
export function serializeRecord(
  value: unknown,
  style: JsonStyle,
  lossless: boolean,
  depth = 0,
): Result<string> {
  const written = writeJson(value, style, lossless);
  if (!written.success || depth === 0 || style.indent === "") return written;
  // JSON strings never hold a raw line break: every line break in the text is layout.
  return {
    success: true,
    value: written.value.split(style.eol).join(`${style.eol}${style.indent.repeat(depth)}`),
  };
}

/** One piece of a rebuilt file of lines: an original line kept, or new bytes. */
export type Piece = { keep: number } | { bytes: Buffer; place?: string };

/**
 * Turns a rebuilt file of lines into what the journal records: runs of kept original lines are kept, and every gap
 * between two kept lines (original lines left out, new bytes put in) is one replacement of the original bytes of
 * the gap by the new ones. Kept lines must come in their original order.
 *
 * @example
 * writePieces(lines, [{ keep: 0 }, { bytes: Buffer.from("x\n") }, { keep: 2 }], out); // line 1 replaced by "x\n"
 */
export function writePieces(
  lines: readonly Buffer[],
  pieces: readonly Piece[],
  out: {
    keep(bytes: Buffer): void;
    replace(original: Buffer, replacement: Buffer, meta: { place?: string }): void;
  },
): void {
  let next = 0;
  let fresh: Buffer[] = [];
  let places: string[] = [];
  const flushGap = (until: number) => {
    const original = Buffer.concat(lines.slice(next, until));
    if (original.length > 0 || fresh.length > 0) {
      out.replace(original, Buffer.concat(fresh), places.length > 0 ? { place: places.join(", ") } : {});
    }
    fresh = [];
    places = [];
  };
  for (const piece of pieces) {
    if ("keep" in piece) {
      if (piece.keep !== next || fresh.length > 0) flushGap(piece.keep);
      out.keep(lines[piece.keep] as Buffer);
      next = piece.keep + 1;
    } else {
      fresh.push(piece.bytes);
      if (piece.place !== undefined) places.push(piece.place);
    }
  }
  flushGap(lines.length);
}
