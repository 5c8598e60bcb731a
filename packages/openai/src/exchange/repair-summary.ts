import type { ToolcallCallReport, ToolcallReport } from "@toolcall/core/kit";
import type { ArgumentsReport, OpenAIRepairOptions, RepairReport } from "../options.js";

/**
 * The response header (and, at the end of a stream, the SSE comment name) that says what a guarded exchange repaired.
 *
 * @example
 * response.headers.get(REPAIRS_HEADER); // '{"calls":[{"choice":0,"id":"call_1","status":"repaired",…}]}'
 */
export const REPAIRS_HEADER = "x-toolcall-repairs";

/** One call of an answer that was not clean object text, as the summary lists it: core's `ToolcallCallReport`. */
export type RepairedCallSummary = ToolcallCallReport;

/**
 * The repair id of a tool call recovered from the text of `content`, where a server left the model's native syntax.
 *
 * @example
 * summary.addContentCall({ index: 0, id: "call_1", name: "get_weather", syntax: "qwen3-coder" });
 * summary.summary().calls?.[0]?.repairs; // ["content-call"]
 */
export const CONTENT_CALL_REPAIR = "content-call";

/**
 * What one exchange repaired, core's one `ToolcallReport`: history changes counted by rule (`history`), and the
 * answer's calls that were not clean (`calls`).
 */
export type ExchangeSummary = ToolcallReport;

/** A character a header value cannot hold as it is (DEL and everything above ASCII). */
const NOT_ASCII = /[\u007f-\uffff]/;

function callSummary(report: ArgumentsReport): RepairedCallSummary {
  const issue = report.usable ? undefined : report.issues.find((i) => i.severity === "error")?.code;
  // Built field by field, in the order the header shows them (a spread of a fresh object per optional field cost
  // more than the rest of the summary).
  const summary = (
    report.api === "responses" ? { item: report.index } : { choice: report.index }
  ) as RepairedCallSummary;
  if (report.toolCallId !== undefined) summary.id = report.toolCallId;
  if (report.name !== undefined && report.name !== "") summary.name = report.name;
  summary.status = report.status;
  summary.repairs = report.repairs;
  summary.usable = report.usable;
  if (issue !== undefined) summary.issue = issue;
  if (report.fit !== undefined && report.fit !== "exact") summary.fit = report.fit;
  if (report.split !== undefined) summary.split = report.split.map((part) => part.id);
  return summary;
}

/**
 * Collects what one exchange repaired, for the `x-toolcall-repairs` header and the end-of-stream comment, and hands
 * every report on to the caller's `onRepair`.
 *
 * @example
 * const summary = new RepairSummary(options);
 * repairResponseBody({ api, body, options: summary.options });
 * summary.text(); // '{"calls":[…]}' or undefined when nothing was repaired
 * summary.done(); // tells onReport the summary, once
 */
export class RepairSummary {
  readonly #request = new Map<string, number>();
  readonly #response: RepairedCallSummary[] = [];
  /** The caller's options with `onRepair` also recording here (and the request's tools, once `useTools` gave them). */
  options: OpenAIRepairOptions;
  readonly #onReport: ((report: ToolcallReport) => void) | undefined;
  #done = false;

  constructor(options: OpenAIRepairOptions & { onReport?: (report: ToolcallReport) => void } = {}) {
    this.#onReport = options.onReport;
    const forward = options.onRepair;
    // Copied with Object.assign, not an object spread with a field after it: V8 (Node 20) keeps such a spread's
    // object, and what it reaches, alive through a young-generation collection, one per stream.
    this.options = Object.assign({}, options, {
      onRepair: (report: RepairReport) => {
        this.add(report);
        forward?.(report);
      },
    });
  }

  add(report: RepairReport): void {
    if (report.kind === "history") {
      const rule = report.change.rule;
      this.#request.set(rule, (this.#request.get(rule) ?? 0) + 1);
    } else this.#response.push(callSummary(report));
  }

  /**
   * Records a call recovered from content: `status: "recovered"`, repair `content-call`, and the syntax it was
   * written in.
   *
   * @example
   * summary.addContentCall({ index: 0, id: "call_1", name: "patch", syntax: "gemma4" });
   */
  addContentCall(call: { index: number; id?: string; name?: string; syntax: string }): void {
    this.#response.push({
      choice: call.index,
      ...(call.id === undefined ? {} : { id: call.id }),
      ...(call.name === undefined || call.name === "" ? {} : { name: call.name }),
      status: "recovered",
      repairs: [CONTENT_CALL_REPAIR],
      usable: true,
      syntax: call.syntax,
    });
  }

  /** Whether anything was recorded. */
  get empty(): boolean {
    return this.#request.size === 0 && this.#response.length === 0;
  }

  summary(): ExchangeSummary {
    return {
      ...(this.#request.size === 0 ? {} : { history: Object.fromEntries(this.#request) }),
      ...(this.#response.length === 0 ? {} : { calls: [...this.#response] }),
    };
  }

  /** The answer's calls are typed by these tools' schemas (the request's, when the caller named none). */
  useTools(tools: readonly unknown[]): void {
    this.options = Object.assign({}, this.options, { tools });
  }

  /** The exchange is over: `onReport` is told the summary, once, when anything was recorded. */
  done(): void {
    if (this.#done) return;
    this.#done = true;
    if (!this.empty) this.#onReport?.(this.summary());
  }

  /** The summary as JSON text of ASCII only (a header value), or `undefined` when nothing was recorded. */
  text(): string | undefined {
    if (this.empty) return undefined;
    const json = JSON.stringify(this.summary());
    // Names and ids are nearly always ASCII: one search, and the text as it is.
    if (!NOT_ASCII.test(json)) return json;
    return json.replace(
      /[\u007f-\uffff]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
  }
}
