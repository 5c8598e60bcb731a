/**
 * Where the complete top-level JSON object starting at `start` (a `{`) ends (the index after its `}`), or -1 when
 * the text ends first (inside it, or inside a string in it). Brackets inside strings do not count. Linear in what it
 * reads.
 */
export function objectEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** JSON whitespace. */
export function isJsonSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** The first index at or after `from` that is not JSON whitespace. */
export function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isJsonSpace(text.charCodeAt(i))) i++;
  return i;
}

/** Whether `text.slice(start, end)` is `{}` with only whitespace inside. */
export function isEmptyObject(text: string, start: number, end: number): boolean {
  return skipSpace(text, start + 1) === end - 1;
}

/**
 * Whether the text ends inside a JSON value: inside a string, or with a `{` or `[` not closed (brackets in strings
 * do not count). Such text is a cut call: no repair may complete it. Linear.
 */
export function endsInsideValue(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if (c === 0x7d || c === 0x5d) depth--;
  }
  return inString || depth > 0;
}
