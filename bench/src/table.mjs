/** Markdown table output, columns padded so the table also reads well in a terminal. */

export function markdownTable(header, rows) {
  const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => String(r[c]).length)));
  const line = (cells) => `| ${cells.map((cell, c) => String(cell).padEnd(widths[c])).join(" | ")} |`;
  return [line(header), `|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`, ...rows.map(line)].join("\n");
}

const grouped = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** 1234567 → "1,234,567"; small values keep 3 significant digits. */
export function formatOps(value) {
  if (value >= 100) return grouped.format(value);
  return value.toPrecision(3);
}

export function formatMBps(bytesPerSecond) {
  const mb = bytesPerSecond / 1e6;
  return mb >= 100 ? mb.toFixed(0) : mb.toFixed(1);
}

export function formatBytes(bytes) {
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  if (bytes < 1e6) return `${(bytes / 1000).toFixed(1)} KB`;
  return `${(bytes / 1e6).toFixed(2)} MB`;
}

export const ratio = (value) => `${value.toFixed(2)}×`;
export const spread = (min, max) => `${min.toFixed(2)}–${max.toFixed(2)}`;
