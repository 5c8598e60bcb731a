// Tool (a) on the page: the render (tokens and whitespace visible, a copy button for the exact text), the error as
// Python shows it, the probe's capabilities and the detected syntax.

import { byId, copyButton, fill, h } from "./dom.js";
import type { PythonError, TemplateReport } from "./template-tool.js";
import { textView } from "./text-view.js";

const CAPABILITY_NOTES: Record<string, string> = {
  argumentsForm: "how arguments reach it: a mapping, or JSON text",
  toolCalls: "an assistant message's calls show up",
  parallelToolCalls: "two calls in one message both show up",
  toolCallIds: "a call's id shows up",
  toolResponses: "a tool message's content shows up",
  systemRole: "a system message shows up",
  nullContent: "content: null beside calls renders",
  tools: "the tool list shows up",
};

/**
 * An error block, as Python shows it (the last line of its traceback).
 *
 * @example
 * pythonErrorView(pythonError("TypeError", "can only concatenate str (not \"dict\") to str"));
 */
export function pythonErrorView(error: PythonError): HTMLElement {
  return h(
    "div",
    { class: "py-error", "data-testid": "python-error", "data-python": error.pythonText },
    h("div", { class: "meta" }, "Python raises (as transformers' apply_chat_template would):"),
    h("pre", {}, `Traceback (most recent call last):\n  …\n${error.tracebackLine}`),
  );
}

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/**
 * Shows a report of tool (a).
 *
 * @example
 * showTemplateReport(runTemplateTool(inputs), { whitespace: true });
 */
export function showTemplateReport(report: TemplateReport, options: { whitespace: boolean }): void {
  fill(byId("template-errors"), ...report.inputs.errors.map((line) => h("p", { class: "error" }, line)));
  fill(
    byId("render-notes"),
    ...report.argumentNotes.map((note) =>
      h("p", { class: "warning", "data-status": note.status }, `${note.place} ${note.message}`),
    ),
  );
  const render = report.render;
  if (render === undefined) {
    fill(byId("render"), h("p", { class: "meta" }, "Nothing to render until the inputs read."));
    fill(byId("render-copy"));
    fill(byId("render-size"));
  } else if (render.ok) {
    const text = render.text;
    fill(
      byId("render"),
      textView(text, { whitespace: options.whitespace, tokens: report.tokens, testId: "render-text" }),
    );
    byId("render").dataset.text = text;
    fill(
      byId("render-copy"),
      copyButton("Copy", () => text, "copy-render"),
    );
    fill(
      byId("render-size"),
      `${text.length.toLocaleString("en")} characters, ${byteLength(text).toLocaleString("en")} bytes (UTF-8)`,
    );
  } else {
    fill(byId("render"), pythonErrorView(render.error));
    fill(
      byId("render-copy"),
      copyButton("Copy error", () => render.error.pythonText, "copy-error"),
    );
    fill(byId("render-size"));
  }
  const capabilities = report.capabilities;
  fill(
    byId("capabilities"),
    capabilities
      ? h(
          "table",
          {},
          ...Object.entries(capabilities).map(([key, value]) =>
            h(
              "tr",
              { "data-capability": key },
              h("th", {}, key),
              h("td", { class: value === false ? "no" : "yes" }, String(value)),
              h("td", { class: "meta" }, CAPABILITY_NOTES[key] ?? ""),
            ),
          ),
        )
      : h("p", { class: "meta" }, "The probe could not render this template."),
  );
  const detected = report.detected;
  if (detected === undefined) {
    fill(byId("detected"), h("p", { class: "meta" }, "—"));
    return;
  }
  fill(
    byId("detected"),
    h(
      "p",
      {},
      h("strong", { "data-testid": "detected-id" }, detected.id ?? "none found"),
      detected.module ? ` from ${detected.module}` : "",
      ` (by ${detected.method}; parallel calls: ${detected.parallelCalls ? "yes" : "no"}; the generation prompt opens reasoning: ${detected.startInReasoning ? "yes" : "no"})`,
    ),
    detected.candidates.length > 1
      ? h("p", { class: "meta" }, `candidates: ${detected.candidates.join(", ")}`)
      : null,
    detected.callText !== null
      ? h(
          "div",
          {},
          h("div", { class: "meta" }, "One call, as the template writes it:"),
          textView(detected.callText, { whitespace: options.whitespace, tokens: report.tokens }),
        )
      : null,
  );
}
