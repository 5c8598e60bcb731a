import { closeSync, openSync, readSync, writeSync } from "node:fs";

/** A piece of a range's output: bytes held, or input bytes copied from the file when placed (a line too long). */
export type OutputPiece = Buffer | { from: number; to: number };

/** Bytes read or copied at once when a line runs on past its range. */
export const COPY_BYTES = 1 << 20;

/**
 * Reads `length` bytes at `position` (fewer at the end of the file), into `into` when it is large enough.
 *
 * @example
 * const head = readAt(fd, 0, 3);
 */
export function readAt(fd: number, position: number, length: number, into?: Buffer): Buffer {
  const buffer =
    into !== undefined && into.length >= length ? into.subarray(0, length) : Buffer.allocUnsafe(length);
  let at = 0;
  while (at < length) {
    const read = readSync(fd, buffer, at, length - at, position + at);
    if (read === 0) break;
    at += read;
  }
  return at === length ? buffer : buffer.subarray(0, at);
}

/**
 * Writes a range's output at its place in the output file (positional writes: ranges are written side by side, in
 * any order); a piece of input is copied through in bounded blocks.
 *
 * @example
 * writePieces({ pieces, offset: 4096, outputFd, inputFd });
 */
export function writeRangePieces(options: {
  pieces: readonly OutputPiece[];
  offset: number;
  outputFd: number;
  inputFd: number;
}): number {
  let position = options.offset;
  const writeAll = (bytes: Buffer) => {
    let done = 0;
    while (done < bytes.length) {
      done += writeSync(options.outputFd, bytes, done, bytes.length - done, position + done);
    }
    position += bytes.length;
  };
  for (const piece of options.pieces) {
    if (Buffer.isBuffer(piece)) {
      writeAll(piece);
      continue;
    }
    for (let at = piece.from; at < piece.to; at += COPY_BYTES) {
      writeAll(readAt(options.inputFd, at, Math.min(COPY_BYTES, piece.to - at)));
    }
  }
  return position - options.offset;
}

/**
 * Range-sized buffers a worker reads into, reused once the output that holds views of them is written: memory is
 * what the ranges held at once need, not what the collector has yet to free.
 *
 * @example
 * const buffer = buffers.take(4 << 20); // … buffers.give(buffer) once its range is placed
 */
export class ReadBuffers {
  readonly #free: Buffer[] = [];

  take(size: number): Buffer {
    const index = this.#free.findIndex((buffer) => buffer.length >= size);
    if (index !== -1) return this.#free.splice(index, 1)[0] as Buffer;
    return Buffer.allocUnsafeSlow(size);
  }

  give(buffer: Buffer): void {
    if (this.#free.length < 2) this.#free.push(buffer);
  }

  clear(): void {
    this.#free.length = 0;
  }
}

/** Files a worker has open, by path (a worker keeps its input and output open across ranges). */
export class OpenFiles {
  readonly #files = new Map<string, number>();

  fd(path: string, flags: "r" | "r+"): number {
    const key = `${flags} ${path}`;
    let fd = this.#files.get(key);
    if (fd === undefined) {
      fd = openSync(path, flags);
      this.#files.set(key, fd);
    }
    return fd;
  }

  closeAll(): void {
    for (const fd of this.#files.values()) closeSync(fd);
    this.#files.clear();
  }
}
