/** One server-sent event: its `event:` name, its `data:` lines joined, and its text as it came. */
export interface SseEvent {
  event: string | undefined;
  data: string | undefined;
  /** The event's lines and its blank line, as they came (line ends made `\n`). */
  text: string;
}

/** Reads one event's text (lines without the blank line that ends it). */
export function parseSseEvent(text: string): SseEvent {
  let event: string | undefined;
  const data: string[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
  }
  return { event, data: data.length === 0 ? undefined : data.join("\n"), text: `${text}\n\n` };
}

/**
 * Splits an SSE body into events as its bytes come (SSE's framing: an event ends at a blank line; `\r\n` read as
 * `\n`). Each byte is decoded once and each character looked at a bounded number of times: the search for the next
 * blank line starts where the last one stopped.
 *
 * @example
 * const events = new SseEvents();
 * events.push(new TextEncoder().encode("event: ping\ndata: {}\n\n")); // [{ event: "ping", data: "{}", … }]
 */
export class SseEvents {
  readonly #decoder = new TextDecoder();
  #buffer = "";
  #searched = 0;
  #pendingReturn = false;

  /** Reads a piece of the body; returns the events it completed. */
  push(bytes: Uint8Array): SseEvent[] {
    return this.#take(this.#decoder.decode(bytes, { stream: true }));
  }

  /** The body ended: an event it ended in, without its blank line, is still an event. */
  end(): SseEvent[] {
    const events = this.#take(this.#decoder.decode());
    const rest = this.#buffer.replace(/\n+$/, "");
    this.#buffer = "";
    if (rest !== "") events.push(parseSseEvent(rest));
    return events;
  }

  #take(decoded: string): SseEvent[] {
    let text = decoded;
    if (this.#pendingReturn) text = `\r${text}`;
    this.#pendingReturn = text.endsWith("\r");
    if (this.#pendingReturn) text = text.slice(0, -1);
    this.#buffer += text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text;
    const events: SseEvent[] = [];
    let from = 0;
    for (;;) {
      const end = this.#buffer.indexOf("\n\n", Math.max(from, this.#searched - 1));
      if (end === -1) break;
      events.push(parseSseEvent(this.#buffer.slice(from, end)));
      from = end + 2;
    }
    this.#buffer = this.#buffer.slice(from);
    this.#searched = this.#buffer.length;
    return events;
  }
}
