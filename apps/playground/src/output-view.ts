// Tool (b) on the page: the parse (calls, content, reasoning, issues) and the round trip, expected and rendered side
// by side with the first differing character marked and its UTF-8 byte offset given.
import type { SyntaxParseResult } from "@toolcall/core/kit";
import { byId, copyButton, fill, h } from "./dom.js";
import type { OutputReport } from "./output-tool.js";
import { textView } from "./text-view.js";
import { utf8Offset } from "./visible-text.js";

function prettyArguments(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function parsedView(parsed: SyntaxParseResult, whitespace: boolean): HTMLElement[] {
  const block = (label: string, value: string | null, testId: string) =>
    h(
      "div",
      { class: "field", "data-testid": testId },
      h("div", { class: "meta" }, label),
      value === null ? h("p", { class: "meta" }, "null") : textView(value, { whitespace }),
    );
  return [
    h(
      "div",
      { "data-testid": "tool-calls" },
      h(
        "div",
        { class: "meta" },
        `${parsed.toolCalls.length} tool call${parsed.toolCalls.length === 1 ? "" : "s"}`,
      ),
      ...parsed.toolCalls.map((call, index) =>
        h(
          "div",
          { class: "call", "data-testid": "tool-call" },
          h(
            "div",
            {},
            h("strong", { "data-testid": "call-name" }, call.function.name),
            ` #${index} · id ${call.id}`,
          ),
          h(
            "pre",
            { "data-testid": "call-arguments", "data-arguments": call.function.arguments },
            prettyArguments(call.function.arguments),
          ),
        ),
      ),
    ),
    block("content", parsed.content, "content"),
    block("reasoning", parsed.reasoning, "reasoning"),
    h(
      "div",
      { "data-testid": "parse-issues" },
      h("div", { class: "meta" }, `${parsed.issues.length} issue${parsed.issues.length === 1 ? "" : "s"}`),
      h(
        "ul",
        {},
        ...parsed.issues.map((issue) =>
          h("li", { class: issue.severity }, `${issue.code} (${issue.severity}): ${issue.message}`),
        ),
      ),
    ),
  ];
}

/**
 * Shows a report of tool (b).
 *
 * @example
 * showOutputReport(runOutputTool(inputs), { whitespace: true });
 */
export function showOutputReport(report: OutputReport, options: { whitespace: boolean }): void {
  fill(
    byId("output-errors"),
    ...report.errors.map((line) => h("p", { class: "error" }, line)),
    report.problem ? h("p", { class: "error" }, report.problem) : null,
  );
  const syntaxLine = report.syntax
    ? h("p", { class: "meta", "data-testid": "syntax-used" }, `${report.syntax.id}: ${report.syntax.name}`)
    : null;
  fill(byId("parsed"), syntaxLine, ...(report.parsed ? parsedView(report.parsed, options.whitespace) : []));
  const trip = report.roundTrip;
  if (trip === undefined || report.expected === undefined) {
    fill(byId("round-trip"), h("p", { class: "meta" }, "—"));
    return;
  }
  if (trip.error !== undefined) {
    fill(
      byId("round-trip"),
      h(
        "p",
        { class: "error", "data-testid": "round-trip-verdict", "data-ok": "false" },
        `The check could not run: ${trip.error}`,
      ),
    );
    return;
  }
  const output = report.expected.slice(trip.generationPrompt.length);
  const verdict = trip.ok
    ? h(
        "p",
        { class: "ok", "data-testid": "round-trip-verdict", "data-ok": "true" },
        `Identical: the template renders the parsed message back to the generation prompt and the output, byte for byte (arguments as ${trip.argumentsForm}).`,
      )
    : h(
        "p",
        {
          class: "error",
          "data-testid": "round-trip-verdict",
          "data-ok": "false",
          "data-first-difference": String(trip.firstDifference),
        },
        trip.inPrompt
          ? "Different already in the generation prompt (the template renders a past turn's header otherwise)."
          : `Different at character ${trip.firstDifference} of the output (byte ${utf8Offset(output, trip.firstDifference)} in UTF-8; arguments as ${trip.argumentsForm}).`,
      );
  const mark = trip.ok ? undefined : trip.inPrompt ? 0 : trip.generationPrompt.length + trip.firstDifference;
  fill(
    byId("round-trip"),
    verdict,
    h(
      "div",
      { class: "side-by-side" },
      h(
        "div",
        {},
        h("div", { class: "meta" }, "Expected: the generation prompt, then the output"),
        textView(report.expected, {
          whitespace: options.whitespace,
          ...(mark === undefined ? {} : { mark }),
          testId: "expected-text",
        }),
      ),
      h(
        "div",
        {},
        h(
          "div",
          { class: "meta" },
          "Rendered: the template's assistant turn for the parsed message ",
          copyButton("Copy", () => trip.rendered),
        ),
        textView(trip.rendered, {
          whitespace: options.whitespace,
          ...(mark === undefined ? {} : { mark }),
          testId: "rendered-text",
        }),
      ),
    ),
  );
}
