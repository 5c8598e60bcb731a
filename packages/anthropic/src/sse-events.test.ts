import { describe, expect, it } from "vitest";
import { SseEvents } from "./sse-events.js";

const TEXT =
  'event: message_start\ndata: {"type":"message_start"}\n\n: a comment\nevent: ping\ndata: {"type": "ping"}\n\ndata: a\ndata: b\n\n';

function read(pieces: readonly string[]) {
  const events = new SseEvents();
  const encoder = new TextEncoder();
  const out = pieces.flatMap((piece) => events.push(encoder.encode(piece)));
  return [...out, ...events.end()].map(({ event, data }) => ({ event, data }));
}

describe("SseEvents", () => {
  const whole = read([TEXT]);

  it("reads events, their names and their data lines joined", () => {
    expect(whole).toEqual([
      { event: "message_start", data: '{"type":"message_start"}' },
      { event: "ping", data: '{"type": "ping"}' },
      { event: undefined, data: "a\nb" },
    ]);
  });

  it("gives the same events however the bytes are cut, and for \\r\\n line ends", () => {
    for (let cut = 1; cut < TEXT.length; cut++)
      expect(read([TEXT.slice(0, cut), TEXT.slice(cut)])).toEqual(whole);
    const crlf = TEXT.replaceAll("\n", "\r\n");
    for (let cut = 1; cut < crlf.length; cut++)
      expect(read([crlf.slice(0, cut), crlf.slice(cut)])).toEqual(whole);
    expect(read([...TEXT])).toEqual(whole);
  });

  it("reads an event the body ended in without its blank line", () => {
    expect(read(['data: {"type":"message_stop"}'])).toEqual([
      { event: undefined, data: '{"type":"message_stop"}' },
    ]);
  });
});
