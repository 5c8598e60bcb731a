import { pyRepr } from "../runtime/python-repr.js";
import { fail } from "../runtime/template-error.js";

/** A token of Jinja source. Operators carry their text as their type. */
export interface Token {
  type: string;
  value: string;
  line: number;
}

export interface LexOptions {
  trimBlocks: boolean;
  lstripBlocks: boolean;
  /** Keep a single trailing newline of the source (Jinja's `keep_trailing_newline`, off by default). */
  keepTrailingNewline?: boolean;
}

const OPERATORS2 = new Set(["//", "**", "==", "!=", ">=", "<="]);
const OPERATORS1 = new Set([
  "+",
  "-",
  "/",
  "*",
  "%",
  "~",
  "[",
  "]",
  "(",
  ")",
  "{",
  "}",
  "<",
  ">",
  "=",
  ".",
  ":",
  "|",
  ",",
  ";",
]);
const OPENERS: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

const NAME = /[a-zA-Z_][a-zA-Z0-9_]*/y;
const FLOAT = /(?:\d+_)*\d+(?:(?:\.(?:\d+_)*\d+)?[eE][+-]?(?:\d+_)*\d+|\.(?:\d+_)*\d+)/y;
const INTEGER = /0[bB](?:_?[01])+|0[oO](?:_?[0-7])+|0[xX](?:_?[\da-fA-F])+|[1-9](?:_?\d)*|0(?:_?0)*/y;
const STRING = /'([^'\\]*(?:\\[\s\S][^'\\]*)*)'|"([^"\\]*(?:\\[\s\S][^"\\]*)*)"/y;
const WHITESPACE = /\s+/y;
const RAW_BEGIN = /\{%([-+]?)\s*raw\s*(-?)%\}/y;
const RAW_END = /\{%([-+]?)\s*endraw\s*(-?)%\}/g;

/**
 * Splits Jinja source into tokens the way Jinja2's lexer does: line endings normalized to `\n`, the final newline
 * dropped, `-`/`+` whitespace control, `trim_blocks`, `lstrip_blocks`, comments removed, raw blocks kept as text.
 */
export function tokenize(input: string, options: LexOptions): Token[] {
  let source = input.replace(/\r\n|\r|\n/g, "\n");
  if (!options.keepTrailingNewline && source.endsWith("\n")) source = source.slice(0, -1);
  const tokens: Token[] = [];
  const length = source.length;
  let pos = 0;
  let line = 1;
  let lineStarting = true;
  const push = (type: string, value: string) => {
    tokens.push({ type, value, line });
  };
  // Scans only the range: `indexOf` would search on to the end of a source without newlines, at every tag.
  const countLines = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (source.charCodeAt(i) === 0x0a) line++;
  };

  while (pos < length) {
    // Find the next tag start: {{, {% or {#.
    let start = -1;
    for (let i = source.indexOf("{", pos); i !== -1; i = source.indexOf("{", i + 1)) {
      const next = source.charCodeAt(i + 1);
      if (next === 0x7b || next === 0x25 || next === 0x23) {
        start = i;
        break;
      }
    }
    if (start === -1) {
      push("data", source.slice(pos));
      countLines(pos, length);
      break;
    }
    const kind = source[start + 1] as "{" | "%" | "#";
    const signChar = source[start + 2];
    const sign = signChar === "-" || signChar === "+" ? signChar : "";
    let text = source.slice(pos, start);
    if (sign === "-") {
      text = text.replace(/\s+$/, "");
    } else if (sign !== "+" && options.lstripBlocks && kind !== "{") {
      const lineStart = text.lastIndexOf("\n") + 1;
      if ((lineStart > 0 || lineStarting) && lineStart < text.length && /^\s+$/.test(text.slice(lineStart))) {
        text = text.slice(0, lineStart);
      }
    }
    if (text.length > 0) push("data", text);
    countLines(pos, start);

    if (kind === "%") {
      RAW_BEGIN.lastIndex = start;
      const raw = RAW_BEGIN.exec(source);
      if (raw !== null) {
        RAW_END.lastIndex = RAW_BEGIN.lastIndex;
        const end = RAW_END.exec(source);
        if (end === null) fail("TemplateSyntaxError", "Missing end of raw directive", line);
        let body = source.slice(RAW_BEGIN.lastIndex, end.index);
        // Jinja's raw-begin match takes the whitespace after `-%}`: a line starts when it ended on a newline.
        const leading = raw[2] === "-" ? (/^\s+/.exec(body)?.[0] ?? "") : "";
        body = body.slice(leading.length);
        if (end[1] === "-") body = body.replace(/\s+$/, "");
        else if (end[1] !== "+" && options.lstripBlocks) {
          const lineStart = body.lastIndexOf("\n") + 1;
          const starting = lineStart > 0 || leading.endsWith("\n");
          if (starting && lineStart < body.length && /^\s+$/.test(body.slice(lineStart)))
            body = body.slice(0, lineStart);
        }
        if (body.length > 0) push("data", body);
        pos = end.index + end[0].length;
        if (end[2] === "-") {
          WHITESPACE.lastIndex = pos;
          if (WHITESPACE.exec(source)) pos = WHITESPACE.lastIndex;
        } else if (options.trimBlocks && source[pos] === "\n") pos++;
        countLines(start, pos);
        lineStarting = source[pos - 1] === "\n";
        continue;
      }
    }

    pos = start + 2 + sign.length;
    if (kind === "#") {
      const end = source.indexOf("#}", pos);
      if (end === -1) fail("TemplateSyntaxError", "Missing end of comment tag", line);
      const before = source[end - 1];
      let after = end + 2;
      if (before === "-" && end - 1 >= pos) {
        WHITESPACE.lastIndex = after;
        if (WHITESPACE.exec(source)) after = WHITESPACE.lastIndex;
      } else if (!(before === "+" && end - 1 >= pos) && options.trimBlocks && source[after] === "\n") after++;
      countLines(pos, after);
      pos = after;
      lineStarting = source[pos - 1] === "\n";
      continue;
    }

    const block = kind === "%";
    push(block ? "block_begin" : "variable_begin", "");
    const balance: string[] = [];
    for (;;) {
      if (pos >= length)
        fail(
          "TemplateSyntaxError",
          `unexpected end of template, expected '${block ? "end of statement block" : "end of print statement"}'.`,
          line,
        );
      const c = source[pos] as string;
      if (balance.length === 0) {
        if (block) {
          if ((c === "-" || c === "+") && source.startsWith("%}", pos + 1)) {
            pos += 3;
            if (c === "-") {
              WHITESPACE.lastIndex = pos;
              if (WHITESPACE.exec(source)) {
                countLines(pos, WHITESPACE.lastIndex);
                pos = WHITESPACE.lastIndex;
              }
            }
            push("block_end", "");
            break;
          }
          if (c === "%" && source[pos + 1] === "}") {
            pos += 2;
            if (options.trimBlocks && source[pos] === "\n") {
              pos++;
              line++;
            }
            push("block_end", "");
            break;
          }
        } else {
          if (c === "-" && source.startsWith("}}", pos + 1)) {
            pos += 3;
            WHITESPACE.lastIndex = pos;
            if (WHITESPACE.exec(source)) {
              countLines(pos, WHITESPACE.lastIndex);
              pos = WHITESPACE.lastIndex;
            }
            push("variable_end", "");
            break;
          }
          if (c === "}" && source[pos + 1] === "}") {
            pos += 2;
            push("variable_end", "");
            break;
          }
        }
      }
      WHITESPACE.lastIndex = pos;
      if (WHITESPACE.exec(source)) {
        countLines(pos, WHITESPACE.lastIndex);
        pos = WHITESPACE.lastIndex;
        continue;
      }
      FLOAT.lastIndex = pos;
      let m = source.charCodeAt(pos - 1) !== 0x2e ? FLOAT.exec(source) : null;
      if (m) {
        push("float", m[0].replace(/_/g, ""));
        pos = FLOAT.lastIndex;
        continue;
      }
      INTEGER.lastIndex = pos;
      m = INTEGER.exec(source);
      if (m) {
        push("integer", m[0].replace(/_/g, ""));
        pos = INTEGER.lastIndex;
        continue;
      }
      NAME.lastIndex = pos;
      m = NAME.exec(source);
      if (m) {
        push("name", m[0]);
        pos = NAME.lastIndex;
        continue;
      }
      STRING.lastIndex = pos;
      m = STRING.exec(source);
      if (m) {
        push("string", decodeStringLiteral(m[1] ?? m[2] ?? ""));
        countLines(pos, STRING.lastIndex);
        pos = STRING.lastIndex;
        continue;
      }
      const two = source.slice(pos, pos + 2);
      const op = OPERATORS2.has(two) ? two : OPERATORS1.has(c) ? c : undefined;
      if (op === undefined) {
        fail("TemplateSyntaxError", `unexpected char ${pyRepr(c)} at ${pos}`, line);
      }
      if (op in OPENERS) balance.push(OPENERS[op] as string);
      else if (op === ")" || op === "]" || op === "}") {
        if (balance.length === 0) fail("TemplateSyntaxError", `unexpected '${op}'`, line);
        const expected = balance.pop();
        if (expected !== op) fail("TemplateSyntaxError", `unexpected '${op}', expected '${expected}'`, line);
      }
      push(op, op);
      pos += op.length;
    }
    lineStarting = source[pos - 1] === "\n";
  }
  tokens.push({ type: "eof", value: "", line });
  return tokens;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
  "\n": "",
};

/** Decodes a string literal's body as Python's `unicode_escape` codec does (Jinja's rule). */
export function decodeStringLiteral(body: string): string {
  if (!body.includes("\\")) return body;
  let out = "";
  let i = 0;
  while (i < body.length) {
    const c = body[i] as string;
    if (c !== "\\") {
      out += c;
      i++;
      continue;
    }
    const e = body[i + 1];
    if (e === undefined) fail("TemplateSyntaxError", "\\ at end of string");
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      i += 2;
      continue;
    }
    if (e >= "0" && e <= "7") {
      const m = /^[0-7]{1,3}/.exec(body.slice(i + 1)) as RegExpExecArray;
      out += String.fromCodePoint(Number.parseInt(m[0], 8));
      i += 1 + m[0].length;
      continue;
    }
    const width = e === "x" ? 2 : e === "u" ? 4 : e === "U" ? 8 : 0;
    if (width > 0) {
      const digits = body.slice(i + 2, i + 2 + width);
      if (!new RegExp(`^[0-9a-fA-F]{${width}}$`).test(digits)) {
        fail("TemplateSyntaxError", `truncated \\${e}${"X".repeat(width)} escape`);
      }
      out += String.fromCodePoint(Number.parseInt(digits, 16));
      i += 2 + width;
      continue;
    }
    if (e === "N") fail("TemplateSyntaxError", "\\N{...} escapes are not supported");
    out += `\\${e}`;
    i += 2;
  }
  return out;
}
