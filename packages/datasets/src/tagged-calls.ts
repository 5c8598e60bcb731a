/** A `<tag>…</tag>` segment in a turn's text: where it is, and its body. */
export interface TaggedSegment {
  /** Index of the opening tag. */
  start: number;
  /** Index just past the closing tag (or the end of the text for an unclosed one). */
  end: number;
  /** The text between the tags. */
  body: string;
  closed: boolean;
}

/**
 * The `<tag>…</tag>` segments of a text, in order (Hermes writes calls as `<tool_call>\n{…}\n</tool_call>` and
 * results as `<tool_response>…</tool_response>`). Linear: one forward scan. An opening tag without its closing
 * one runs to the end of the text (`closed: false`).
 *
 * @example
 * findTagged("Sure.\n<tool_call>\n{}\n</tool_call>", "tool_call"); // [{ start: 6, end: 33, body: "\n{}\n", closed: true }]
 */
export function findTagged(text: string, tag: string): TaggedSegment[] {
  const open = `<${tag}>`;
  const close = `</${tag}>`;
  const segments: TaggedSegment[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf(open, from);
    if (start === -1) break;
    const bodyStart = start + open.length;
    const closeAt = text.indexOf(close, bodyStart);
    if (closeAt === -1) {
      segments.push({ start, end: text.length, body: text.slice(bodyStart), closed: false });
      break;
    }
    segments.push({ start, end: closeAt + close.length, body: text.slice(bodyStart, closeAt), closed: true });
    from = closeAt + close.length;
  }
  return segments;
}

/**
 * The text with segments replaced (`undefined`: removed, with the line break after it), others kept byte for byte.
 *
 * @example
 * replaceTagged("a<x>1</x>b", findTagged("a<x>1</x>b", "x"), ["<x>2</x>"]); // "a<x>2</x>b"
 */
export function replaceTagged(
  text: string,
  segments: readonly TaggedSegment[],
  replacements: ReadonlyArray<string | undefined | null>,
): string {
  let out = "";
  let at = 0;
  segments.forEach((segment, index) => {
    const replacement = replacements[index];
    if (replacement === null) return; // kept as it is
    out += text.slice(at, segment.start);
    at = segment.end;
    if (replacement === undefined) {
      if (text[at] === "\n") at++;
    } else {
      out += replacement;
    }
  });
  return out + text.slice(at);
}

/**
 * The text outside every segment, as content: trimmed, `null` when nothing is left.
 *
 * @example
 * textOutside("Sure.\n<tool_call>{}</tool_call>", findTagged("Sure.\n<tool_call>{}</tool_call>", "tool_call")); // "Sure."
 */
export function textOutside(text: string, segments: readonly TaggedSegment[]): string | null {
  let out = "";
  let at = 0;
  for (const segment of segments) {
    out += text.slice(at, segment.start);
    at = segment.end;
  }
  out += text.slice(at);
  const trimmed = out.trim();
  return trimmed === "" ? null : trimmed;
}
