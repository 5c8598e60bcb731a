// Tool (c) on the page: per conversation, the provider's refusals in its own words, which providers refuse the
// history, the repair's changes; per record, its format's own findings and the repaired record as a diff (with a
// copy button for it).
import type { RecordIssue } from "@toolcall/core";
import { issuePlace } from "@toolcall/core/kit";
import { ANY_PROVIDER, type ChatReport, type ConversationReport, type RecordReport } from "./chat-tool.js";
import { byId, copyButton, fill, h } from "./dom.js";

function issueRow(issue: RecordIssue): HTMLElement {
  const answer = issue.answers?.[0];
  return h(
    "li",
    { class: "issue", "data-testid": "issue", "data-code": issue.code },
    h("code", {}, issue.code),
    answer !== undefined ? h("span", { class: "status" }, ` HTTP ${answer.status}`) : ` (${issue.severity})`,
    h("span", { class: "meta" }, ` at ${issuePlace(issue) ?? "the record"}`),
    h("pre", { class: "literal", "data-testid": "issue-message" }, issue.message),
  );
}

function diffView(report: RecordReport): HTMLElement {
  const diff = h("pre", { class: "diff-view", "data-testid": "history-diff" });
  for (const part of report.diff) {
    const sign = part.added ? "+" : part.removed ? "-" : " ";
    const lines = part.value.replace(/\n$/, "").split("\n");
    diff.append(
      h(
        "span",
        { class: part.added ? "added" : part.removed ? "removed" : "same" },
        `${lines.map((line) => `${sign} ${line}`).join("\n")}\n`,
      ),
    );
  }
  return diff;
}

function conversationView(report: ConversationReport, provider: string): HTMLElement {
  const who = report.answer ? "Core" : provider === ANY_PROVIDER ? "A strict provider" : provider;
  // Warnings (a call awaiting its result, arguments kept raw) do not make a provider refuse the history.
  const errorsLeft = report.remaining.filter((issue) => issue.severity === "error").length;
  return h(
    "section",
    { class: "conversation", "data-testid": "conversation" },
    report.label ? h("h4", {}, report.label) : null,
    report.answer
      ? h("p", { class: "meta" }, "A model's answer: no provider reads it as a request; core's checks apply.")
      : null,
    h(
      "p",
      { "data-testid": "issue-count" },
      report.issues.length === 0
        ? `${who} accepts this history.`
        : `${who} refuses it: ${report.issues.length} issue${report.issues.length === 1 ? "" : "s"}.`,
    ),
    h("ul", { class: "issues" }, ...report.issues.map(issueRow)),
    h(
      "p",
      { class: "meta", "data-testid": "verdict" },
      report.verdict.rejectedBy.length === 0
        ? "No provider profile refuses it."
        : `Refused by ${report.verdict.rejectedBy.length} of ${report.verdict.rejectedBy.length + report.verdict.acceptedBy.length} provider profiles: ${report.verdict.rejectedBy.join(", ")}.`,
    ),
    h("h4", {}, `Repaired (${report.changes.length} change${report.changes.length === 1 ? "" : "s"})`),
    h(
      "ul",
      { class: "changes", "data-testid": "changes" },
      ...report.changes.map((change) =>
        h(
          "li",
          { "data-rule": change.rule },
          h("code", {}, change.rule),
          ` message ${change.messageIndex}`,
          change.callId ? `, call ${change.callId}` : "",
          change.constraint ? ` (for ${change.constraint})` : "",
          change.repairs?.length ? ` — repairs: ${change.repairs.join(", ")}` : "",
        ),
      ),
    ),
    h(
      "p",
      { class: errorsLeft === 0 ? "ok" : "error", "data-testid": "remaining" },
      errorsLeft === 0
        ? `${who} accepts the repaired history.`
        : `${errorsLeft} error${errorsLeft === 1 ? "" : "s"} left after the repair.`,
    ),
  );
}

function recordView(report: RecordReport, provider: string): HTMLElement {
  const repaired = report.repaired;
  return h(
    "section",
    { class: "record", "data-testid": "record", "data-format": report.format.id },
    h(
      "h3",
      { "data-testid": "chat-format" },
      `${report.label ? `${report.label}: ` : ""}${report.format.name} (${report.format.id})`,
    ),
    report.formatIssues.length === 0
      ? null
      : h(
          "ul",
          { class: "issues" },
          ...report.formatIssues.map((issue) =>
            h(
              "li",
              { class: "issue", "data-testid": "format-issue", "data-code": issue.code },
              h("code", {}, issue.code),
              ` (${issue.severity})${issue.place ? ` at ${issue.place}` : ""}`,
              h("pre", { class: "literal" }, issue.message),
            ),
          ),
        ),
    ...report.conversations.map((conversation) => conversationView(conversation, provider)),
    h(
      "div",
      { class: "bar" },
      h("span", { class: "meta" }, "The record, before → after"),
      repaired.ok
        ? copyButton("Copy repaired", () => repaired.text, "copy-repaired")
        : h("span", { class: "error" }, `The format cannot write the repair back: ${repaired.reason}`),
    ),
    diffView(report),
  );
}

/**
 * Shows a report of tool (c).
 *
 * @example
 * showChatReport(runChatTool({ chat, format: "auto", provider: "anthropic" }), "anthropic");
 */
export function showChatReport(report: ChatReport, provider: string): void {
  if (!report.ok) {
    fill(byId("chat-report"), h("p", { class: "error", "data-testid": "chat-error" }, report.error));
    return;
  }
  fill(byId("chat-report"), ...report.records.map((record) => recordView(record, provider)));
}
