import { codePoints } from "../runtime/access.js";
import { order } from "../runtime/operators.js";
import { pyRepr } from "../runtime/python-repr.js";
import { typeName } from "../runtime/python-values.js";
import { TemplateError } from "../runtime/template-error.js";
import { isTuple, tupleFields } from "../runtime/tuple.js";

/**
 * Python's `pprint.pformat(value)` (width 80, indent 1, dicts sorted), as Jinja's `pprint` filter prints: a value
 * whose repr fits on a line prints as its repr; a longer list, tuple or dict breaks one item per line, and a long
 * string splits into adjacent literals.
 */

const WIDTH = 80;

/** pprint's `_safe_key`: `<` where Python can, else the type's name (then insertion order, for `id`). */
function safeCompare(a: { key: unknown; at: number }, b: { key: unknown; at: number }): number {
  try {
    const c = order(a.key, b.key);
    if (c !== 0) return c;
  } catch (error) {
    if (!TemplateError.isInstance(error) || error.type !== "TypeError") throw error;
    const ta = `<class '${typeName(a.key)}'>`;
    const tb = `<class '${typeName(b.key)}'>`;
    if (ta !== tb) return ta < tb ? -1 : 1;
  }
  return a.at - b.at;
}

function sortedItems(map: Map<unknown, unknown>): [unknown, unknown][] {
  const entries = Array.from(map, ([key, value], at) => ({ key, value, at }));
  entries.sort(safeCompare);
  return entries.map((e) => [e.key, e.value]);
}

/** pprint's `_safe_repr`: a repr with every dict's items sorted. */
function safeRepr(value: unknown): string {
  if (value instanceof Map) {
    return `{${sortedItems(value)
      .map(([k, v]) => `${safeRepr(k)}: ${safeRepr(v)}`)
      .join(", ")}}`;
  }
  // groupby's `_GroupTuple` has a `__repr__` of its own: pprint prints it by `repr()`, its dicts unsorted.
  if (Array.isArray(value) && tupleFields(value) === undefined) {
    const parts = value.map(safeRepr);
    if (isTuple(value)) return parts.length === 1 ? `(${parts[0]},)` : `(${parts.join(", ")})`;
    return `[${parts.join(", ")}]`;
  }
  return pyRepr(value);
}

const length = (text: string) => codePoints(text).length;

function formatString(text: string, indent: number, allowance: number, level: number): string {
  if (text.length === 0) return pyRepr(text);
  const lines =
    text.match(
      /[^\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]*(?:\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]|$)/g,
    ) ?? [];
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  let chunkIndent = indent;
  let chunkAllowance = allowance;
  if (level === 1) {
    chunkIndent += 1;
    chunkAllowance += 1;
  }
  const maxWidth = WIDTH - chunkIndent;
  let maxWidth1 = maxWidth;
  const chunks: string[] = [];
  let rep = "";
  lines.forEach((line, i) => {
    rep = pyRepr(line);
    if (i === lines.length - 1) maxWidth1 -= chunkAllowance;
    if (length(rep) <= maxWidth1) {
      chunks.push(rep);
      return;
    }
    const parts = line.match(/\S*\s*/g) ?? [];
    parts.pop();
    let maxWidth2 = maxWidth;
    let current = "";
    parts.forEach((part, j) => {
      const candidate = current + part;
      if (j === parts.length - 1 && i === lines.length - 1) maxWidth2 -= chunkAllowance;
      if (length(pyRepr(candidate)) > maxWidth2) {
        if (current) chunks.push(pyRepr(current));
        current = part;
      } else current = candidate;
    });
    if (current) chunks.push(pyRepr(current));
  });
  if (chunks.length === 1) return rep;
  const body = chunks.join(`\n${" ".repeat(chunkIndent)}`);
  return level === 1 ? `(${body})` : body;
}

function formatItems(items: unknown[], indent: number, allowance: number, level: number): string {
  const inner = indent + 1;
  let out = "";
  items.forEach((item, i) => {
    const last = i === items.length - 1;
    if (i > 0) out += `,\n${" ".repeat(inner)}`;
    out += format(item, inner, last ? allowance : 1, level);
  });
  return out;
}

function format(value: unknown, indent: number, allowance: number, level: number): string {
  const rep = safeRepr(value);
  if (length(rep) <= WIDTH - indent - allowance) return rep;
  const next = level + 1;
  if (value instanceof Map) {
    if (value.size === 0) return "{}";
    const inner = indent + 1;
    const items = sortedItems(value);
    const parts = items.map(([k, v], i) => {
      const key = safeRepr(k);
      const last = i === items.length - 1;
      return `${key}: ${format(v, inner + length(key) + 2, last ? allowance + 1 : 1, next)}`;
    });
    return `{${parts.join(`,\n${" ".repeat(inner)}`)}}`;
  }
  if (Array.isArray(value) && tupleFields(value) === undefined) {
    if (isTuple(value)) {
      const end = value.length === 1 ? ",)" : ")";
      return `(${formatItems(value, indent, allowance + end.length, next)}${end}`;
    }
    return `[${formatItems(value, indent, allowance + 1, next)}]`;
  }
  if (typeof value === "string") return formatString(value, indent, allowance, next);
  return rep;
}

/**
 * `pprint.pformat(value)`.
 *
 * @example
 * pformat(toPython({ b: 1, a: [1, 2] })); // "{'a': [1, 2], 'b': 1}"
 */
export function pformat(value: unknown): string {
  return format(value, 0, 0, 0);
}
