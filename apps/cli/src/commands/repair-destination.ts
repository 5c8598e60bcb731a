import { constants } from "node:fs";
import { copyFile, link, lstat, open as openFile, stat } from "node:fs/promises";
import { describeError } from "../input-source.js";
import { isStandardOutput, type OutputTarget, openOutputFile, streamTarget } from "../output-target.js";
import type { RepairOptions } from "./repair-options.js";

/** Where a file's repaired bytes go, or why they cannot go there. */
export type Destination =
  | { ok: true; target: OutputTarget; path: string; backup?: string }
  | { ok: false; code: string; message: string };

async function sameFile(a: string, b: string): Promise<boolean> {
  try {
    const [x, y] = await Promise.all([stat(a), stat(b)]);
    return x.dev === y.dev && x.ino === y.ino && x.isFile();
  } catch {
    return false;
  }
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
  options: Pick<RepairOptions, "inPlace" | "backupSuffix" | "output">,
  stdout: NodeJS.WritableStream,
): Promise<Destination> {
  if (options.inPlace) {
    const backup = `${file}${options.backupSuffix}`;
    if (await exists(backup)) {
      return {
        ok: false,
        code: "backup_exists",
        message: `${backup} exists; remove it or choose another --backup-suffix (a backup is never overwritten)`,
      };
    }
    const opened = await openOutputFile({ destination: file, gzip: await startsWithGzip(file) });
    return { ok: true, target: opened.target, path: file, backup };
  }
  const output = options.output as string;
  // Standard output however it is named (-, /dev/stdout, /dev/fd/1): written as a stream, never renamed over.
  if (isStandardOutput(output)) return { ok: true, target: streamTarget(stdout), path: output };
  const existing = await stat(output).catch(() => undefined);
  if (existing?.isDirectory())
    return { ok: false, code: "output_unwritable", message: `${output} is a directory` };
  if (file !== "-" && (await sameFile(file, output))) {
    return {
      ok: false,
      code: "output_is_input",
      message: `${output} is the input; the input is never overwritten unless --in-place (which keeps a backup)`,
    };
  }
  try {
    const opened = await openOutputFile({ destination: output, gzip: output.endsWith(".gz") });
    return { ok: true, target: opened.target, path: output };
  } catch (error) {
    return { ok: false, code: "output_unwritable", message: `${output}: ${describeError(error)}` };
  }
}

/** Keeps the original beside the file: a hard link (instant, no copy), or a copy where links are not possible. */
export async function makeBackup(file: string, backup: string): Promise<void> {
  try {
    await link(file, backup);
  } catch (error) {
    if ((error as { code?: string }).code === "EEXIST") throw error;
    await copyFile(file, backup, constants.COPYFILE_EXCL);
  }
}
