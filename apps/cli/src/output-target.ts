import { randomBytes } from "node:crypto";
import { unlinkSync } from "node:fs";
import { type FileHandle, open, rename, unlink } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** Where repaired bytes go: queued in order, written in batches, made visible only by {@link commit}. */
export interface OutputTarget {
  /** Queues bytes; nothing is written until {@link flushIfFull} or {@link commit}. */
  write(bytes: Buffer | string): void;
  /** Writes the queue once it holds a batch, waiting for the destination to take it (backpressure). */
  flushIfFull(): Promise<void> | undefined;
  /** Writes everything left and puts the output in place. */
  commit(): Promise<void>;
  /** Drops the output: for a file, the temporary file is removed and the destination is left as it was. */
  abort(): Promise<void>;
}

const BATCH_BYTES = 1 << 20;

abstract class BatchingTarget implements OutputTarget {
  private queue: Buffer[] = [];
  private queued = 0;
  /** The write in flight: the next batch is prepared while it runs (one batch ahead, so memory stays bounded). */
  private inFlight: Promise<void> = Promise.resolve();

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
    const next = previous.then(() => this.writeBatch(batch));
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

/** Output to a file, atomically: written to a temporary file in the destination's directory, synced, renamed. */
class AtomicFileTarget extends BatchingTarget {
  constructor(
    private readonly handle: FileHandle,
    readonly temporaryPath: string,
    private readonly destination: string,
  ) {
    super();
  }

  protected async writeBatch(batch: Buffer): Promise<void> {
    let offset = 0;
    while (offset < batch.length) {
      const { bytesWritten } = await this.handle.write(batch, offset, batch.length - offset);
      offset += bytesWritten;
    }
  }

  async commit(): Promise<void> {
    try {
      await this.flush();
      // Durable before visible: a crash after the rename never exposes a file whose blocks were not written.
      await this.handle.sync();
      await this.handle.close();
      await rename(this.temporaryPath, this.destination);
    } catch (error) {
      await this.abort();
      throw error;
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
 * Opens an atomic output for `destination`: a new temporary file `.NAME.toolcall-PID-RANDOM.tmp` beside it (same
 * directory, so the final rename is atomic), created with `mode` when given (to keep an existing file's mode).
 *
 * @example
 * const output = await openAtomicFile({ destination: "repaired.jsonl" });
 * output.write("{}\n");
 * await output.commit(); // repaired.jsonl appears whole, or not at all
 */
export async function openAtomicFile(options: { destination: string; mode?: number }): Promise<OutputTarget> {
  const { destination } = options;
  const temporaryPath = join(
    dirname(destination),
    `.${basename(destination)}.toolcall-${process.pid}-${randomBytes(4).toString("hex")}.tmp`,
  );
  const handle = await open(temporaryPath, "wx", options.mode ?? 0o666);
  liveTemporaryFiles.add(temporaryPath);
  if (options.mode !== undefined) await handle.chmod(options.mode).catch(() => {});
  return new AtomicFileTarget(handle, temporaryPath, destination);
}

/** Output to a stream (standard output), respecting its backpressure; a closed pipe ends the run quietly. */
class StreamTarget extends BatchingTarget {
  private failure: Error | undefined;

  constructor(private readonly stream: NodeJS.WritableStream) {
    super();
    stream.on("error", (error: Error) => {
      this.failure = error;
    });
  }

  protected writeBatch(batch: Buffer): Promise<void> {
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const stream = this.stream;
      const ready = stream.write(batch);
      if (ready) {
        resolve();
        return;
      }
      const onDrain = () => {
        stream.off("error", onError);
        resolve();
      };
      const onError = (error: Error) => {
        stream.off("drain", onDrain);
        reject(error);
      };
      stream.once("drain", onDrain);
      stream.once("error", onError);
    });
  }

  async commit(): Promise<void> {
    await this.flush();
  }

  async abort(): Promise<void> {
    // What reached a pipe cannot be taken back; stop writing.
  }
}

/**
 * An output that writes to a stream (standard output for `-o -`).
 *
 * @example
 * const output = streamTarget(process.stdout);
 */
export function streamTarget(stream: NodeJS.WritableStream): OutputTarget {
  return new StreamTarget(stream);
}
