import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { clashingFiles } from "../file-identity.js";
import { describeError, openInput } from "../input-source.js";
import { type JournalEntry, readJournal } from "../journal.js";
import { isStandardOutput, type OutputTarget, openOutputFile, streamTarget } from "../output-target.js";

export interface UndoOptions {
  /** The repaired file (`-` for standard input). */
  file: string;
  journal: string;
  /** A path, or `-` for standard output; or `inPlace`. */
  output?: string;
  inPlace: boolean;
  quiet: boolean;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

function original(entry: JournalEntry): Buffer {
  return entry.original !== undefined
    ? Buffer.from(entry.original, "utf8")
    : Buffer.from(entry.originalBase64 ?? "", "base64");
}

/**
 * `toolcall undo REPAIRED --journal FILE -o OUT`: the input of a repair, rebuilt byte for byte from its output and
 * its journal. The repaired file must be exactly what the repair wrote (its SHA-256 is in the journal), and the
 * result must be exactly what the repair read (its SHA-256 too): anything else is refused and nothing is written.
 * Exit 0 restored, 2 refused.
 *
 * @example
 * await runUndo({ file: "fixed.jsonl", journal: "fixed.journal.jsonl", output: "original.jsonl", inPlace: false, quiet: false });
 */
export async function runUndo(options: UndoOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const fail = (message: string) => {
    stderr.write(`toolcall undo: ${message}\n`);
    return 2;
  };
  let text: string;
  try {
    text = await readFile(options.journal, "utf8");
  } catch (error) {
    return fail(`${options.journal}: ${describeError(error)}`);
  }
  const journal = readJournal(text);
  if (!journal.ok) return fail(`${options.journal}: ${journal.message}`);
  const { entries, trailer } = journal;

  const opened = await openInput({
    path: options.file,
    hash: true,
    ...(options.stdin ? { stdin: options.stdin } : {}),
  });
  if (!opened.ok) return fail(`${options.file}: ${opened.issue.message}`);
  let target: OutputTarget;
  const destination = options.inPlace ? options.file : (options.output as string);
  try {
    if (isStandardOutput(destination)) target = streamTarget(stdout);
    else {
      const existing = await stat(destination).catch(() => undefined);
      if (existing?.isDirectory()) return fail(`${destination} is a directory`);
      // Writing the restored file over the journal, however it is named, would lose the journal.
      if ((await clashingFiles({ files: { output: destination, journal: options.journal } })) !== undefined) {
        await opened.source.close();
        return fail(`${destination} is the journal ${options.journal}; write the restored file elsewhere`);
      }
      const gzip = options.inPlace ? trailer.output.gzip : destination.endsWith(".gz");
      target = (await openOutputFile({ destination, gzip })).target;
    }
  } catch (error) {
    await opened.source.close();
    return fail(`${destination}: ${describeError(error)}`);
  }

  const restored = createHash("sha256");
  let restoredBytes = 0;
  const emit = (bytes: Buffer) => {
    if (bytes.length === 0) return;
    target.write(bytes);
    restored.update(bytes);
    restoredBytes += bytes.length;
  };
  // Walk the repaired bytes: outside an entry they are the input's; an entry's bytes give way to its original.
  let offset = 0;
  let next = 0;
  const startEntries = () => {
    while (
      next < entries.length &&
      (entries[next] as JournalEntry).at === offset &&
      (entries[next] as JournalEntry).length === 0
    ) {
      emit(original(entries[next] as JournalEntry));
      next++;
    }
  };
  let inside: JournalEntry | undefined;
  try {
    startEntries();
    for await (const chunk of opened.source.chunks) {
      let at = 0;
      while (at < chunk.length) {
        if (inside !== undefined) {
          const end = inside.at + inside.length;
          const take = Math.min(chunk.length - at, end - offset);
          at += take;
          offset += take;
          if (offset === end) {
            inside = undefined;
            startEntries();
          }
          continue;
        }
        const entry = entries[next];
        const until = entry === undefined ? Number.POSITIVE_INFINITY : entry.at;
        const take = Math.min(chunk.length - at, until - offset);
        emit(chunk.subarray(at, at + take));
        at += take;
        offset += take;
        if (entry !== undefined && offset === entry.at) {
          emit(original(entry));
          next++;
          if (entry.length > 0) inside = entry;
          else startEntries();
        }
      }
      const waiting = target.flushIfFull();
      if (waiting !== undefined) await waiting;
    }
    if (inside === undefined) startEntries();
  } catch (error) {
    await target.abort();
    await opened.source.close();
    return fail(`${options.file}: ${describeError(error)}`);
  }
  await opened.source.close();
  const repairedSha = opened.source.sha256();
  if (offset !== trailer.output.bytes || repairedSha !== trailer.output.sha256 || next < entries.length) {
    await target.abort();
    return fail(
      `${options.file} is not the file this journal's repair wrote (${offset} bytes, SHA-256 ${repairedSha.slice(0, 12)}…; the journal expects ${trailer.output.bytes} bytes, ${trailer.output.sha256.slice(0, 12)}…): nothing written`,
    );
  }
  const restoredSha = restored.digest("hex");
  if (restoredBytes !== trailer.input.bytes || restoredSha !== trailer.input.sha256) {
    await target.abort();
    return fail(
      `the rebuilt bytes do not match the repair's input (SHA-256 ${restoredSha.slice(0, 12)}…): nothing written`,
    );
  }
  try {
    await target.commit();
  } catch (error) {
    await target.abort();
    return fail(`${destination}: ${describeError(error)}`);
  }
  if (!options.quiet) {
    const where = destination === "-" ? "standard output" : destination;
    (isStandardOutput(destination) ? stderr : stdout).write(
      `restored ${trailer.input.name} (${restoredBytes.toLocaleString("en-US")} bytes, ${entries.length.toLocaleString("en-US")} replacements undone) to ${where}\n`,
    );
  }
  return 0;
}
