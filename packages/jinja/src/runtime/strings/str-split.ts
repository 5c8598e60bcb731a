import { codePoints } from "../access.js";
import { isStr, strText } from "../markup.js";
import { typeName } from "../python-values.js";
import { checkLength } from "../render-budget.js";
import { fail } from "../template-error.js";
import {
  LEADING_WS,
  LINE_BREAK,
  PY_WHITESPACE,
  stringArgument,
  TRAILING_WS,
  WS_RUN,
} from "./str-arguments.js";

/** Python's splitting, stripping, replacing and translating of `str`. */

/** Python's `str.strip` family. */
export function stripString(
  text: string,
  chars: unknown,
  side: "both" | "left" | "right",
  method = "strip",
): string {
  if (chars === null || chars === undefined) {
    let out = text;
    if (side !== "right") out = out.replace(LEADING_WS, "");
    if (side !== "left") out = out.replace(TRAILING_WS, "");
    return out;
  }
  const set = new Set(codePoints(stringArgument(chars, `${method} arg must be None or str`)));
  const cps = codePoints(text);
  let start = 0;
  let end = cps.length;
  if (side !== "right") while (start < end && set.has(cps[start] as string)) start++;
  if (side !== "left") while (end > start && set.has(cps[end - 1] as string)) end--;
  return cps.slice(start, end).join("");
}

/** Python's `str.split`. */
export function splitString(text: string, sep: unknown, maxsplit: number): string[] {
  if (sep === null || sep === undefined) {
    const out: string[] = [];
    let rest = text.replace(LEADING_WS, "");
    while (rest.length > 0) {
      if (maxsplit >= 0 && out.length === maxsplit) {
        out.push(rest);
        return out;
      }
      const m = WS_RUN.exec(rest);
      if (m === null) {
        out.push(rest);
        break;
      }
      out.push(rest.slice(0, m.index));
      rest = rest.slice(m.index + m[0].length);
    }
    return out;
  }
  const separator = stringArgument(sep, `must be str or None, not ${typeName(sep)}`);
  if (separator === "") fail("ValueError", "empty separator");
  if (maxsplit < 0) return text.split(separator);
  const out: string[] = [];
  let rest = text;
  while (out.length < maxsplit) {
    const at = rest.indexOf(separator);
    if (at === -1) break;
    out.push(rest.slice(0, at));
    rest = rest.slice(at + separator.length);
  }
  out.push(rest);
  return out;
}

export function rsplitString(text: string, sep: unknown, maxsplit: number): string[] {
  if (maxsplit < 0) return splitString(text, sep, -1);
  if (sep === null || sep === undefined) {
    const out: string[] = [];
    let rest = text.replace(TRAILING_WS, "");
    const last = new RegExp(`[${PY_WHITESPACE}]+(?=[^${PY_WHITESPACE}]*$)`);
    while (rest.length > 0) {
      if (out.length === maxsplit) {
        out.unshift(rest);
        return out;
      }
      const m = last.exec(rest);
      if (m === null) {
        out.unshift(rest);
        break;
      }
      out.unshift(rest.slice(m.index + m[0].length));
      rest = rest.slice(0, m.index);
    }
    return out;
  }
  const separator = stringArgument(sep, `must be str or None, not ${typeName(sep)}`);
  if (separator === "") fail("ValueError", "empty separator");
  const out: string[] = [];
  let rest = text;
  while (out.length < maxsplit) {
    const at = rest.lastIndexOf(separator);
    if (at === -1) break;
    out.unshift(rest.slice(at + separator.length));
    rest = rest.slice(0, at);
  }
  out.unshift(rest);
  return out;
}

/** Python's `str.replace`. */
export function replaceString(text: string, old: string, replacement: string, count: number): string {
  if (count < 0) {
    if (old === "")
      return replacement + codePoints(text).join(replacement) + (text.length > 0 ? replacement : "");
    return text.split(old).join(replacement);
  }
  let out = "";
  let rest = text;
  let done = 0;
  if (old === "") {
    const cps = codePoints(text);
    let i = 0;
    while (done < count && i <= cps.length) {
      out += replacement + (cps[i] ?? "");
      i++;
      done++;
    }
    return out + cps.slice(i).join("");
  }
  while (done < count) {
    const at = rest.indexOf(old);
    if (at === -1) break;
    out += rest.slice(0, at) + replacement;
    rest = rest.slice(at + old.length);
    done++;
  }
  return out + rest;
}

export function expandTabs(text: string, tabsize: number): string {
  let out = "";
  let column = 0;
  for (const ch of text) {
    if (ch === "\t") {
      if (tabsize > 0) {
        const spaces = tabsize - (column % tabsize);
        checkLength(out.length + spaces);
        out += " ".repeat(spaces);
        column += spaces;
      }
    } else {
      out += ch;
      column = ch === "\n" || ch === "\r" ? 0 : column + 1;
    }
  }
  return out;
}

export function splitLines(text: string, keepends: boolean): string[] {
  const out: string[] = [];
  LINE_BREAK.lastIndex = 0;
  let last = 0;
  for (let m = LINE_BREAK.exec(text); m !== null; m = LINE_BREAK.exec(text)) {
    out.push(text.slice(last, keepends ? m.index + m[0].length : m.index));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}

export function translateString(text: string, table: unknown): string {
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    let mapped: unknown;
    if (table instanceof Map) {
      if (!table.has(code)) {
        out += ch;
        continue;
      }
      mapped = table.get(code);
    } else if (Array.isArray(table)) {
      if (code >= table.length) {
        out += ch;
        continue;
      }
      mapped = table[code];
    } else return fail("TypeError", `'${typeName(table)}' object is not subscriptable`);
    if (mapped === null) continue;
    if (typeof mapped === "number") out += String.fromCodePoint(mapped);
    else if (isStr(mapped)) out += strText(mapped);
    else fail("TypeError", "character mapping must return integer, None or str");
  }
  return out;
}

export function makeTrans(args: unknown[]): Map<unknown, unknown> {
  const out = new Map<unknown, unknown>();
  if (args.length === 1) {
    const table = args[0];
    if (!(table instanceof Map))
      fail("TypeError", "if you give only one argument to maketrans it must be a dict");
    for (const [k, v] of table) {
      if (isStr(k)) {
        const cps = codePoints(strText(k));
        if (cps.length !== 1) fail("ValueError", "string keys in translate table must be of length 1");
        out.set((cps[0] as string).codePointAt(0), v);
      } else if (typeof k === "number") out.set(k, v);
      else fail("TypeError", "keys in translate table must be strings or integers");
    }
    return out;
  }
  const from = codePoints(stringArgument(args[0], "maketrans() argument 1 must be str"));
  const to = codePoints(stringArgument(args[1], "maketrans() argument 2 must be str"));
  if (from.length !== to.length)
    fail("ValueError", "the first two maketrans arguments must have equal length");
  from.forEach((c, i) => {
    out.set(c.codePointAt(0), (to[i] as string).codePointAt(0));
  });
  if (args.length > 2) {
    for (const c of codePoints(stringArgument(args[2], "maketrans() argument 3 must be str")))
      out.set(c.codePointAt(0), null);
  }
  return out;
}
