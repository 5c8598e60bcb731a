import { type ConversationFormat, coreRepairs, type SanitizeOptions, sanitizeHistory } from "@toolcall/core";
import { expect } from "vitest";

/** A value as JSON sees it: what a file holds (origins and other symbols are not data). */
export function asData(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

/**
 * Reads a record, sanitizes each conversation (answers keep their pending calls), writes the record back, and checks
 * what a user relies on: an untouched record comes back as the same object; a changed one reads back as exactly the
 * sanitized messages. Returns the written value and the changes.
 */
export function checkRoundTrip(
  format: ConversationFormat,
  value: unknown,
  options: SanitizeOptions = { repairs: coreRepairs },
): { value: unknown; changes: number } {
  const reading = format.read(value);
  const fixed = reading.conversations.map((conversation) =>
    sanitizeHistory(conversation.messages, {
      ...options,
      ...(conversation.answer ? { pendingCalls: "keep" as const } : {}),
    }),
  );
  const changes = fixed.reduce((sum, result) => sum + result.changes.length, 0);
  const written = reading.write(
    fixed.map((result) => (result.changes.length > 0 ? result.messages : undefined)),
  );
  if (!written.ok) throw new Error(`${format.id}: ${written.reason}`);
  if (changes === 0) {
    expect(written.value).toBe(value);
    return { value: written.value, changes };
  }
  const again = format.read(asData(written.value));
  expect(asData(again.conversations.map((c) => c.messages))).toEqual(asData(fixed.map((r) => r.messages)));
  // Sanitizing what was written changes nothing more: the repair is complete and stable.
  const twice = again.conversations.map((conversation) =>
    sanitizeHistory(conversation.messages, {
      ...options,
      ...(conversation.answer ? { pendingCalls: "keep" as const } : {}),
    }),
  );
  expect(twice.flatMap((r) => r.changes)).toEqual([]);
  return { value: written.value, changes };
}
