import { isPlainObject } from "../define-property.js";
import { parseJson } from "../parse-json.js";
import {
  type CallView,
  type Finding,
  type MessageView,
  nonEmptyString,
  responsesReasoning,
} from "./finding.js";
import type { ConstraintParams } from "./provider-profile.js";

const patterns = new Map<string, RegExp>();

/** The compiled pattern of a constraint (cached: profiles are data, their patterns few). */
export function compiled(pattern: string): RegExp {
  let regex = patterns.get(pattern);
  if (regex === undefined) {
    regex = new RegExp(pattern, "u");
    patterns.set(pattern, regex);
  }
  return regex;
}

/** The id as the server checks it: with `keepLast`, the last N characters of a longer id (as vLLM cuts it). */
export function idAsChecked(id: string, params: ConstraintParams): string {
  return params.keepLast !== undefined && id.length > params.keepLast ? id.slice(-params.keepLast) : id;
}

/**
 * True when a provider with these parameters accepts the id. With `keepLast`, the server keeps the last N characters
 * of a longer id before checking it (vLLM does so for Mistral models).
 */
export function idAccepted(id: string, params: ConstraintParams): boolean {
  const checked = idAsChecked(id, params);
  if (params.maxLength !== undefined && checked.length > params.maxLength) return false;
  return params.pattern === undefined || compiled(params.pattern).test(checked);
}

/**
 * `tool_call_id_invalid`: call ids the provider's pattern or length refuses. Results carry their call's id, and a
 * result whose id no call has is an orphan: the calls decide.
 */
export function checkToolCallIds(views: readonly MessageView[], params: ConstraintParams): Finding[] {
  const findings: Finding[] = [];
  views.forEach((view, index) => {
    view.calls.forEach((call, position) => {
      const id = call.plain ? nonEmptyString(call.id) : undefined;
      if (id !== undefined && !idAccepted(id, params))
        findings.push({
          code: "tool_call_id_invalid",
          path: [index, "tool_calls", position, "id"],
          facts: { index, subject: "call", call: position, id: idAsChecked(id, params), length: id.length },
        });
    });
  });
  return findings;
}

/** True when a provider with these parameters accepts the function name. */
export function nameAccepted(name: string, params: ConstraintParams): boolean {
  if (params.maxLength !== undefined && name.length > params.maxLength) return false;
  return params.pattern === undefined || compiled(params.pattern).test(name);
}

/** `name_invalid`: function names in the history that the provider's pattern refuses. */
export function checkNames(views: readonly MessageView[], params: ConstraintParams): Finding[] {
  const findings: Finding[] = [];
  views.forEach((view, index) => {
    view.calls.forEach((call, position) => {
      const name = call.isFunction ? nonEmptyString(call.name) : undefined;
      if (name !== undefined && !nameAccepted(name, params))
        findings.push({
          code: "name_invalid",
          path: [index, "tool_calls", position, "function", "name"],
          facts: { index, subject: "call", call: position, id: nonEmptyString(call.id), name },
        });
    });
  });
  return findings;
}

/**
 * Why a provider that parses stored arguments refuses them, or `undefined` when it accepts them. `object: true`:
 * the value must be a JSON object (text of one, or a mapping); otherwise any JSON text will do. `null` and
 * `undefined` are absent arguments (sent as `{}`); `""` is accepted only with `allowEmpty`.
 */
export function argumentsRefusal(
  value: unknown,
  params: ConstraintParams,
  object: boolean,
): { error: string } | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== "string") {
    if (!object) return undefined;
    return isPlainObject(value) ? undefined : { error: "the arguments are not an object" };
  }
  if (value === "") return params.allowEmpty === true ? undefined : { error: "empty text" };
  const parsed = parseJson(value);
  if (!parsed.success) return { error: parsed.error };
  if (!object) return undefined;
  const v = parsed.value;
  return typeof v === "object" && v !== null && !Array.isArray(v)
    ? undefined
    : { error: "the arguments are not a JSON object" };
}

/** `arguments_invalid_json` (`object: false`) and `arguments_not_object` (`object: true`). */
export function checkArguments(
  views: readonly MessageView[],
  params: ConstraintParams,
  object: boolean,
): Finding[] {
  const code = object ? "arguments_not_object" : "arguments_invalid_json";
  const findings: Finding[] = [];
  views.forEach((view, index) => {
    view.calls.forEach((call: CallView, position) => {
      if (!call.plain || !call.isFunction) return;
      const refusal = argumentsRefusal(call.arguments, params, object);
      if (refusal !== undefined)
        findings.push({
          code,
          path: [index, "tool_calls", position, "function", "arguments"],
          facts: {
            index,
            subject: "call",
            call: position,
            id: nonEmptyString(call.id) ?? "",
            name: nonEmptyString(call.name),
            json_error: refusal.error,
          },
        });
    });
  });
  return findings;
}

/** The index after the last user message: where Gemini's "current turn" starts. */
export function currentTurnStart(views: readonly MessageView[]): number {
  for (let index = views.length - 1; index >= 0; index--) {
    if ((views[index] as MessageView).role === "user") return index + 1;
  }
  return 0;
}

/**
 * `thought_signature_missing` (Gemini 3): in the current turn (after the last user message), the first call of each
 * assistant message must carry its thought signature (`tool_calls[0].extra_content.google.thought_signature`, the
 * field of Google's OpenAI-compatible endpoint; in a parallel batch only the first call carries one).
 */
export function checkThoughtSignatures(views: readonly MessageView[]): Finding[] {
  const findings: Finding[] = [];
  for (let index = currentTurnStart(views); index < views.length; index++) {
    const first = (views[index] as MessageView).calls[0];
    if (first === undefined || nonEmptyString(first.thoughtSignature) !== undefined) continue;
    findings.push({
      code: "thought_signature_missing",
      path: [index, "tool_calls", 0, "extra_content", "google", "thought_signature"],
      facts: {
        index,
        subject: "call",
        call: 0,
        id: nonEmptyString(first.id),
        name: nonEmptyString(first.name) ?? "…",
      },
    });
  }
  return findings;
}

/**
 * `reasoning_item_missing` (Responses API, reasoning models): a call that names its stored `function_call` item
 * (`extra_content.openai.item_id`) is refused unless the reasoning item that preceded it is sent too (an entry of
 * the message's `reasoning_details` with `format: "openai-responses-v1"`).
 */
export function checkReasoningItems(views: readonly MessageView[]): Finding[] {
  const findings: Finding[] = [];
  views.forEach((view, index) => {
    if (view.calls.length === 0 || responsesReasoning(view).length > 0) return;
    view.calls.forEach((call, position) => {
      const itemId = nonEmptyString(call.itemId);
      if (itemId === undefined) return;
      findings.push({
        code: "reasoning_item_missing",
        path: [index, "tool_calls", position, "extra_content", "openai", "item_id"],
        facts: { index, subject: "call", call: position, id: nonEmptyString(call.id), item_id: itemId },
      });
    });
  });
  return findings;
}
