import { readFile, stat } from "node:fs/promises";
import {
  clashingFiles,
  describeError,
  isStandardOutput,
  type OutputTarget,
  openInput,
  openOutputFile,
  readJournal,
  restoreInput,
  streamTarget,
} from "@toolcall/files/parts";

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

  const rebuilt = await restoreInput({ source: opened.source, entries, trailer, target });
  await opened.source.close();
  if (!rebuilt.ok) {
    await target.abort();
    return fail(
      rebuilt.code === "input_unreadable"
        ? `${options.file}: ${describeError(rebuilt.error)}`
        : rebuilt.message,
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
      `restored ${trailer.input.name} (${rebuilt.bytes.toLocaleString("en-US")} bytes, ${entries.length.toLocaleString("en-US")} replacements undone) to ${where}\n`,
    );
  }
  return 0;
}
