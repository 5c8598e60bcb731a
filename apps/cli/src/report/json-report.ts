import type { ReportStream } from "./report-stream.js";

/**
 * The `--json` report of `check` and `repair`: `{"command":…,"findings":[…],"files":[…],"summary":{…}}`, each
 * finding written the moment it is found, so a report of millions of findings is never held whole.
 *
 * @example
 * const json = new JsonReport(report, "check");
 * json.finding(JSON.stringify(finding));
 * json.end(files, summary);
 */
export class JsonReport {
  readonly #report: ReportStream;
  #written = 0;

  constructor(report: ReportStream, command: "check" | "repair") {
    this.#report = report;
    report.write(`{"command":"${command}","findings":[`);
  }

  /** One finding, already as JSON text. */
  finding(json: string): void {
    this.#report.write(`${this.#written === 0 ? "" : ","}\n${json}`);
    this.#written++;
  }

  end(files: unknown, summary: unknown): void {
    this.#report.write(
      `${this.#written === 0 ? "" : "\n"}],"files":${JSON.stringify(files)},"summary":${JSON.stringify(summary)}}\n`,
    );
  }
}
