import type { Dirent, Stats } from "node:fs";
import { lstat, opendir, stat } from "node:fs/promises";
import { join } from "node:path";
import picomatch from "picomatch";

/**
 * What `check` and `repair` read in a directory when no `--include` is given: the files a conversation is kept in
 * (JSON, JSON Lines, server-sent event logs), gzipped or not.
 */
export const DEFAULT_INCLUDE = ["**/*.{json,jsonl,ndjson,sse}", "**/*.{json,jsonl,ndjson,sse}.gz"] as const;

/** A file found in a walk: its path (the directory as given, joined with `relative`) and its path in the tree. */
export interface WalkedFile {
  path: string;
  /** With `/` between names, whatever the platform: what the globs are matched against. */
  relative: string;
}

/**
 * Something the walk did not go into or read, and why.
 *
 * @example
 * const { skipped } = await walkTree({ root: "sessions" });
 * skipped.map((entry: SkippedEntry) => `${entry.path}: ${entry.reason}`);
 */
export interface SkippedEntry {
  path: string;
  reason: "symbolic_link" | "unreadable_directory" | "output_inside" | "seen_before";
  message?: string;
}

export interface WalkResult {
  files: WalkedFile[];
  skipped: SkippedEntry[];
  /** Directory entries looked at (the walk's work: one per entry, each directory read once). */
  entries: number;
}

const byName = (a: Dirent, b: Dirent) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * The files of a directory tree that `include` matches and `exclude` does not (picomatch globs against the path in
 * the tree; dot files only when a glob names them), in a stable order (each directory's files by name, then its
 * directories by name). Symbolic
 * links are never followed, to files or to directories: a walk stays inside the tree it was given and reads each
 * file once, and no loop of links can hold it; each link it meets is reported as skipped (name a linked file on the
 * command line to read it). A directory excluded, or one of `skip` (an output or journal directory inside the tree,
 * told by device and inode), is not gone into; a directory seen before under another name (a bind mount) is
 * skipped, so even a loop the file system makes ends. A directory that cannot be read is reported and the walk goes
 * on.
 *
 * @example
 * const { files } = await walkTree({ root: "data", include: ["**\/*.jsonl"], exclude: ["**\/tmp/**"] });
 */
export async function walkTree(options: {
  root: string;
  include?: readonly string[];
  exclude?: readonly string[];
  /** Directories not to go into (by identity, whatever they are called). */
  skip?: readonly string[];
}): Promise<WalkResult> {
  const include = picomatch([...(options.include ?? DEFAULT_INCLUDE)]);
  const excludes = options.exclude ?? [];
  const exclude = excludes.length > 0 ? picomatch([...excludes]) : () => false;
  const identity = (stats: Stats) => `${stats.dev}:${stats.ino}`;
  const skip = new Set<string>();
  for (const path of options.skip ?? []) {
    const stats = await stat(path).catch(() => undefined);
    if (stats?.isDirectory()) skip.add(identity(stats));
  }
  const files: WalkedFile[] = [];
  const skipped: SkippedEntry[] = [];
  const seen = new Set<string>();
  let entries = 0;
  // Depth first, in name order: a stack of directories still to read, the next one on top.
  const stack: Array<{ path: string; relative: string }> = [{ path: options.root, relative: "" }];
  while (stack.length > 0) {
    const directory = stack.pop() as { path: string; relative: string };
    const stats = await lstat(directory.path).catch(() => undefined);
    if (stats !== undefined) {
      const id = identity(stats);
      if (skip.has(id)) {
        skipped.push({ path: directory.path, reason: "output_inside" });
        continue;
      }
      if (seen.has(id)) {
        skipped.push({ path: directory.path, reason: "seen_before" });
        continue;
      }
      seen.add(id);
    }
    let listing: Dirent[];
    try {
      listing = [];
      for await (const entry of await opendir(directory.path)) listing.push(entry);
    } catch (error) {
      skipped.push({
        path: directory.path,
        reason: "unreadable_directory",
        message: (error as { code?: string }).code ?? String(error),
      });
      continue;
    }
    listing.sort(byName);
    const subdirectories: Array<{ path: string; relative: string }> = [];
    for (const entry of listing) {
      entries++;
      const relative = directory.relative === "" ? entry.name : `${directory.relative}/${entry.name}`;
      const path = join(directory.path, entry.name);
      let kind = { file: entry.isFile(), directory: entry.isDirectory(), link: entry.isSymbolicLink() };
      if (!kind.file && !kind.directory && !kind.link) {
        // A file system that does not say what an entry is (or a device, a socket, a FIFO): asked once more.
        const known = await lstat(path).catch(() => undefined);
        if (known === undefined) continue;
        kind = { file: known.isFile(), directory: known.isDirectory(), link: known.isSymbolicLink() };
      }
      if (kind.link) {
        // Said when it would have been read: a link to a directory not excluded, or to a file the globs take.
        const target = await stat(path).catch(() => undefined);
        const wanted = target?.isDirectory()
          ? !exclude(relative) && !exclude(`${relative}/`)
          : target?.isFile() === true && include(relative) && !exclude(relative);
        if (wanted) skipped.push({ path, reason: "symbolic_link" });
        continue;
      }
      if (kind.directory) {
        if (!exclude(relative) && !exclude(`${relative}/`)) subdirectories.push({ path, relative });
        continue;
      }
      if (kind.file && include(relative) && !exclude(relative)) files.push({ path, relative });
    }
    for (let i = subdirectories.length - 1; i >= 0; i--)
      stack.push(subdirectories[i] as { path: string; relative: string });
  }
  return { files, skipped, entries };
}
