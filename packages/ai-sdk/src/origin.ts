/**
 * Tags that lead a converted message back to what it was made from, so converting back is lossless: AI SDK → neutral
 * → AI SDK gives the same messages (the very objects when nothing changed), and neutral → AI SDK → neutral the same
 * neutral messages, arguments byte for byte. Symbol keys survive core's copies (object spread); the public
 * conversions set them non-enumerable, so they never show in a comparison or a `JSON.stringify`.
 */

/** On a neutral message made from an AI SDK message: {@link AiSdkOrigin}. */
export const AI_SDK_ORIGIN: unique symbol = Symbol.for("@toolcall/ai-sdk/origin") as never;

export interface AiSdkOrigin {
  /** The AI SDK message (a `ModelMessage` or a prompt message) the neutral one was made from. */
  message: Record<string, unknown>;
  /** For a tool result: the index of its part in the tool message's `content`. */
  part?: number;
  /** Made for a sanitizer (text inputs read as mappings): converting back compares with the same reading. */
  sanitizer?: boolean;
}

/** On a neutral call made from an AI SDK tool-call part: the index of that part in its message's `content`. */
export const AI_SDK_PART: unique symbol = Symbol.for("@toolcall/ai-sdk/part") as never;

/** On an AI SDK message made from a neutral message: that neutral message. */
export const NEUTRAL_ORIGIN: unique symbol = Symbol.for("@toolcall/ai-sdk/neutral-origin") as never;

/**
 * Stands in the neutral view for an AI SDK message it cannot hold (a tool message of approval responses only), so
 * converting back puts it where it was. Core passes entries that are not plain objects through.
 */
export class CarriedMessage {
  constructor(readonly message: unknown) {}
}

/** Whether a value is a {@link CarriedMessage} (never throws: a hostile proxy is not one). */
export function isCarried(value: unknown): value is CarriedMessage {
  try {
    return value instanceof CarriedMessage;
  } catch {
    return false;
  }
}

/** Sets a tag (never throws: a frozen target simply goes without). */
export function setTag(target: object, key: symbol, value: unknown, enumerable: boolean): void {
  try {
    Object.defineProperty(target, key, { value, enumerable, configurable: true, writable: true });
  } catch {
    // A frozen or sealed object cannot carry a tag; converting back then builds from the neutral fields alone.
  }
}

/** Reads a tag (`undefined` when absent or unreadable). */
export function getTag<T>(target: unknown, key: symbol): T | undefined {
  if (typeof target !== "object" || target === null) return undefined;
  try {
    return (target as Record<symbol, T | undefined>)[key];
  } catch {
    return undefined;
  }
}
