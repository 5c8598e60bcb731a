import { isUtf8 } from "node:buffer";
import { processInput } from "../pipeline/process-input.js";
import type { WorkContext } from "../records/record-work.js";
import { COPY_BYTES, type OutputPiece, readAt } from "./range-files.js";
import type { ArrayEvent, RangeEntry, RangeEvent, RangeRequest, RangeResult } from "./range-types.js";

/** What is read first of a line that runs on past its range (most end soon after). */
const TAIL_BYTES = 16 << 10;

import { workLine } from "../records/record-work.js";

/**
 * Works on the lines that start in a byte range of a JSONL file, reading them itself: the first line starts just
 * after the first newline at or after `start - 1` (at `start` for the range at 0), and the last one runs past `end`
 * to its newline. A line longer than `maxLineBytes` is passed through as a range of the input, never held whole.
 * The events, entries and output are what the one-thread path gives for the same lines, with line numbers and
 * output offsets counted from the range's own start.
 *
 * @example
 * const { result, pieces } = await workRange({ context, request, fd });
 */
export async function workRange(options: {
  context: WorkContext;
  request: RangeRequest;
  fd: number;
  /** Where to read the range (the output holds views of it until it is placed); a new buffer when too small. */
  scratch?: Buffer;
}): Promise<{ result: RangeResult; pieces: OutputPiece[] }> {
  const { context, request, fd } = options;
  const { start, end, size, maxLineBytes } = request;
  const from = Math.max(0, start - 1);
  const buffer = readAt(fd, from, Math.min(end, size) - from, options.scratch);
  let at = 0;
  if (start > 0) {
    const newline = buffer.indexOf(10);
    at = newline === -1 ? buffer.length : newline + 1;
  }
  const events: RangeEvent[] = [];
  const entries: RangeEntry[] = [];
  const pieces: OutputPiece[] = [];
  const state = {};
  let outputBytes = 0;
  let inputBytes = 0;
  let lines = 0;
  let quiet: Extract<RangeEvent, { t: "quiet" }> | undefined;
  const keep = (piece: OutputPiece) => {
    const length = Buffer.isBuffer(piece) ? piece.length : piece.to - piece.from;
    if (length === 0) return;
    outputBytes += length;
    if (!request.write) return;
    // Lines kept side by side in the range's buffer are one piece: a range of a million blank or unchanged lines
    // is a few pieces, not a million.
    const last = pieces[pieces.length - 1];
    if (
      Buffer.isBuffer(last) &&
      Buffer.isBuffer(piece) &&
      last.buffer === piece.buffer &&
      last.byteOffset + last.length === piece.byteOffset
    ) {
      pieces[pieces.length - 1] = Buffer.from(last.buffer, last.byteOffset, last.length + piece.length);
      return;
    }
    pieces.push(piece);
  };
  const event = (next: RangeEvent) => {
    quiet = undefined;
    events.push(next);
  };
  const tooLong = (n: number) =>
    event({
      t: "unreadable",
      n,
      counted: false,
      issue: {
        code: "line_too_long",
        message: `the line is longer than ${maxLineBytes} bytes (it is passed through unread; --max-line-bytes)`,
      },
    });

  // Synchronous but for the rare array line: a promise per line would cost every line a turn of the microtask queue.
  const line = (raw: Buffer, fileOffset: number): Promise<void> | undefined => {
    lines++;
    inputBytes += raw.length;
    const n = lines;
    let contentEnd = raw[raw.length - 1] === 10 ? raw.length - 1 : raw.length;
    if (contentEnd < raw.length && contentEnd > 0 && raw[contentEnd - 1] === 13) contentEnd--;
    if (contentEnd > maxLineBytes) {
      tooLong(n);
      keep(raw);
      return;
    }
    const content = raw.subarray(0, contentEnd);
    const result = workLine(context, content, fileOffset === 0 ? 1 : 0, state);
    switch (result.kind) {
      case "blank":
        keep(raw);
        return;
      case "unreadable":
        event({ t: "unreadable", n, issue: result.issue, counted: true });
        keep(raw);
        return;
      case "format_unknown":
        event({
          t: "unknown",
          n,
          issue: result.issue,
          empty: /^\s*\[\s*\]\s*$/.test(raw.toString("latin1", 0, Math.min(contentEnd, 64))),
        });
        keep(raw);
        return;
      case "array":
        return arrayLine({
          context,
          raw,
          keep,
          entries,
          journal: request.journal,
          n,
          outputAt: () => outputBytes,
        }).then((found) => event({ t: "array", n, events: found }));
      case "record": {
        const data = result.data;
        const plain =
          result.exactData === undefined &&
          (data.kind === "check"
            ? data.issues.length === 0
            : data.changes.length === 0 &&
              data.remaining.length === 0 &&
              data.notRewritable === undefined &&
              data.notWritable === undefined);
        if (plain && result.bytes === undefined) {
          if (quiet === undefined || quiet.format !== result.format) {
            quiet = { t: "quiet", format: result.format, lines: [], conversations: [], kind: data.kind };
            events.push(quiet);
          }
          quiet.lines.push(n);
          quiet.conversations.push(data.conversations);
          keep(raw);
          return;
        }
        event({
          t: "record",
          n,
          format: result.format,
          ...(result.exactData !== undefined ? { exactData: result.exactData } : { data }),
        });
        if (result.bytes === undefined) {
          keep(raw);
          return;
        }
        const bytes = Buffer.from(result.bytes.buffer, result.bytes.byteOffset, result.bytes.byteLength);
        if (request.journal)
          entries.push({
            at: outputBytes,
            length: bytes.length,
            ...(isUtf8(content)
              ? { original: content.toString("utf8") }
              : { originalBase64: content.toString("base64") }),
            n,
            ...(data.kind === "repair" && data.rules.length > 0 ? { rules: data.rules } : {}),
          });
        keep(bytes);
        keep(raw.subarray(contentEnd));
        return;
      }
    }
  };

  while (at < buffer.length) {
    const newline = buffer.indexOf(10, at);
    if (newline !== -1) {
      const array = line(buffer.subarray(at, newline + 1), from + at);
      if (array !== undefined) await array;
      at = newline + 1;
      continue;
    }
    // The range's last line runs past its end: read on to its newline (or the end of the file).
    const lineStart = from + at;
    const held = [buffer.subarray(at)];
    let heldBytes = held[0]?.length ?? 0;
    let position = from + buffer.length;
    let complete = false;
    // Most lines end soon after the range: read a little first, more as the line goes on.
    let blockBytes = TAIL_BYTES;
    while (position < size && heldBytes <= maxLineBytes + 1) {
      const block = readAt(fd, position, Math.min(blockBytes, size - position));
      blockBytes = Math.min(COPY_BYTES, blockBytes * 2);
      if (block.length === 0) break;
      const newlineAt = block.indexOf(10);
      const piece = newlineAt === -1 ? block : block.subarray(0, newlineAt + 1);
      held.push(piece);
      heldBytes += piece.length;
      position += piece.length;
      if (newlineAt !== -1) {
        complete = true;
        break;
      }
    }
    if (complete || position >= size) {
      const raw = Buffer.concat(held, heldBytes);
      if (complete || raw.length <= maxLineBytes) await line(raw, lineStart);
      else {
        lines++;
        inputBytes += raw.length;
        tooLong(lines);
        keep(raw);
      }
      break;
    }
    // Too long to hold: find its end without holding it, and copy it through when placed.
    let lineEnd = position;
    while (lineEnd < size) {
      const block = readAt(fd, lineEnd, Math.min(COPY_BYTES, size - lineEnd));
      if (block.length === 0) break;
      const newlineAt = block.indexOf(10);
      lineEnd += newlineAt === -1 ? block.length : newlineAt + 1;
      if (newlineAt !== -1) break;
    }
    lines++;
    inputBytes += lineEnd - lineStart;
    tooLong(lines);
    keep({ from: lineStart, to: lineEnd });
    break;
  }
  return { result: { lines, inputBytes, outputBytes, events, entries }, pieces };
}

/**
 * A JSONL line holding a whole array of records (rare): worked on as the one-thread path works on it, as an input
 * of one line, its handler events and replacements collected.
 */
async function arrayLine(options: {
  context: WorkContext;
  raw: Buffer;
  keep(piece: OutputPiece): void;
  entries: RangeEntry[];
  journal: boolean;
  n: number;
  outputAt(): number;
}): Promise<ArrayEvent[]> {
  const { raw, keep, entries, n } = options;
  const events: ArrayEvent[] = [];
  // Read as an input of one line: a byte-order mark is read as such only on line 1 of the file, and a later line
  // that began with one would not have parsed as an array.
  await processInput({
    chunks: (async function* () {
      yield raw;
    })(),
    maxLineBytes: Number.MAX_SAFE_INTEGER,
    context: options.context,
    handler: {
      consume(format, place, data) {
        events.push({
          ...(place.index !== undefined ? { index: place.index } : {}),
          format: format.id,
          data,
        });
      },
      unreadable(place, issue) {
        events.push({ ...(place.index !== undefined ? { index: place.index } : {}), issue });
      },
    },
    output: {
      keep: (bytes: Buffer) => keep(Buffer.from(bytes)),
      replace(original: Buffer, replacement: Buffer, meta: { place?: string; rules?: string[] } = {}) {
        const index = /^record (\d+)$/.exec(meta.place ?? "")?.[1];
        if (options.journal)
          entries.push({
            at: options.outputAt(),
            length: replacement.length,
            ...(isUtf8(original)
              ? { original: original.toString("utf8") }
              : { originalBase64: original.toString("base64") }),
            n,
            ...(index !== undefined ? { index: Number(index) } : {}),
            ...(meta.rules !== undefined && meta.rules.length > 0 ? { rules: meta.rules } : {}),
          });
        keep(Buffer.from(replacement));
      },
    },
  });
  return events;
}
