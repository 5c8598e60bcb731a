import { describe, expect, it } from "vitest";
import { type InputFormat, type ScanVisitor, scanInput, UNDECIDED_HOLD_BYTES } from "./scan-input.js";

// What the scanner holds is counted (pieces of lines held while the framing is undecided, bytes read before it is
// decided), never measured by a clock or a resident set.

const CHUNK = 64 * 1024;

/** `total` bytes of input in chunks of 64 KiB, made from `fill` (the same buffer each time: the source costs nothing). */
function* repeated(fill: Buffer, total: number): Generator<Buffer> {
  for (let sent = 0; sent < total; sent += fill.length)
    yield fill.subarray(0, Math.min(fill.length, total - sent));
}

async function* chunksOf(parts: Iterable<Buffer>, counter: { chunks: number }): AsyncGenerator<Buffer> {
  for (const part of parts) {
    counter.chunks++;
    yield part;
  }
}

/** Scans, keeping every byte handed back (as rawLine or whole) and the number of chunks read when the framing was decided. */
async function scan(parts: Iterable<Buffer>) {
  const counter = { chunks: 0 };
  const kept: Buffer[] = [];
  let decidedAt: number | undefined;
  let format: InputFormat | undefined;
  let rawLines = 0;
  const visitor: ScanVisitor = {
    format(found) {
      format = found;
      decidedAt = counter.chunks;
    },
    isSession: () => false,
    rawLine(raw) {
      rawLines++;
      kept.push(raw);
    },
    unreadableLine() {},
    blankLine(raw) {
      kept.push(raw);
    },
    overlong(bytes) {
      kept.push(bytes);
    },
    whole(input) {
      kept.push(input.raw);
    },
  };
  const result = await scanInput({ chunks: chunksOf(parts, counter), maxLineBytes: 1 << 20, visitor });
  return { result, kept: Buffer.concat(kept), decidedAt, format, chunks: counter.chunks, rawLines };
}

describe("blank lines are held as runs, never one by one", () => {
  it("4 MiB of newlines: a few pieces held per chunk, not one per line, and every byte handed back", async () => {
    const input = Buffer.alloc(4 * 1024 * 1024, "\n");
    const parts = [...repeated(Buffer.alloc(CHUNK, "\n"), input.length)];
    const { result, kept, chunks, rawLines } = await scan(parts);
    expect(result.ok).toBe(true);
    expect(result.summary.lines).toBe(input.length);
    // One run per chunk (a run never spans two chunks' buffers): 64 pieces for 4 194 304 lines.
    expect(result.summary.peakHeldLines).toBeLessThanOrEqual(chunks + 1);
    expect(rawLines).toBeLessThanOrEqual(chunks + 1);
    expect(kept.equals(input)).toBe(true);
  });

  it("blank lines of every kind (spaces, tabs, CRLF) between records: runs, and the bytes exact", async () => {
    const blank = Buffer.from(" \n\t\r\n\n\r\n   \t\n");
    const record = Buffer.from('{"messages":[]}\n');
    const unit = Buffer.concat([record, ...Array.from({ length: 500 }, () => blank)]);
    const input = Buffer.concat(Array.from({ length: 40 }, () => unit));
    const parts: Buffer[] = [];
    for (let at = 0; at < input.length; at += 1000) parts.push(input.subarray(at, at + 1000));
    const { result, kept, rawLines } = await scan(parts);
    expect(result.ok).toBe(true);
    expect(result.summary.format).toBe("jsonl");
    expect(kept.equals(input)).toBe(true);
    // 40 records and 100 000 blank lines: each run of blank lines is one piece (plus one where a chunk cuts it).
    expect(rawLines).toBeLessThanOrEqual(40 * 2 + parts.length * 2);
  });
});

describe("an undecided framing holds a bounded number of bytes", () => {
  it("64 MiB of newlines: read as JSONL once 16 MiB were held, not held to the end", async () => {
    const total = 64 * 1024 * 1024;
    const { result, decidedAt, format, chunks } = await scan(repeated(Buffer.alloc(CHUNK, "\n"), total));
    expect(result.ok).toBe(true);
    expect(format).toBe("jsonl");
    expect(chunks).toBe(total / CHUNK);
    expect(decidedAt).toBeDefined();
    expect((decidedAt as number) * CHUNK).toBeLessThanOrEqual(UNDECIDED_HOLD_BYTES + CHUNK);
    expect(result.summary.peakHeldLines).toBeLessThanOrEqual(UNDECIDED_HOLD_BYTES / CHUNK + 2);
  });

  it("a first record, then 64 MiB of newlines: the session sample ends once 16 MiB were held", async () => {
    const total = 64 * 1024 * 1024;
    const parts = (function* () {
      yield Buffer.from('{"messages":[]}\n');
      yield* repeated(Buffer.alloc(CHUNK, "\n"), total);
    })();
    const { result, decidedAt, format } = await scan(parts);
    expect(result.ok).toBe(true);
    expect(format).toBe("jsonl");
    expect((decidedAt as number) * CHUNK).toBeLessThanOrEqual(UNDECIDED_HOLD_BYTES + 2 * CHUNK);
  });

  it("a pretty JSON document after a few blank lines is still one document, byte for byte", async () => {
    const input = Buffer.from(
      `\n\n  \n${JSON.stringify({ messages: [{ role: "user", content: "hi" }] }, null, 2)}\n`,
    );
    const { result, kept, format } = await scan([input.subarray(0, 5), input.subarray(5)]);
    expect(result.ok).toBe(true);
    expect(format).toBe("json");
    expect(kept.equals(input)).toBe(true);
  });
});
