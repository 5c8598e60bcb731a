/** A plain object's own keys and values, for the shape checks below (never throws on parsed JSON). */
function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether `after` is `before` with at most `key` changed: the same keys, every other value the very same. */
function sameExcept(before: unknown, after: unknown, key: string): boolean {
  if (!isRecord(before) || !isRecord(after)) return false;
  let count = 0;
  for (const name in after) {
    count++;
    if (name !== key && after[name] !== before[name]) return false;
  }
  for (const _ in before) count--;
  return count === 0;
}

const ARGUMENTS_KEY = '"arguments"';

/** Whether the text before `at` is `"arguments"`, blanks, `:`, blanks: the place of an arguments value in JSON text. */
function afterArgumentsKey(text: string, at: number): boolean {
  let i = at - 1;
  while (i >= 0 && isBlank(text.charCodeAt(i))) i--;
  if (text.charCodeAt(i) !== 0x3a) return false;
  i--;
  while (i >= 0 && isBlank(text.charCodeAt(i))) i--;
  const start = i + 1 - ARGUMENTS_KEY.length;
  return start >= 0 && text.startsWith(ARGUMENTS_KEY, start);
}

function isBlank(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/** One arguments string to write again: where its JSON text is, and what goes there. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

/**
 * Where the upstream wrote a call's arguments as `JSON.stringify` writes them, after an `"arguments":` key, once in
 * the whole text: then that is the call's own (inside a JSON string every `"` follows a backslash, so `s"` and
 * therefore `"arguments":` cannot occur there). `undefined` when it is written another way, or more than once.
 */
function editOf(text: string, before: string, after: string): Edit | undefined {
  const written = JSON.stringify(before);
  const start = text.indexOf(written);
  if (start === -1 || text.indexOf(written, start + 1) !== -1 || !afterArgumentsKey(text, start))
    return undefined;
  return { start, end: start + written.length, text: JSON.stringify(after) };
}

/** Adds to `edits` those of one choice whose calls' arguments alone changed; `false` when anything else changed. */
function choiceEdits(text: string, before: unknown, after: unknown, edits: Edit[]): boolean {
  if (!sameExcept(before, after, "message")) return false;
  const messageBefore = (before as Record<string, unknown>).message;
  const messageAfter = (after as Record<string, unknown>).message;
  if (!sameExcept(messageBefore, messageAfter, "tool_calls")) return false;
  const callsBefore = (messageBefore as Record<string, unknown>).tool_calls;
  const callsAfter = (messageAfter as Record<string, unknown>).tool_calls;
  if (!Array.isArray(callsBefore) || !Array.isArray(callsAfter) || callsBefore.length !== callsAfter.length)
    return false;
  for (let i = 0; i < callsAfter.length; i++) {
    const callBefore: unknown = callsBefore[i];
    const callAfter: unknown = callsAfter[i];
    if (callAfter === callBefore) continue;
    if (!sameExcept(callBefore, callAfter, "function")) return false;
    const functionBefore = (callBefore as Record<string, unknown>).function;
    const functionAfter = (callAfter as Record<string, unknown>).function;
    if (!sameExcept(functionBefore, functionAfter, "arguments")) return false;
    const argumentsBefore = (functionBefore as Record<string, unknown>).arguments;
    const argumentsAfter = (functionAfter as Record<string, unknown>).arguments;
    if (typeof argumentsBefore !== "string" || typeof argumentsAfter !== "string") return false;
    const edit = editOf(text, argumentsBefore, argumentsAfter);
    if (edit === undefined) return false;
    edits.push(edit);
  }
  return true;
}

/**
 * The text of a repaired Chat Completions answer written as the upstream wrote it, each repaired call's arguments
 * string alone replaced: the rest of the bytes (layout, key order, every number) stay as they came, and the answer is
 * neither walked for its numbers nor serialized again. `undefined` when the repair changed anything but arguments
 * (a split call, a call recovered from content), or an arguments string cannot be found at one place only: the
 * caller then writes the answer whole.
 *
 * @example
 * const text = '{"choices":[{"message":{"tool_calls":[{"function":{"arguments":"{\'a\': 1}"}}]}}]}';
 * splicedArguments({ text, parsed, repaired }); // '{"choices":[{"message":{"tool_calls":[{"function":{"arguments":"{\\"a\\":1}"}}]}}]}'
 */
export function splicedArguments(args: {
  text: string;
  parsed: unknown;
  repaired: unknown;
}): string | undefined {
  const { text, parsed, repaired } = args;
  if (!sameExcept(parsed, repaired, "choices")) return undefined;
  const before = (parsed as Record<string, unknown>).choices;
  const after = (repaired as Record<string, unknown>).choices;
  if (!Array.isArray(before) || !Array.isArray(after) || before.length !== after.length) return undefined;
  const edits: Edit[] = [];
  for (let i = 0; i < after.length; i++)
    if (after[i] !== before[i] && !choiceEdits(text, before[i], after[i], edits)) return undefined;
  edits.sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let at = 0;
  for (const edit of edits) {
    if (edit.start < at) return undefined;
    parts.push(text.slice(at, edit.start), edit.text);
    at = edit.end;
  }
  parts.push(text.slice(at));
  return parts.join("");
}
