import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { LineSplitter } from "./line-splitter.js";

function split(chunks: Buffer[], maxLineBytes = 1 << 20) {
  const events: Array<{ kind: string; bytes: string; number: number; content?: string }> = [];
  const splitter = new LineSplitter({
    maxLineBytes,
    sink: {
      line: (raw, contentEnd, number) =>
        events.push({
          kind: "line",
          bytes: raw.toString("latin1"),
          number,
          content: raw.toString("latin1", 0, contentEnd),
        }),
      overlong: (bytes, number) => events.push({ kind: "overlong", bytes: bytes.toString("latin1"), number }),
    },
  });
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return events;
}

describe("LineSplitter", () => {
  it("splits on \\n, keeps \\r\\n and a last line without terminator", () => {
    expect(split([Buffer.from("a\r\nb\n\nc")])).toEqual([
      { kind: "line", bytes: "a\r\n", number: 1, content: "a" },
      { kind: "line", bytes: "b\n", number: 2, content: "b" },
      { kind: "line", bytes: "\n", number: 3, content: "" },
      { kind: "line", bytes: "c", number: 4, content: "c" },
    ]);
  });

  it("joins lines across chunks, however the bytes are cut", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", "\n", "\r", "é", "{") }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (text, cuts) => {
          const bytes = Buffer.from(text, "utf8");
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((x, y) => x - y);
          const chunks: Buffer[] = [];
          let last = 0;
          for (const point of [...points, bytes.length]) {
            chunks.push(bytes.subarray(last, point));
            last = point;
          }
          const events = split(chunks.filter((c) => c.length > 0));
          expect(Buffer.from(events.map((e) => e.bytes).join(""), "latin1").equals(bytes)).toBe(true);
          // A run of blank lines comes as one event (its content empty): it counts as the lines it holds, and the
          // next event's number says so.
          let lines = 0;
          for (const event of events) {
            expect(event.number).toBe(lines + 1);
            const held = event.content === "" ? event.bytes.split("\n").length - 1 : 0;
            lines += Math.max(1, held);
          }
          expect(lines).toBe(text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0));
        },
      ),
    );
  });

  it("a run of blank lines in one chunk is one call, counted as its lines", () => {
    expect(split([Buffer.from("a\n\n \n\t\r\n\nb\n")])).toEqual([
      { kind: "line", bytes: "a\n", number: 1, content: "a" },
      { kind: "line", bytes: "\n \n\t\r\n\n", number: 2, content: "" },
      { kind: "line", bytes: "b\n", number: 6, content: "b" },
    ]);
    let calls = 0;
    const splitter = new LineSplitter({
      maxLineBytes: 1024,
      sink: { line: () => calls++, overlong: () => {} },
    });
    splitter.push(Buffer.alloc(1 << 20, "\n"));
    splitter.end();
    expect(calls).toBe(1);
    expect(splitter.currentLine).toBe((1 << 20) + 1);
  });

  it("streams a line longer than the limit piece by piece, with its number, and goes on after it", () => {
    const events = split([Buffer.from("ok\n0123"), Buffer.from("456789"), Buffer.from("\nnext\n")], 5);
    // Pieces as they were read, never joined (a line too long to hold is never copied whole).
    expect(events.map((e) => [e.kind, e.number])).toEqual([
      ["line", 1],
      ["overlong", 2],
      ["overlong", 2],
      ["overlong", 2],
      ["line", 3],
    ]);
    expect(
      events
        .filter((e) => e.kind === "overlong")
        .map((e) => e.bytes)
        .join(""),
    ).toBe("0123456789\n");
  });
});
