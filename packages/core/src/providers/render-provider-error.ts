import type { Facts, MessageView } from "./finding.js";
import { isSystemRole, listOf, responsesReasoning } from "./finding.js";
import type {
  ErrorFields,
  MessageIndexing,
  ProviderConstraint,
  ProviderProfile,
} from "./provider-profile.js";

/** Where a neutral message lands in the provider's own numbering: its message (or item) and its first block. */
interface Position {
  index: number;
  part: number;
}

function textBlocks(view: MessageView): number {
  if (typeof view.content === "string") return view.content === "" ? 0 : 1;
  return listOf(view.content).length;
}

function blocksOf(view: MessageView): number {
  if (view.role === "assistant") return textBlocks(view) + view.calls.length;
  if (view.role === "tool") return 1;
  return Math.max(textBlocks(view), 1);
}

function itemsOf(view: MessageView): number {
  if (view.role !== "assistant") return 1;
  const text = textBlocks(view) > 0 || view.calls.length === 0 ? 1 : 0;
  return responsesReasoning(view).length + text + view.calls.length;
}

/** The provider-side role a message's blocks go to on APIs that merge runs of one role. */
function mergedRole(view: MessageView): string {
  if (view.role === "tool") return "user";
  return typeof view.role === "string" ? view.role : `(${String(view.role)})`;
}

/**
 * Each neutral message's place in the provider's numbering (see {@link MessageIndexing}). A system message, which
 * such APIs take apart, gets the place of the message after it.
 */
export function providerPositions(views: readonly MessageView[], indexing: MessageIndexing): Position[] {
  const positions: Position[] = [];
  if (indexing === "messages") {
    for (let index = 0; index < views.length; index++) positions.push({ index, part: 0 });
    return positions;
  }
  if (indexing === "items") {
    let item = 0;
    for (const view of views) {
      positions.push({ index: item, part: 0 });
      item += itemsOf(view);
    }
    return positions;
  }
  let index = -1;
  let part = 0;
  let role: string | undefined;
  for (const view of views) {
    if (view.plain && isSystemRole(view.role)) {
      positions.push({ index: index + 1, part: 0 });
      continue;
    }
    const current = mergedRole(view);
    if (current !== role) {
      index++;
      part = 0;
      role = current;
    }
    positions.push({ index, part });
    part += blocksOf(view);
  }
  return positions;
}

/** The values of a constraint's placeholders for one finding. */
export function placeholderValues(
  views: readonly MessageView[],
  positions: readonly Position[],
  indexing: MessageIndexing,
  facts: Facts,
): Record<string, string | undefined> {
  const view = views[facts.index] as MessageView;
  const position = positions[facts.index] ?? { index: facts.index, part: 0 };
  let { index, part } = position;
  if (facts.subject === "call" && facts.call !== undefined) {
    if (indexing === "items") {
      const text = textBlocks(view) > 0 || view.calls.length === 0 ? 1 : 0;
      index += responsesReasoning(view).length + text + facts.call;
    } else if (indexing !== "messages") {
      part += textBlocks(view) + facts.call;
    }
  }
  return {
    index: String(index),
    next_index: String(index + 1),
    part: String(part),
    call: facts.call === undefined ? undefined : String(facts.call),
    id: facts.id,
    ids: facts.ids?.join(", "),
    name: facts.name,
    length: facts.length === undefined ? undefined : String(facts.length),
    role: facts.role,
    previous_role: facts.previous_role,
    item_id: facts.item_id,
    reasoning_id: facts.reasoning_id,
    json_error: facts.json_error,
  };
}

/** Fills `{placeholder}`s; a value the history cannot tell is written `…`. */
export function fillTemplate(template: string, values: Record<string, string | undefined>): string {
  return template.replace(/\{([a-z_]+)\}/g, (_, key: string) => values[key] ?? "…");
}

/** The error body's fields for a constraint: its own over the profile's defaults. */
export function errorFieldsOf(
  profile: ProviderProfile,
  constraint: ProviderConstraint,
): Required<ErrorFields> {
  return {
    type: constraint.error?.type !== undefined ? constraint.error.type : (profile.errorFields?.type ?? null),
    code: constraint.error?.code !== undefined ? constraint.error.code : (profile.errorFields?.code ?? null),
    param:
      constraint.error?.param !== undefined ? constraint.error.param : (profile.errorFields?.param ?? null),
  };
}

/** The profile's error body template with `$message`, `$type`, `$code`, `$param`, `$status` filled in. */
export function fillErrorBody(
  template: unknown,
  values: { message: string; status: number } & Required<ErrorFields>,
): unknown {
  if (typeof template === "string") {
    switch (template) {
      case "$message":
        return values.message;
      case "$type":
        return values.type;
      case "$code":
        return values.code;
      case "$param":
        return values.param;
      case "$status":
        return values.status;
      default:
        return template;
    }
  }
  if (Array.isArray(template)) return template.map((entry) => fillErrorBody(entry, values));
  if (typeof template === "object" && template !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(template)) out[key] = fillErrorBody(value, values);
    return out;
  }
  return template;
}
