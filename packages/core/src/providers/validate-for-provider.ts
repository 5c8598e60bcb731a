import { compactLongLists } from "../read-history.js";
import {
  checkArguments,
  checkNames,
  checkReasoningItems,
  checkThoughtSignatures,
  checkToolCallIds,
} from "./check-calls.js";
import {
  checkAssistantContent,
  checkBlankText,
  checkFunctionCallPosition,
  checkReasoningMissing,
  checkReasoningOrphans,
  checkReasoningRejected,
  checkTextBesideCalls,
  checkUserAfterTool,
} from "./check-messages.js";
import { checkDuplicateIds, checkResultPairing } from "./check-pairing.js";
import { type Finding, isList, type MessageView, viewMessages } from "./finding.js";
import type {
  ConstraintCode,
  ProviderConstraint,
  ProviderIssue,
  ProviderProfile,
} from "./provider-profile.js";
import { type ProviderOption, resolveProviderProfile } from "./provider-profiles.js";
import {
  errorFieldsOf,
  fillErrorBody,
  fillTemplate,
  placeholderValues,
  providerPositions,
} from "./render-provider-error.js";

/** Runs the check one constraint names. */
function runCheck(
  constraint: ProviderConstraint,
  views: readonly MessageView[],
  pairing: () => ReturnType<typeof checkResultPairing>,
): Finding[] {
  const params = constraint.params ?? {};
  const code: ConstraintCode = constraint.code;
  switch (code) {
    case "tool_call_id_invalid":
      return checkToolCallIds(views, params);
    case "name_invalid":
      return checkNames(views, params);
    case "id_duplicate":
      return checkDuplicateIds(views);
    case "tool_result_missing":
      return pairing().missing;
    case "tool_results_interleaved":
      return pairing().interleaved;
    case "tool_result_orphan":
      return pairing().orphans;
    case "tool_result_id_missing":
      return pairing().idless;
    case "arguments_invalid_json":
      return checkArguments(views, params, false);
    case "arguments_not_object":
      return checkArguments(views, params, true);
    case "user_after_tool":
      return checkUserAfterTool(views);
    case "function_call_position":
      return checkFunctionCallPosition(views);
    case "reasoning_missing":
      return checkReasoningMissing(views);
    case "reasoning_rejected":
      return checkReasoningRejected(views);
    case "thought_signature_missing":
      return checkThoughtSignatures(views);
    case "reasoning_item_missing":
      return checkReasoningItems(views);
    case "reasoning_item_orphan":
      return checkReasoningOrphans(views);
    case "text_content_empty":
      return checkBlankText(views, "empty");
    case "text_content_whitespace":
      return checkBlankText(views, "whitespace");
    case "assistant_content_not_string":
      return checkAssistantContent(views);
    case "text_beside_calls":
      return checkTextBesideCalls(views);
    default: {
      const never: never = code;
      throw new TypeError(`unknown constraint ${String(never)}`);
    }
  }
}

/**
 * The findings of every constraint of a profile, read from a history (never throws on what the history holds).
 * Sorted by message, then by the profile's order of constraints.
 */
export function findProviderFindings(
  views: readonly MessageView[],
  profile: ProviderProfile,
): Array<{ finding: Finding; constraint: ProviderConstraint }> {
  const codes = new Set(profile.constraints.map((c) => c.code));
  let pairing: ReturnType<typeof checkResultPairing> | undefined;
  const pair = () => {
    pairing ??= checkResultPairing(views, codes);
    return pairing;
  };
  const found: Array<{ finding: Finding; constraint: ProviderConstraint; order: number }> = [];
  profile.constraints.forEach((constraint, order) => {
    for (const finding of runCheck(constraint, views, pair)) found.push({ finding, constraint, order });
  });
  found.sort((a, b) => a.finding.facts.index - b.finding.facts.index || a.order - b.order);
  return found;
}

/**
 * The issues a provider would raise about a history: each with its code, where, the literal error text it would
 * answer with (placeholders filled, messages numbered as the provider numbers them), the HTTP status, and the body.
 * `validateHistory(messages, { provider })` is this.
 *
 * @example
 * validateForProvider(
 *   [
 *     { role: "user", content: "weather?" },
 *     { role: "assistant", content: null, tool_calls: [{ id: "call_PTLP8xhu3uwZk4l3nlnrrJha", type: "function", function: { name: "w", arguments: "{}" } }] },
 *     { role: "tool", tool_call_id: "call_PTLP8xhu3uwZk4l3nlnrrJha", content: "sunny" },
 *   ],
 *   { provider: "mistral" },
 * )[0].message;
 * // "Tool call id was call_PTLP8xhu3uwZk4l3nlnrrJha but must be a-z, A-Z, 0-9, with a length of 9."
 */
export function validateForProvider(
  messages: readonly unknown[],
  options: { provider: ProviderOption },
): ProviderIssue[] {
  const profile = resolveProviderProfile(options.provider);
  if (!isList(messages)) return [];
  // A list too long to walk index by index is read by what it holds; paths name the caller's message again.
  const compact = compactLongLists(messages);
  if (compact !== undefined) {
    return issuesFor(compact.list, profile).map((found) => {
      const [first, ...rest] = found.path;
      return typeof first === "number"
        ? { ...found, path: [compact.indices[first] ?? first, ...rest] }
        : found;
    });
  }
  return issuesFor(messages, profile);
}

function issuesFor(messages: readonly unknown[], profile: ProviderProfile): ProviderIssue[] {
  const views = viewMessages(messages);
  const found = findProviderFindings(views, profile);
  if (found.length === 0) return [];
  const positions = providerPositions(views, profile.indexing);
  return found.map(({ finding, constraint }) => {
    const values = placeholderValues(views, positions, profile.indexing, finding.facts);
    const after = constraint.messageAfter;
    const template = after?.roles.includes(finding.facts.previous_role ?? "")
      ? after.message
      : constraint.message;
    const message = fillTemplate(template, values);
    const fields = errorFieldsOf(profile, constraint);
    const param = typeof fields.param === "string" ? fillTemplate(fields.param, values) : fields.param;
    return {
      code: finding.code,
      severity: "error",
      path: finding.path,
      message,
      provider: profile.id,
      status: constraint.status,
      body: fillErrorBody(profile.errorBody, { ...fields, param, message, status: constraint.status }),
    };
  });
}
