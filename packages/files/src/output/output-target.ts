import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { fstatSync, statSync, unlinkSync } from "node:fs";
import { type FileHandle, open, realpath, rename, stat, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { createGzip, type Gzip } from "node:zlib";
import { followLinks } from "../input/file-identity.js";

/**
 * Where repaired bytes go: queued in order, written in batches, made visible only by {@link commit}.
 *
 * @example
 * const target = streamTarget(process.stdout);
 * await target.commit();
 */
export interface OutputTarget {
  /** Queues bytes; nothing is written until {@link flushIfFull} or {@link commit}. */
  write(bytes: Buffer | string): void;
  /** Writes the queue once it holds a batch, waiting for the destination to take it (backpressure). */
  flushIfFull(): Promise<void> | undefined;
  /** Writes everything left and puts the output in place. */
  commit(): Promise<void>;
  /** Drops the output: for a file, the temporary file is removed and the destination is left as it was. */
  abort(): Promise<void>;
  /**
   * The file that other threads may write into at offsets of their own (the temporary file of a regular file
   * written without compression), or `undefined`. Bytes written there stand in for bytes written through the target.
   */
  positionalPath?(): string | undefined;
}

const BATCH_BYTES = 1 << 20;

/**
 * A write to an output failed (no space left, an I/O error, a closed pipe): the error names the output, so a report
 * never blames the input for it. `cause` is the system's error, `code` its code (`ENOSPC`, `EPIPE`, …).
 *
 * @example
 * if (error instanceof OutputWriteError) console.error(`${error.path}: ${error.code}`);
 */
export class OutputWriteError extends Error {
  readonly path: string;
  readonly code: string | undefined;

  constructor(options: { path: string; cause: unknown }) {
    super(`${options.path}: ${(options.cause as Error)?.message ?? String(options.cause)}`, {
      cause: options.cause,
    });
    this.name = "OutputWriteError";
    this.path = options.path;
    const code = (options.cause as { code?: unknown })?.code;
    this.code = typeof code === "string" ? code : undefined;
  }
}

abstract class BatchingTarget implements OutputTarget {
  /** The output's name, for errors. */
  readonly #name: string;
  private queue: Buffer[] = [];
  private queued = 0;
  /** The write in flight: the next batch is prepared while it runs (one batch ahead, so memory stays bounded). */
  private inFlight: Promise<void> = Promise.resolve();

  constructor(name: string) {
    this.#name = name;
  }

  write(bytes: Buffer | string): void {
    const buffer = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes;
    if (buffer.length === 0) return;
    this.queue.push(buffer);
    this.queued += buffer.length;
  }

  flushIfFull(): Promise<void> | undefined {
    return this.queued >= BATCH_BYTES ? this.startWrite() : undefined;
  }

  /** Starts writing the queue after the write in flight; resolves when that earlier write is done. */
  private startWrite(): Promise<void> {
    const previous = this.inFlight;
    if (this.queued === 0) return previous;
    const batch =
      this.queue.length === 1 ? (this.queue[0] as Buffer) : Buffer.concat(this.queue, this.queued);
    this.queue = [];
    this.queued = 0;
    const next = previous.then(() =>
      this.writeBatch(batch).catch((cause: unknown) => {
        throw cause instanceof OutputWriteError ? cause : new OutputWriteError({ path: this.#name, cause });
      }),
    );
    // A failure is reported by whoever awaits next; this only keeps it from counting as unhandled meanwhile.
    next.catch(() => {});
    this.inFlight = next;
    return previous;
  }

  /** Writes everything queued and waits until it is written. */
  protected async flush(): Promise<void> {
    this.startWrite();
    await this.inFlight;
  }

  /** Waits for the write in flight to end, whatever its outcome (before closing the file under it). */
  protected async settled(): Promise<void> {
    await this.inFlight.catch(() => {});
  }

  protected abstract writeBatch(batch: Buffer): Promise<void>;
  abstract commit(): Promise<void>;
  abstract abort(): Promise<void>;
}

/** Temporary files being written, removed if the process is interrupted (SIGINT, SIGTERM, SIGHUP). */
const liveTemporaryFiles = new Set<string>();

/**
 * Removes every temporary file still being written; for signal handlers, so an interrupted run leaves nothing
 * behind. (SIGKILL cannot be caught: then the temporary file stays, and the destination is still intact.)
 *
 * @example
 * process.once("SIGTERM", () => { removeTemporaryFiles(); process.exit(143); });
 */
export function removeTemporaryFiles(): void {
  for (const path of liveTemporaryFiles) {
    try {
      unlinkSync(path);
    } catch {
      // already gone
    }
  }
  liveTemporaryFiles.clear();
}

/** Writes every byte of a buffer to a file handle (a device may take fewer bytes per call). */
async function writeAll(handle: FileHandle, batch: Buffer): Promise<void> {
  let offset = 0;
  while (offset < batch.length) {
    const { bytesWritten } = await handle.write(batch, offset, batch.length - offset);
    offset += bytesWritten;
  }
}

/** Bytes to a file handle, through gzip when asked: the compressor's output is written in order, with backpressure. */
class HandleWriter {
  private readonly gzip: Gzip | undefined;
  private readonly pump: Promise<void> | undefined;

  constructor(
    private readonly handle: FileHandle,
    compress: boolean,
  ) {
    if (!compress) return;
    const gzip = createGzip();
    this.gzip = gzip;
    this.pump = (async () => {
      for await (const chunk of gzip) await writeAll(handle, chunk as Buffer);
    })();
    this.pump.catch(() => {});
  }

  async write(batch: Buffer): Promise<void> {
    if (this.gzip === undefined) return writeAll(this.handle, batch);
    if (!this.gzip.write(batch)) await Promise.race([once(this.gzip, "drain"), this.pump]);
  }

  async end(): Promise<void> {
    if (this.gzip === undefined) return;
    this.gzip.end();
    await this.pump;
  }
}

/** Output to a regular file, atomically: written to a temporary file in the destination's directory, synced, renamed. */
class AtomicFileTarget extends BatchingTarget {
  private readonly writer: HandleWriter;

  constructor(
    private readonly handle: FileHandle,
    readonly temporaryPath: string,
    private readonly destination: string,
    private readonly compress: boolean,
  ) {
    super(destination);
    this.writer = new HandleWriter(handle, compress);
  }

  protected writeBatch(batch: Buffer): Promise<void> {
    return this.writer.write(batch);
  }

  positionalPath(): string | undefined {
    return this.compress ? undefined : this.temporaryPath;
  }

  async commit(): Promise<void> {
    try {
      await this.flush();
      await this.writer.end();
      // Durable before visible: a crash after the rename never exposes a file whose blocks were not written.
      await this.handle.sync();
      await this.handle.close();
      await rename(this.temporaryPath, this.destination);
    } catch (error) {
      await this.abort();
      throw error instanceof OutputWriteError
        ? error
        : new OutputWriteError({ path: this.destination, cause: error });
    }
    liveTemporaryFiles.delete(this.temporaryPath);
  }

  async abort(): Promise<void> {
    await this.settled();
    await this.handle.close().catch(() => {});
    await unlink(this.temporaryPath).catch(() => {});
    liveTemporaryFiles.delete(this.temporaryPath);
  }
}

/**
 * Output to a file that is not a regular file (a device, a FIFO, `/dev/stdout`, `/dev/fd/N` of a process
 * substitution), written where it is: such a file is never renamed over. Nothing can be taken back once written.
 */
class InPlaceTarget extends BatchingTarget {
  private readonly writer: HandleWriter;

  constructor(
    private readonly handle: FileHandle,
    name: string,
    compress: boolean,
  ) {
    super(name);
    this.writer = new HandleWriter(handle, compress);
  }

  protected writeBatch(batch: Buffer): Promise<void> {
    return this.writer.write(batch);
  }

  async commit(): Promise<void> {
    try {
      await this.flush();
      await this.writer.end();
    } finally {
      await this.handle.close().catch(() => {});
    }
  }

  async abort(): Promise<void> {
    await this.settled();
    await this.handle.close().catch(() => {});
  }
}

/** What an output is: a regular file (or a new one), or a file to write where it is. */
export type OutputKind = "regular" | "special";

/**
 * Opens an output for `destination`. A regular file (or a path that does not exist yet) gets a new temporary file
 * `.NAME.toolcall-PID-RANDOM.tmp` beside it (same directory, so the final rename is atomic), with the existing
 * file's mode and, where the process may set it, its owner. Anything else that exists (a device, a FIFO,
 * `/dev/stdout`, a process substitution's `/dev/fd/N`) is opened and written in place, never replaced. A symbolic
 * link is never replaced either: the file it names is (created, when the link dangles); a loop of links is refused
 * (`ELOOP`). With `gzip`, the bytes are compressed on the way. A write that fails rejects with an
 * {@link OutputWriteError} naming `destination`.
 *
 * @example
 * const output = await openOutputFile({ destination: "repaired.jsonl" });
 * output.target.write("{}\n");
 * await output.target.commit(); // repaired.jsonl appears whole, or not at all
 */
export async function openOutputFile(options: {
  destination: string;
  mode?: number;
  gzip?: boolean;
}): Promise<{ target: OutputTarget; kind: OutputKind }> {
  // A symbolic link is never replaced: the file it names is (a link to a link too), in that file's directory; a
  // dangling link gets the file it names created, and a loop is refused (ELOOP).
  const followed = await followLinks(options.destination);
  if (!followed.ok) throw Object.assign(new Error(followed.message), { code: followed.code });
  const existing = await stat(followed.path).catch(() => undefined);
  const compress = options.gzip === true;
  if (existing !== undefined && !existing.isFile() && !existing.isDirectory()) {
    const handle = await open(options.destination, "w");
    return { target: new InPlaceTarget(handle, options.destination, compress), kind: "special" };
  }
  const destination = existing === undefined ? followed.path : await realpath(followed.path);
  const temporaryPath = join(
    dirname(destination),
    `.${basename(destination)}.toolcall-${process.pid}-${randomBytes(4).toString("hex")}.tmp`,
  );
  const mode = options.mode ?? (existing ? existing.mode & 0o7777 : undefined);
  const handle = await open(temporaryPath, "wx", mode ?? 0o666);
  liveTemporaryFiles.add(temporaryPath);
  if (mode !== undefined) await handle.chmod(mode).catch(() => {});
  if (existing !== undefined) await handle.chown(existing.uid, existing.gid).catch(() => {});
  return { target: new AtomicFileTarget(handle, temporaryPath, destination, compress), kind: "regular" };
}

/** Output to a stream (standard output), respecting its backpressure; a closed pipe ends the run quietly. */
class StreamTarget extends BatchingTarget {
  private failure: Error | undefined;
  private readonly gzip: Gzip | undefined;

  constructor(
    private readonly stream: NodeJS.WritableStream,
    compress: boolean,
  ) {
    super("standard output");
    stream.on("error", (error: Error) => {
      this.failure = error;
    });
    if (compress) {
      this.gzip = createGzip();
      this.gzip.pipe(stream, { end: false });
    }
  }

  protected writeBatch(batch: Buffer): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    const sink = (this.gzip ?? this.stream) as NodeJS.WritableStream;
    return new Promise((resolve, reject) => {
      const ready = sink.write(batch);
      if (ready) {
        resolve();
        return;
      }
      const onDrain = () => {
        this.stream.off("error", onError);
        resolve();
      };
      const onError = (error: Error) => {
        sink.off("drain", onDrain);
        reject(error);
      };
      sink.once("drain", onDrain);
      this.stream.once("error", onError);
    });
  }

  async commit(): Promise<void> {
    await this.flush();
    if (this.gzip !== undefined) {
      const done = once(this.gzip, "end");
      this.gzip.end();
      await done;
    }
  }

  async abort(): Promise<void> {
    // What reached a pipe cannot be taken back; stop writing.
  }
}

/**
 * An output that writes to a stream (standard output for `-o -`), through gzip when asked.
 *
 * @example
 * const output = streamTarget(process.stdout);
 */
export function streamTarget(stream: NodeJS.WritableStream, options: { gzip?: boolean } = {}): OutputTarget {
  return new StreamTarget(stream, options.gzip === true);
}

/**
 * True when `path` is the process's own standard output (`-`, `/dev/stdout`, `/dev/fd/1`, or the file or pipe
 * standard output is): the repaired bytes then take standard output, and the report goes to standard error.
 *
 * @example
 * isStandardOutput("/dev/stdout"); // true
 */
export function isStandardOutput(path: string | undefined): boolean {
  if (path === "-") return true;
  if (path === undefined) return false;
  try {
    const out = fstatSync(1);
    const target = statSync(path);
    return out.dev === target.dev && out.ino === target.ino;
  } catch {
    return false;
  }
}
