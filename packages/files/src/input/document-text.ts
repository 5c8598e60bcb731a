// The text of a whole JSON document around its value: a byte order mark, the whitespace kept around a rewritten
// value, and where a parse error is.

/** The text without a leading byte order mark, and whether it had one. */
export function withoutBom(text: string): { text: string; bom: boolean } {
  return text.charCodeAt(0) === 0xfeff ? { text: text.slice(1), bom: true } : { text, bom: false };
}

/** The leading and trailing whitespace of a document, kept exactly around a rewritten value. */
export function surroundings(text: string): { before: string; after: string } {
  return { before: /^\s*/.exec(text)?.[0] ?? "", after: /\s*$/.exec(text)?.[0] ?? "" };
}

/** Line and column (1-based) of a character offset, for parse errors in JSON documents. */
export function lineAndColumn(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf("\n"); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}

/**
 * A JSON parse error without the text it was given: V8 quotes the input in some messages (`Unexpected token 'a',
 * "a,b,c…" is not valid JSON`), which repeats a whole file or line in a report that already names it.
 *
 * @example
 * plainJsonError(`Unexpected token 'a', "a,b,c\n1,2,3" is not valid JSON`); // "Unexpected token 'a'"
 */
export function plainJsonError(message: string): string {
  const quoted = message.indexOf(', "');
  if (quoted === -1 || !message.endsWith(" is not valid JSON")) return message;
  return message.slice(0, quoted);
}
