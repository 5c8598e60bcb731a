import type { ChatMessage } from "@toolcall/core";
import {
  type FormatReading,
  guardedReading,
  type StoredList,
  storedListOf,
  withStoredList,
} from "@toolcall/core/kit";

/** What one saved AI SDK format makes of its list: the neutral messages, where each came from, how a new list is written. */
export interface SavedListView {
  messages: ChatMessage[];
  /** A neutral path as a place in the record (`messages[3].content[1]`). */
  placeOf(path: readonly (string | number)[]): string;
  /** The saved list for the messages a rule gave back, or why the format cannot hold them. */
  write(next: readonly unknown[]): { ok: true; list: unknown[] } | { ok: false; reason: string };
}

/**
 * The reading every saved AI SDK format shares (ModelMessages, UIMessages, AI SDK 4 chats): the record's list (a bare
 * list or `{messages: [...]}`, every message of the format's shape, none left allowed), refused otherwise; the
 * format's view of it; written back with no replacement as the record itself, else with the format's new list and
 * every other key in place. A value that throws while read or written is refused or kept, never a crash.
 *
 * @example
 * const reading = readSavedList({ value, what: "UI messages", refusal: "not UI messages", isMessage, view: (found) => viewOf(found) });
 */
export function readSavedList(options: {
  value: unknown;
  /** What the format reads, for a value that cannot be read: `${what} that cannot be read: …`. */
  what: string;
  /** The refusal of a value that is not the format's list. */
  refusal: string;
  isMessage: (message: unknown) => boolean;
  view: (found: StoredList) => SavedListView;
}): FormatReading {
  const { value } = options;
  return guardedReading({
    value,
    what: options.what,
    read: (): FormatReading => {
      const found = storedListOf({ value, isMessage: options.isMessage, allowEmpty: true });
      if (found === undefined) {
        return {
          conversations: [],
          issues: [
            { code: "record_not_conversation", severity: "error", message: options.refusal, path: [] },
          ],
          write: () => ({ ok: true, value }),
        };
      }
      const view = options.view(found);
      return {
        conversations: [{ messages: view.messages, placeOf: (path) => view.placeOf(path) }],
        issues: [],
        write([next]) {
          if (next === undefined) return { ok: true, value };
          const written = view.write(next);
          return written.ok
            ? { ok: true, value: withStoredList({ value, found, list: written.list }) }
            : written;
        },
      };
    },
  });
}

/** A path in a record for people: `messages[3].content[1]`, or `[3].content[1]` in a bare list. */
export function placeOfPart(options: {
  key: string | undefined;
  message: number;
  field: string;
  part?: number;
}): string {
  const base = `${options.key ?? ""}[${options.message}]`;
  return options.part === undefined ? base : `${base}.${options.field}[${options.part}]`;
}
