import type { ConversationFormat } from "@toolcall/core/kit";
import type { InputIssue } from "../input/input-issue.js";
import { FORMATS } from "./formats.js";
import type { RecordPlace } from "./places.js";

/** The part of a handler the tally speaks to. */
export interface TallyHandler {
  unreadable(place: RecordPlace, issue: InputIssue): void;
  format?(format: ConversationFormat): void;
}

/**
 * What a JSONL input's lines add up to, as they are released in input order (by one thread or from worker
 * ranges): records, lines that hold JSON, the formats announced once each, and lines of no known format, which are
 * reported once some line is a record. A file in which none is gets one clear `input_format_unknown` instead of a
 * report per line; those lines are held in bounded memory meanwhile.
 *
 * @example
 * const tally = new RecordTally(handler);
 * tally.record(format); // before the handler consumes it
 * const failure = tally.failure(); // undefined when some line held a record
 */
export class RecordTally {
  records = 0;
  jsonLines = 0;
  readonly #handler: TallyHandler;
  readonly #announced = new Set<ConversationFormat>();
  readonly #held: Array<{ place: RecordPlace; issue: InputIssue }> = [];
  #heldOver = 0;

  constructor(handler: TallyHandler) {
    this.#handler = handler;
  }

  announce(format: ConversationFormat): void {
    if (this.#announced.has(format)) return;
    this.#announced.add(format);
    this.#handler.format?.(format);
  }

  /** A record is about to be consumed: the lines held until now are reported first. */
  record(format: ConversationFormat): void {
    if (this.records === 0) this.releaseHeld();
    this.records++;
    this.announce(format);
  }

  /** A line of no known format. */
  unknownLine(place: RecordPlace, issue: InputIssue): void {
    if (this.records > 0) this.#handler.unreadable(place, issue);
    else if (this.#held.length < 1000) this.#held.push({ place, issue });
    else this.#heldOver++;
  }

  releaseHeld(): void {
    for (const { place, issue } of this.#held.splice(0)) this.#handler.unreadable(place, issue);
    if (this.#heldOver > 0) {
      this.#handler.unreadable(
        {},
        { code: "line_format_unknown", message: `${this.#heldOver} more lines in no known format` },
      );
      this.#heldOver = 0;
    }
  }

  /** The whole input's issue when lines held JSON but none a record of a known format. */
  failure(): InputIssue | undefined {
    if (this.records > 0 || this.jsonLines === 0) return undefined;
    const first = this.#held[0];
    return {
      code: "input_format_unknown",
      message: `no line holds a record of a known format (line ${first?.place.line ?? 1}: ${first?.issue.message ?? "none"}); ${FORMATS.expected("record")}`,
    };
  }
}
