import { parseJson } from "@toolcall/core";
import { isPlainObject, serializeJson } from "@toolcall/core/kit";
import { type CallText, readCallText } from "./call-text.js";

/** The role each ShareGPT speaker plays (glaive and LLaMA-Factory add `function_call` and `observation`). */
export const ROLES: Readonly<Record<string, string>> = {
  human: "user",
  user: "user",
  gpt: "assistant",
  assistant: "assistant",
  system: "system",
  function_call: "assistant",
  observation: "tool",
  tool: "tool",
  function: "tool",
  function_response: "tool",
};

/** A ShareGPT turn as stored. */
export type Turn = Record<string, unknown> & { from?: unknown; value?: unknown };

/** True for a ShareGPT turn: an object with `from` and `value`. */
export function isTurn(value: unknown): value is Turn {
  return isPlainObject(value) && "from" in value && "value" in value;
}

/** The calls a `function_call` turn holds: one call object, or a list of them (LLaMA-Factory takes both). */
export function functionCallTexts(value: string): { calls: CallText[]; list: boolean } {
  const parsed = parseJson(value.trim());
  if (parsed.success && Array.isArray(parsed.value)) {
    return { calls: parsed.value.map((item) => readCallText(JSON.stringify(item))), list: true };
  }
  return { calls: [readCallText(value)], list: false };
}

/**
 * The results one observation holds for the `calls` calls of the turn before it, by position, when it answers them
 * all: it is the only result turn after them, and its value is a JSON list of one result per call (each written
 * back as it was) or, when it is not, the same text for each. `undefined` when the calls are answered turn by turn.
 */
export function sharedResults(turns: readonly unknown[], turn: number, calls: number): string[] | undefined {
  if (calls < 2) return undefined;
  const next = turns[turn + 1];
  const raw = turns[turn] as Turn;
  if (isTurn(next) && typeof next.from === "string" && ROLES[next.from] === "tool") return undefined;
  if (typeof raw.value !== "string" || raw.value.includes("<tool_response>")) return undefined;
  const parsed = parseJson(raw.value.trim(), { lossless: true });
  if (parsed.success && Array.isArray(parsed.value) && parsed.value.length === calls) {
    const texts: string[] = [];
    for (const item of parsed.value) {
      const written = serializeJson(item);
      if (!written.success) return Array.from({ length: calls }, () => raw.value as string);
      texts.push(written.value);
    }
    return texts;
  }
  return Array.from({ length: calls }, () => raw.value as string);
}
