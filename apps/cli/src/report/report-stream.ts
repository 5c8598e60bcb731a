import { type OutputTarget, streamTarget } from "@toolcall/files/parts";
import type { Progress } from "./progress.js";

/**
 * Where a report goes (standard output, or standard error when the repaired data takes standard output). On a
 * terminal every line shows at once and the progress line is erased first; to a pipe or a file the report is
 * batched and written with backpressure, so a report of millions of findings keeps memory flat.
 *
 * @example
 * const report = new ReportStream({ stream: process.stdout });
 * report.write("1 file, 1 conversation\n");
 * await report.end();
 */
export class ReportStream {
  private readonly stream: NodeJS.WriteStream | NodeJS.WritableStream;
  private readonly terminal: boolean;
  private readonly target: OutputTarget | undefined;
  progress: Progress | undefined;

  constructor(options: { stream: NodeJS.WriteStream | NodeJS.WritableStream; progress?: Progress }) {
    this.stream = options.stream;
    this.terminal = (options.stream as NodeJS.WriteStream).isTTY === true;
    this.target = this.terminal ? undefined : streamTarget(options.stream);
    this.progress = options.progress;
  }

  /** True when the report goes to a terminal (colors may apply). */
  get isTTY(): boolean {
    return this.terminal;
  }

  write(text: string): void {
    if (this.target) {
      this.target.write(text);
      return;
    }
    this.progress?.clear();
    this.stream.write(text);
  }

  flushIfFull(): Promise<void> | undefined {
    return this.target?.flushIfFull();
  }

  async end(): Promise<void> {
    await this.target?.commit();
  }
}
