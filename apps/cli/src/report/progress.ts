/**
 * Bytes for people: `1.5 GB`, `812 kB` (SI units, as file managers and `ls -h --si` show them); with `binary`,
 * powers of 1024 (`16 MiB`, `1 GiB`: how limits set in those units read back), a whole number without decimals.
 *
 * @example
 * formatBytes(1_500_000_000); // "1.5 GB"
 * formatBytes(16 * 1024 ** 2, { binary: true }); // "16 MiB"
 */
export function formatBytes(bytes: number, options: { binary?: boolean } = {}): string {
  const binary = options.binary === true;
  const base = binary ? 1024 : 1000;
  const units = binary ? ["B", "KiB", "MiB", "GiB", "TiB"] : ["B", "kB", "MB", "GB", "TB"];
  let value = bytes;
  let unit = 0;
  while (value >= base && unit < units.length - 1) {
    value /= base;
    unit++;
  }
  const whole = unit === 0 || (binary && Number.isInteger(value));
  return `${whole ? value : value.toFixed(value >= 100 ? 0 : 1)} ${units[unit]}`;
}

/** A terminal stream as far as the progress line needs one. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): boolean;
}

/**
 * One status line on a terminal, redrawn at most ten times a second: a bar and percentage when the size is known,
 * then bytes, lines and the rate. Drawn only when the stream is a terminal; {@link clear} before printing anything
 * else to the same terminal.
 *
 * Hand-written rather than a progress-bar library: it is one line of text rewritten with `\r`, but it must work
 * without a known total (standard input), show a rate the libraries do not compute, stay off pipes, and share the
 * terminal with a report printed while it runs; adapting a library to that takes more code than this.
 *
 * @example
 * const progress = new Progress({ stream: process.stderr, label: "repair big.jsonl", total: 10_000_000 });
 * progress.update({ bytes: 5_000_000, lines: 1200 }); // [##########----------]  50%  5.0 MB / 10 MB  1,200 lines  48 MB/s
 * progress.done();
 */
export class Progress {
  private readonly stream: ProgressStream;
  private readonly label: string;
  private readonly total: number | undefined;
  private readonly enabled: boolean;
  private readonly started = performance.now();
  private lastDraw = 0;
  private drawn = false;
  private bytes = 0;
  private lines = 0;

  constructor(options: { stream: ProgressStream; label: string; total?: number; enabled: boolean }) {
    this.stream = options.stream;
    this.label = options.label;
    this.total = options.total;
    this.enabled = options.enabled && options.stream.isTTY === true;
  }

  update(progress: { bytes: number; lines: number }): void {
    this.bytes = progress.bytes;
    this.lines = progress.lines;
    if (!this.enabled) return;
    const now = performance.now();
    // Nothing flickers by for small inputs: the line appears only after a quarter of a second.
    if (now - this.started < 250 || now - this.lastDraw < 100) return;
    this.lastDraw = now;
    this.draw(now);
  }

  /** Erases the line (before other output on the same terminal); the next update draws it again. */
  clear(): void {
    if (this.drawn) {
      this.stream.write("\r\x1b[K");
      this.drawn = false;
    }
  }

  done(): void {
    this.clear();
  }

  private draw(now: number): void {
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? this.bytes / seconds : 0;
    const parts = [this.label];
    if (this.total !== undefined && this.total > 0) {
      const fraction = Math.min(1, this.bytes / this.total);
      const width = 20;
      const filled = Math.round(fraction * width);
      parts.push(`[${"#".repeat(filled)}${"-".repeat(width - filled)}]`);
      parts.push(`${String(Math.floor(fraction * 100)).padStart(3)}%`);
      parts.push(`${formatBytes(this.bytes)} / ${formatBytes(this.total)}`);
    } else {
      parts.push(formatBytes(this.bytes));
    }
    parts.push(`${this.lines.toLocaleString("en-US")} lines`, `${formatBytes(rate)}/s`);
    let text = parts.join("  ");
    const columns = this.stream.columns || 80;
    if (text.length > columns - 1) text = text.slice(0, Math.max(0, columns - 1));
    this.stream.write(`\r\x1b[K${text}`);
    this.drawn = true;
  }
}
