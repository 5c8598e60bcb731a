import type { Painter } from "./colors.js";

/**
 * A count and its noun for people: `1 error`, `2 errors`, `12,345 conversations`.
 *
 * @example
 * plural(1, "error"); // "1 error"
 * plural(12345, "line"); // "12,345 lines"
 */
export function plural(count: number, word: string): string {
  return `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;
}

/**
 * A titled table of counts, largest first (ties by name), counts right-aligned: the "By code:" of `check` and the
 * "By rule:" of `repair`. No lines when there is nothing to count.
 *
 * @example
 * countTable("By rule:", { "R2 decode": 3, "R1 absent": 12 }, createPainter({ stream: { isTTY: false } }));
 * // ["By rule:", "  12  R1 absent", "   3  R2 decode"]
 */
export function countTable(
  title: string,
  counts: Readonly<Record<string, number>>,
  paint: Painter,
): string[] {
  const rows = Object.entries(counts).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  if (rows.length === 0) return [];
  const width = Math.max(...rows.map(([, count]) => String(count).length));
  return [
    paint("bold", title),
    ...rows.map(([name, count]) => `  ${String(count).padStart(width)}  ${name}`),
  ];
}

/**
 * How a command's closing summary opens: its table of counts, then how many findings `--max-findings` kept back.
 *
 * @example
 * summaryHead("By code:", { arguments_invalid_json: 2 }, 0, createPainter({ stream: { isTTY: false } }));
 * // ["By code:", "  2  arguments_invalid_json"]
 */
export function summaryHead(
  title: string,
  counts: Readonly<Record<string, number>>,
  notShown: number,
  paint: Painter,
): string[] {
  const lines = countTable(title, counts, paint);
  if (notShown > 0)
    lines.push(paint("yellow", `${plural(notShown, "more finding")} not shown (--max-findings)`));
  return lines;
}
