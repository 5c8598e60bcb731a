import { constants } from "node:fs";
import { copyFile, link, lstat, open as openFile, realpath, stat } from "node:fs/promises";
import {
  clashingFiles,
  describeError,
  type FileRole,
  isStandardOutput,
  type OutputTarget,
  openOutputFile,
  streamTarget,
} from "@toolcall/files/parts";
import type { RepairOptions } from "./repair-options.js";

/** Where a file's repaired bytes go, or why they cannot go there. */
export type Destination =
  | { ok: true; target: OutputTarget; path: string; backup?: string }
  | { ok: false; code: string; message: string };

/** The names of a repair's files in messages. */
const ROLE_NAMES: Record<FileRole, string> = {
  input: "the input",
  output: "the output",
  journal: "the journal",
  backup: "the backup",
};

/**
 * Refuses a repair two of whose files are one file, however they are named (a link, a hard link, `./x` and `x`):
 * writing one would destroy the other. Compared by device and inode once links are followed (by the path they lead
 * to for files not made yet), for every pair among input, output, journal and backup.
 */
async function refuseSameFiles(
  files: Partial<Record<FileRole, string>>,
  inPlace: boolean,
): Promise<Destination | undefined> {
  const clash = await clashingFiles({
    files,
    ...(inPlace ? { sameAllowed: ["input", "output"] as const } : {}),
  });
  if (clash === undefined) return undefined;
  const { first, second } = clash;
  if (first === "input" && second === "output")
    return {
      ok: false,
      code: "output_is_input",
      message: `${files.output} is the input; the input is never overwritten unless --in-place (which keeps a backup)`,
    };
  return {
    ok: false,
    code: first === "input" ? "output_is_input" : "outputs_are_one_file",
    message: `${files[second]} (${ROLE_NAMES[second]}) is the same file as ${files[first]} (${ROLE_NAMES[first]}); each must be a file of its own`,
  };
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** True when a file starts with gzip's magic number (read before the output is opened, to write the same way). */
async function startsWithGzip(path: string): Promise<boolean> {
  if (path === "-") return false;
  try {
    const handle = await openFile(path, "r");
    try {
      const { bytesRead, buffer } = await handle.read(Buffer.alloc(2), 0, 2, 0);
      return bytesRead === 2 && buffer[0] === 0x1f && buffer[1] === 0x8b;
    } finally {
      await handle.close();
    }
  } catch {
    return false;
  }
}

/** Where one file's repaired bytes go, after every check that can refuse (before any byte is written). */
export async function openDestination(
  file: string,
  options: Pick<RepairOptions, "inPlace" | "backupSuffix" | "output" | "journal">,
  stdout: NodeJS.WritableStream,
): Promise<Destination> {
  const input = file === "-" ? undefined : file;
  const journal = options.journal === undefined ? {} : { journal: options.journal };
  if (options.inPlace) {
    const backup = `${file}${options.backupSuffix}`;
    if (await exists(backup)) {
      return {
        ok: false,
        code: "backup_exists",
        message: `${backup} exists; remove it or choose another --backup-suffix (a backup is never overwritten)`,
      };
    }
    const refused = await refuseSameFiles({ input, output: file, ...journal, backup }, true);
    if (refused !== undefined) return refused;
    const opened = await openOutputFile({ destination: file, gzip: await startsWithGzip(file) });
    return { ok: true, target: opened.target, path: file, backup };
  }
  const output = options.output as string;
  // Standard output however it is named (-, /dev/stdout, /dev/fd/1): written as a stream, never renamed over.
  if (isStandardOutput(output)) return { ok: true, target: streamTarget(stdout), path: output };
  const existing = await stat(output).catch(() => undefined);
  if (existing?.isDirectory())
    return { ok: false, code: "output_unwritable", message: `${output} is a directory` };
  const refused = await refuseSameFiles({ input, output, ...journal }, false);
  if (refused !== undefined) return refused;
  try {
    const opened = await openOutputFile({ destination: output, gzip: output.endsWith(".gz") });
    return { ok: true, target: opened.target, path: output };
  } catch (error) {
    return { ok: false, code: "output_unwritable", message: `${output}: ${describeError(error)}` };
  }
}

/**
 * Keeps the original beside the file: a hard link (instant, no copy), or a copy where links are not possible. For a
 * FILE that is a symbolic link, the backup holds the bytes of the file the link names (a link to it would be
 * repaired along with it): `FILE.bak` beside the link, a regular file.
 */
export async function makeBackup(file: string, backup: string): Promise<void> {
  const original = await realpath(file);
  try {
    await link(original, backup);
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") throw error;
    await copyFile(original, backup, constants.COPYFILE_EXCL);
  }
}
