import type { ArgumentsReport, OpenAIRepairOptions, RepairReport } from "./options.js";

/**
 * The response header (and, at the end of a stream, the SSE comment name) that says what a guarded exchange repaired.
 *
 * @example
 * response.headers.get(REPAIRS_HEADER); // '{"response":[{"choice":0,"id":"call_1","status":"repaired",…}]}'
 */
export const REPAIRS_HEADER = "x-toolcall-repairs";

/** One call of an answer that was not clean object text, as the summary lists it. */
export interface RepairedCallSummary {
  /** Chat Completions: the choice the call is in (the call itself is named by `id`). */
  choice?: number;
  /** Responses API: the output item the call is. */
  item?: number;
  id?: string;
  name?: string;
  /** Core's decode status (`repaired`, `empty`, `truncated`, `invalid`, …). */
  status: string;
  /** The repairs applied, in order. */
  repairs: string[];
  /** Whether a tool can run on the call as the client got it. */
  usable: boolean;
  /** Why it cannot: the first R3 issue code (`arguments_truncated`, `arguments_invalid_json`, …). */
  issue?: string;
  /** Streams: how the client's text ends, when not byte for byte the repaired text. */
  fit?: "equivalent" | "conflict";
  /** A call recovered from content (repair `content-call`): the id of the tool-call syntax it was written in. */
  syntax?: string;
  /** Calls merged into this one's arguments (repair `call_split`): the ids of the calls it became, its own first. */
  split?: string[];
}

/**
 * The repair id of a tool call recovered from the text of `content`, where a server left the model's native syntax.
 *
 * @example
 * summary.addContentCall({ index: 0, id: "call_1", name: "get_weather", syntax: "qwen3-coder" });
 * summary.summary().response?.[0]?.repairs; // ["content-call"]
 */
export const CONTENT_CALL_REPAIR = "content-call";

/** What one exchange repaired: history changes counted by rule, and the answer's calls that were not clean. */
export interface ExchangeSummary {
  request?: Record<string, number>;
  response?: RepairedCallSummary[];
}

function callSummary(report: ArgumentsReport): RepairedCallSummary {
  const issue = report.usable ? undefined : report.issues.find((i) => i.severity === "error")?.code;
  return {
    ...(report.api === "responses" ? { item: report.index } : { choice: report.index }),
    ...(report.toolCallId === undefined ? {} : { id: report.toolCallId }),
    ...(report.name === undefined || report.name === "" ? {} : { name: report.name }),
    status: report.status,
    repairs: report.repairs,
    usable: report.usable,
    ...(issue === undefined ? {} : { issue }),
    ...(report.fit === undefined || report.fit === "exact" ? {} : { fit: report.fit }),
    ...(report.split === undefined ? {} : { split: report.split.map((part) => part.id) }),
  };
}

/**
 * Collects what one exchange repaired, for the `x-toolcall-repairs` header and the end-of-stream comment, and hands
 * every report on to the caller's `onRepair`.
 *
 * @example
 * const summary = new RepairSummary(options);
 * repairResponseBody({ api, body, options: summary.options });
 * summary.text(); // '{"response":[…]}' or undefined when nothing was repaired
 */
export class RepairSummary {
  readonly #request = new Map<string, number>();
  readonly #response: RepairedCallSummary[] = [];
  /** The caller's options with `onRepair` also recording here. */
  readonly options: OpenAIRepairOptions;

  constructor(options: OpenAIRepairOptions = {}) {
    const forward = options.onRepair;
    this.options = {
      ...options,
      onRepair: (report: RepairReport) => {
        this.add(report);
        forward?.(report);
      },
    };
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
      ...(this.#request.size === 0 ? {} : { request: Object.fromEntries(this.#request) }),
      ...(this.#response.length === 0 ? {} : { response: [...this.#response] }),
    };
  }

  /** The summary as JSON text of ASCII only (a header value), or `undefined` when nothing was recorded. */
  text(): string | undefined {
    if (this.empty) return undefined;
    return JSON.stringify(this.summary()).replace(
      /[\u007f-\uffff]/g,
      (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
  }
}
