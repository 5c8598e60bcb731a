import { jsonEqual, show } from "./json-equal.js";

/**
 * The mapping-level comparison of a message list (sanitize, R4; prepareForTemplate, R5): what the rule is about, not
 * the reference's bytes and wording.
 *
 * - Shape: the same messages in the same order, each with its role, content and other fields; `content` that is
 *   `null`, absent, `""` or `[]` is one value (no content), and any field that is `null` counts as absent.
 * - Calls: each call's name and arguments. In the wire form (sanitize) arguments must be text and are compared by
 *   the JSON value they hold (the bytes are full-level); in the template form (prepareForTemplate) as given, except
 *   text the reference wrote from a mapping, which any text holding the same JSON value matches.
 * - Pairing: a tool result is compared by which call it answers (its position among the calls before it), not by
 *   the id string; a call id is compared only when it comes from the input (an id the reference made up is not).
 * - Wording of the reference's own (a synthesized result, a note prepended to a result; in the wire form also a
 *   provider's bridge message, a placeholder for blank text, reasoning moved into the content): a message whose
 *   expected text content appears nowhere in the input must exist and have content; its text is not compared.
 */
export type ArgumentsForm = "wire" | "template";

const ANY = Symbol("any");

/** Expected-side: arguments text the reference wrote; any text holding the same JSON value matches. */
class WrittenText {
  constructor(readonly view: unknown) {}
}

interface ViewContext {
  form: ArgumentsForm;
  /** Every string content, call id and arguments text of the input: what is not here was written by the reference. */
  inputTexts: ReadonlySet<string>;
  inputIds: ReadonlySet<string>;
  inputArguments: ReadonlySet<string>;
  expectedSide: boolean;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function noContent(value: unknown): boolean {
  return (
    value === null || value === undefined || value === "" || (Array.isArray(value) && value.length === 0)
  );
}

function argumentsView(value: unknown, context: ViewContext): unknown {
  if (context.form === "template") {
    // Text the reference wrote from a mapping is its own bytes: any text holding the same JSON value will do.
    const written = context.expectedSide && typeof value === "string" && !context.inputArguments.has(value);
    return written ? new WrittenText(argumentsView(value, { ...context, form: "wire" })) : value;
  }
  if (typeof value !== "string") return { "not text": value };
  try {
    const parsed: unknown = JSON.parse(value);
    return isPlainObject(parsed) ? parsed : { "not object text": value };
  } catch {
    return { "not JSON": value };
  }
}

function callView(call: unknown, context: ViewContext): unknown {
  if (!isPlainObject(call)) return call;
  const view: Record<string, unknown> = {};
  if (typeof call.id === "string")
    view.id = context.expectedSide && !context.inputIds.has(call.id) ? ANY : call.id;
  const fn = isPlainObject(call.function) ? call.function : {};
  for (const [key, value] of Object.entries(fn)) {
    if (value === null || value === undefined) continue;
    view[key] = key === "arguments" ? argumentsView(value, context) : value;
  }
  for (const [key, value] of Object.entries(call)) {
    if (key === "id" || key === "type" || key === "function" || value === null || value === undefined)
      continue;
    view[key] = value;
  }
  return view;
}

/** The view of each message: pairing by position, null-ish content dropped, the reference's own wording a wildcard. */
function listView(messages: unknown, context: ViewContext): unknown {
  if (!Array.isArray(messages)) return messages;
  const ordinalOfId = new Map<string, number>();
  let ordinal = 0;
  return messages.map((message) => {
    if (!isPlainObject(message)) return message;
    const view: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(message)) {
      if (value === null || value === undefined) continue;
      if (key === "content") {
        if (noContent(value)) continue;
        // Text the reference wrote: a tool result's (R4), or in a sanitized history any message's (a provider's
        // bridge message, a placeholder for blank text, reasoning moved into the content).
        const ours =
          context.expectedSide &&
          (message.role === "tool" || context.form === "wire") &&
          typeof value === "string" &&
          !context.inputTexts.has(value);
        view.content = ours ? ANY : value;
      } else if (key === "tool_calls" && Array.isArray(value)) {
        if (value.length === 0) continue;
        view.tool_calls = value.map((call) => callView(call, context));
        for (const call of value) {
          if (isPlainObject(call) && typeof call.id === "string") ordinalOfId.set(call.id, ordinal);
          ordinal++;
        }
      } else if (key === "tool_call_id") {
        view["answers call"] = typeof value === "string" ? (ordinalOfId.get(value) ?? "none") : value;
      } else {
        view[key] = value;
      }
    }
    return view;
  });
}

function inputFacts(input: unknown): { texts: Set<string>; ids: Set<string>; args: Set<string> } {
  const texts = new Set<string>();
  const ids = new Set<string>();
  const args = new Set<string>();
  for (const message of Array.isArray(input) ? input : []) {
    if (!isPlainObject(message)) continue;
    if (typeof message.content === "string") texts.add(message.content);
    for (const call of Array.isArray(message.tool_calls) ? message.tool_calls : []) {
      if (!isPlainObject(call)) continue;
      if (typeof call.id === "string") ids.add(call.id);
      const fn = call.function;
      if (isPlainObject(fn) && typeof fn.arguments === "string") args.add(fn.arguments);
    }
  }
  return { texts, ids, args };
}

const WIRE: ViewContext = {
  form: "wire",
  inputTexts: new Set(),
  inputIds: new Set(),
  inputArguments: new Set(),
  expectedSide: false,
};

const SHAPE_KEYS = ["role", "content", "tool_calls", "answers call"];

function showView(value: unknown): string {
  if (value instanceof WrittenText) return `text holding ${showView(value.view)}`;
  return value === ANY ? "<any text>" : show(value);
}

function compareValue(expected: unknown, actual: unknown, path: string, out: string[]): void {
  if (expected instanceof WrittenText) {
    if (typeof actual !== "string") out.push(`${path}: expected text, got ${showView(actual)}`);
    else compareValue(expected.view, argumentsView(actual, WIRE), path, out);
    return;
  }
  if (expected === ANY) {
    if (actual === undefined) out.push(`${path}: expected a value, got none`);
    return;
  }
  if (!jsonEqual(expected, actual))
    out.push(`${path}: expected ${showView(expected)}, got ${showView(actual)}`);
}

function compareRecord(expected: unknown, actual: unknown, path: string, out: string[]): void {
  if (!isPlainObject(expected) || !isPlainObject(actual)) {
    compareValue(expected, actual, path, out);
    return;
  }
  const keys = new Set([...Object.keys(expected), ...SHAPE_KEYS.filter((key) => key in actual)]);
  for (const key of keys) {
    const want = expected[key];
    const got = actual[key];
    if (key === "tool_calls" && Array.isArray(want) && Array.isArray(got)) {
      if (want.length !== got.length) {
        out.push(`${path}.tool_calls: expected ${want.length} calls, got ${got.length}: ${show(got)}`);
        continue;
      }
      want.forEach((call, i) => {
        compareRecord(call, got[i], `${path}.tool_calls[${i}]`, out);
      });
    } else {
      compareValue(want, got, `${path}.${key}`, out);
    }
  }
}

/**
 * Compares a message list with the expected one at the mapping level (see the module comment); one message per
 * difference, naming its path (`messages[2].tool_calls[0].arguments`), `[]` when they agree.
 *
 * @example
 * compareMessagesAtMappingLevel({
 *   form: "template",
 *   input: [{ role: "assistant", content: null }],
 *   expected: [{ role: "assistant", content: null }],
 *   actual: [{ role: "assistant", content: "" }],
 * }); // []
 */
export function compareMessagesAtMappingLevel(args: {
  form: ArgumentsForm;
  input: unknown;
  expected: unknown;
  actual: unknown;
}): string[] {
  const facts = inputFacts(args.input);
  const base = { form: args.form, inputTexts: facts.texts, inputIds: facts.ids, inputArguments: facts.args };
  const expected = listView(args.expected, { ...base, expectedSide: true });
  const actual = listView(args.actual, { ...base, expectedSide: false });
  const out: string[] = [];
  if (!Array.isArray(expected) || !Array.isArray(actual)) {
    compareValue(expected, actual, "messages", out);
    return out;
  }
  if (expected.length !== actual.length) {
    const roles = (list: unknown[]) =>
      list.map((m) => (isPlainObject(m) ? String(m.role) : show(m))).join(", ");
    out.push(
      `messages: expected ${expected.length} messages (${roles(expected)}), got ${actual.length} (${roles(actual)})`,
    );
    return out;
  }
  expected.forEach((message, i) => {
    compareRecord(message, actual[i], `messages[${i}]`, out);
  });
  return out;
}
