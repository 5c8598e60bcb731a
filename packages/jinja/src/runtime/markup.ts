/**
 * markupsafe's `Markup`: a `str` that is already HTML-safe. With autoescape off (transformers' setting) it prints as
 * its text, but it stays a Markup through string methods, and escapes what is concatenated or formatted into it:
 * `('<a>'|safe) + '<'` is `<a>&lt;`.
 *
 * @example
 * new Markup("<b>").text; // "<b>"
 */
export class Markup {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

const HTML_SPECIAL = /[&<>'"]/;
const HTML_SPECIAL_ALL = /[&<>'"]/g;
const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  "'": "&#39;",
  '"': "&#34;",
};

/** markupsafe's escaping of a text: `& < > ' "` as entities. */
export function escapeText(text: string): string {
  if (!HTML_SPECIAL.test(text)) return text;
  return text.replace(HTML_SPECIAL_ALL, (c) => ENTITIES[c] as string);
}

/** A Python `str`: a string or a Markup. */
export function isStr(value: unknown): value is string | Markup {
  return typeof value === "string" || value instanceof Markup;
}

/** The characters of a `str` (a Markup's text). */
export function strText(value: string | Markup): string {
  return typeof value === "string" ? value : value.text;
}

/** Wraps a method's string result back into a Markup when the receiver was one. */
export function like(receiver: unknown, text: string): string | Markup {
  return receiver instanceof Markup ? new Markup(text) : text;
}

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  copy: "\u00a9",
  reg: "\u00ae",
  laquo: "\u00ab",
  raquo: "\u00bb",
  hellip: "\u2026",
  mdash: "\u2014",
  ndash: "\u2013",
};
const PY_SPACE = /[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/**
 * `Markup.unescape()` (Python's `html.unescape`): numeric references and the common named entities back to
 * characters. Python knows all 2,231 HTML5 names; the rest stay as written here (see the README's limits).
 */
export function unescapeText(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(#[xX][0-9a-fA-F]+;?|#\d+;?|[a-zA-Z][a-zA-Z0-9]*;)/g, (whole, body: string) => {
    if (body[0] === "#") {
      const digits = body.replace(/;$/, "");
      const code =
        digits[1] === "x" || digits[1] === "X"
          ? Number.parseInt(digits.slice(2), 16)
          : Number.parseInt(digits.slice(1), 10);
      if (code === 0 || (code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return "\ufffd";
      return String.fromCodePoint(code);
    }
    return NAMED[body.slice(0, -1)] ?? whole;
  });
}

/** Removes closed `<!-- … -->` comments as markupsafe does (leftmost first, rescanning joins), in linear work. */
function removeComments(text: string): string {
  if (!text.includes("<!--")) return text;
  const kept: string[] = [];
  let i = 0;
  while (i < text.length) {
    kept.push(text[i] as string);
    i++;
    const n = kept.length;
    if (n < 4 || kept[n - 1] !== "-" || kept[n - 2] !== "-" || kept[n - 3] !== "!" || kept[n - 4] !== "<")
      continue;
    // A comment starts at n - 4; its end is searched from there ("<!-->" is a whole comment).
    let end: number;
    if (text[i] === ">") end = i + 1;
    else if (text[i] === "-" && text[i + 1] === ">") end = i + 2;
    else {
      const at = text.indexOf("-->", i);
      if (at === -1) return kept.join("") + text.slice(i);
      end = at + 3;
    }
    kept.length = n - 4;
    i = end;
  }
  return kept.join("");
}

/** `Markup.striptags()`: closed comments, then tags, removed; whitespace collapsed; entities unescaped. */
export function striptagsText(text: string): string {
  const value = removeComments(text);
  let out = "";
  let pos = 0;
  for (;;) {
    const start = value.indexOf("<", pos);
    const end = start === -1 ? -1 : value.indexOf(">", start);
    if (end === -1) {
      out += value.slice(pos);
      break;
    }
    out += value.slice(pos, start);
    pos = end + 1;
  }
  const words = out.split(PY_SPACE).filter((w) => w !== "");
  return unescapeText(words.join(" "));
}

/** The methods whose result markupsafe wraps back into a Markup. */
export const MARKUP_RESULT_METHODS = new Set([
  "capitalize",
  "title",
  "lower",
  "upper",
  "replace",
  "ljust",
  "rjust",
  "lstrip",
  "rstrip",
  "center",
  "strip",
  "translate",
  "expandtabs",
  "swapcase",
  "zfill",
  "casefold",
  "removeprefix",
  "removesuffix",
  "split",
  "rsplit",
  "splitlines",
  "partition",
  "rpartition",
]);

/** Markup's methods written in Python (markupsafe): they print as bound methods, not built-in ones. */
export const MARKUP_PYTHON_METHODS = new Set([
  ...MARKUP_RESULT_METHODS,
  "join",
  "unescape",
  "striptags",
  "format",
  "format_map",
  "escape",
]);
