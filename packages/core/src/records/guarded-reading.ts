import type { FormatReading } from "../conversation-format.js";
import { errorMessage } from "../error-message.js";

/**
 * A format's reading that never throws: a value whose reading throws (a getter, a revoked proxy) is refused with
 * `record_not_conversation` and kept as it was; a writing that throws is a write that failed, never a crash.
 *
 * @example
 * const reading = guardedReading({ value, what: "AI SDK messages", read: () => readMessages(value) });
 */
export function guardedReading(options: {
  value: unknown;
  /** What the format reads, for the refusal: `${what} that cannot be read: …`. */
  what: string;
  read: () => FormatReading;
}): FormatReading {
  const { value, what } = options;
  let reading: FormatReading;
  try {
    reading = options.read();
  } catch (error) {
    return {
      conversations: [],
      issues: [
        {
          code: "record_not_conversation",
          severity: "error",
          message: `${what} that cannot be read: ${errorMessage(error)}`,
          path: [],
        },
      ],
      write: () => ({ ok: true, value }),
    };
  }
  return {
    ...reading,
    write(replacements) {
      try {
        return reading.write(replacements);
      } catch (error) {
        return { ok: false, reason: `cannot be written: ${errorMessage(error)}` };
      }
    },
  };
}
