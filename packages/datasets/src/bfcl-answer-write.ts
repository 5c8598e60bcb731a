import { parseJson } from "@toolcall/core";
import { type FormatWriteResult, isPlainObject, serializeJson } from "@toolcall/core/kit";
import { syntaxById } from "@toolcall/model-formats";
import { setIn } from "./set-in.js";

type Item = Record<string, unknown>;

/** Where a call of the neutral view was read from: `ground_truth[item]`, or `ground_truth[turn][item]`. */
export interface AnswerPlace {
  item: number;
  /** The call's name and arguments text as read, to tell a call a rule changed. */
  name: string;
  arguments: string;
}

/** One conversation as read: its messages, and the place of each call by its id. */
export interface ReadAnswer {
  messages: readonly unknown[];
  places: ReadonlyMap<string, AnswerPlace>;
  /** The turn it stands for, in a multi-turn entry. */
  turn?: number;
}

function define(target: Item, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

/** JSON-equal, numbers compared by their text (arguments are read losslessly: `JsonNumber`). */
function same(a: unknown, b: unknown): boolean {
  const left = serializeJson(a);
  const right = serializeJson(b);
  return left.success && right.success && left.value === right.value;
}

/** The first acceptable value of each parameter (`""` among the values: may be omitted, left out). */
function firstOf(values: unknown): { present: boolean; value?: unknown } {
  const list = Array.isArray(values) ? values : [values];
  return list.length === 0 || list.includes("") ? { present: false } : { present: true, value: list[0] };
}

/**
 * A single-turn item `{name: {param: [values]}}` for a call whose arguments a rule changed: a parameter whose value
 * is still the first acceptable one keeps its list as it is; a changed value replaces the first acceptable one and
 * the others follow; a parameter the call no longer has is left out; one it gained lists its one value.
 */
function itemFor(options: { item: Item; name: string; args: Item }): Item {
  const [, parameters] = Object.entries(options.item)[0] ?? ["", {}];
  const old = isPlainObject(parameters) ? parameters : {};
  const out: Item = {};
  for (const [param, values] of Object.entries(old)) {
    const first = firstOf(values);
    if (!Object.hasOwn(options.args, param)) {
      if (!first.present) define(out, param, values);
      continue;
    }
    const value = options.args[param];
    if (first.present && same(first.value, value)) define(out, param, values);
    else {
      const list = Array.isArray(values) ? values : [values];
      define(out, param, [
        value,
        ...list.filter((item) => item !== "" && !same(item, first.value) && !same(item, value)),
      ]);
    }
  }
  for (const [param, value] of Object.entries(options.args))
    if (!Object.hasOwn(old, param)) define(out, param, [value]);
  const written: Item = {};
  define(written, options.name, out);
  return written;
}

/** The calls of a replacement: one assistant message of calls, as read; `undefined` when it is anything else. */
function callsOf(next: readonly unknown[]): Item[] | undefined {
  if (next.length !== 1) return undefined;
  const [message] = next;
  if (!isPlainObject(message) || message.role !== "assistant" || !Array.isArray(message.tool_calls))
    return undefined;
  if (message.content !== null && message.content !== undefined && message.content !== "") return undefined;
  return message.tool_calls.every(isPlainObject) ? (message.tool_calls as Item[]) : undefined;
}

/**
 * Writes BFCL possible answers back in their own shapes: a call dropped leaves `ground_truth` (or its turn); a call
 * whose arguments a rule changed is written again (single-turn: see {@link itemFor}; multi-turn: as the pythonic
 * syntax writes a call, `cd(folder='document')`); a call no rule touched, and every text the view did not read, is
 * kept as it is. A replacement that adds a message, text or a call has no place in an answer file: `ok: false`.
 */
export function writeBfclAnswer(options: {
  value: Item & { ground_truth: unknown[] };
  read: readonly ReadAnswer[];
  replacements: ReadonlyArray<readonly unknown[] | undefined>;
}): FormatWriteResult {
  const { value, read, replacements } = options;
  let ground = value.ground_truth;
  const pythonic = syntaxById("llama-pythonic");
  for (let index = read.length - 1; index >= 0; index--) {
    const next = replacements[index];
    const answer = read[index] as ReadAnswer;
    if (
      next === undefined ||
      (next.length === answer.messages.length && next.every((m, i) => m === answer.messages[i]))
    )
      continue;
    const calls = callsOf(next);
    if (calls === undefined)
      return {
        ok: false,
        reason: "a BFCL possible answer holds expected calls only; a new message or text has no place in it",
      };
    const list = (answer.turn === undefined ? ground : ground[answer.turn]) as unknown[];
    const kept = new Map<number, unknown>();
    for (const call of calls) {
      const place = typeof call.id === "string" ? answer.places.get(call.id) : undefined;
      const fn = isPlainObject(call.function) ? call.function : {};
      if (place === undefined || typeof fn.name !== "string" || typeof fn.arguments !== "string")
        return { ok: false, reason: "a call added by a repair has no place in a BFCL possible answer" };
      const was = list[place.item];
      if (fn.name === place.name && fn.arguments === place.arguments) {
        kept.set(place.item, was);
        continue;
      }
      const parsed = parseJson(fn.arguments, { lossless: true });
      if (!parsed.success || !isPlainObject(parsed.value))
        return { ok: false, reason: "BFCL lists arguments by parameter; these are not an object" };
      if (answer.turn === undefined) {
        kept.set(place.item, itemFor({ item: was as Item, name: fn.name, args: parsed.value }));
        continue;
      }
      const text = pythonic?.encode([call as never]).replace(/^\[|\]$/g, "");
      if (text === undefined) return { ok: false, reason: "no pythonic writer for a BFCL multi-turn answer" };
      kept.set(place.item, text);
    }
    const readItems = new Set([...answer.places.values()].map((place) => place.item));
    const out = list.flatMap((item, at) =>
      !readItems.has(at) ? [item] : kept.has(at) ? [kept.get(at)] : [],
    );
    if (out.length === list.length && out.every((item, at) => item === list[at])) continue;
    ground =
      answer.turn === undefined ? out : (setIn({ value: ground, path: [answer.turn], to: out }) as unknown[]);
  }
  if (ground === value.ground_truth) return { ok: true, value };
  return { ok: true, value: setIn({ value, path: ["ground_truth"], to: ground }) };
}
