import { lstat, readlink, realpath, stat } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";

/** Links followed before a chain counts as a loop (Linux's own limit for one path). */
const MAX_LINKS = 40;

/** Where a path leads once every symbolic link on it is followed, or why it leads nowhere. */
export type FollowedPath = { ok: true; path: string } | { ok: false; code: "ELOOP"; message: string };

/**
 * Where a name leads, whether or not a file is there: a name that reaches a file is returned as it is (absolute; the
 * system follows its links when it is opened), a dangling link leads to the file it names (writing there creates
 * that file, as a shell's `>` does), and a chain of more than 40 links (a loop) leads nowhere. Relative link targets
 * are read from the link's own directory.
 *
 * @example
 * await followLinks("out.jsonl"); // { ok: true, path: "/data/out.jsonl" } when out.jsonl is no link
 */
export async function followLinks(path: string): Promise<FollowedPath> {
  const loop: FollowedPath = {
    ok: false,
    code: "ELOOP",
    message: "too many levels of symbolic links (a chain of links that loops)",
  };
  // A name that leads to a file is left to the system to follow (it knows its own links, such as /dev/fd/N of a
  // pipe); only a name that leads nowhere is followed here, to find the file it would create.
  const reached = await stat(path).then(
    () => "found" as const,
    (error: { code?: string }) => error.code,
  );
  if (reached === "found") return { ok: true, path: resolve(path) };
  if (reached === "ELOOP") return loop;
  let current = resolve(path);
  for (let hops = 0; hops <= MAX_LINKS; hops++) {
    const found = await lstat(current).catch(() => undefined);
    if (found === undefined || !found.isSymbolicLink()) return { ok: true, path: current };
    current = resolve(dirname(current), await readlink(current));
  }
  return loop;
}

/**
 * What makes two names the same file: the device and inode of an existing file (whatever names and links lead to
 * it), or the path a name leads to when no file is there yet (two names that would create the same file). Names
 * that are not regular files (a device, a FIFO, standard output) have none: writing to them twice is the caller's
 * choice, never a loss of a file.
 *
 * @example
 * (await fileIdentity("s.jsonl")) === (await fileIdentity("link-to-s.jsonl")); // true
 */
export async function fileIdentity(path: string): Promise<string | undefined> {
  if (path === "-") return undefined;
  const followed = await followLinks(path);
  if (!followed.ok) return undefined;
  const found = await stat(followed.path).catch(() => undefined);
  if (found === undefined) {
    // Not there yet: its directory, links included, decides where it will be.
    const directory = await realpath(dirname(followed.path)).catch(() => dirname(followed.path));
    return `path:${join(directory, basename(followed.path))}`;
  }
  return found.isFile() ? `file:${found.dev}:${found.ino}` : undefined;
}

/**
 * The roles a repair's files play, each a name given on the command line (or derived, as the backup is).
 *
 * @example
 * await clashingFiles({ files: { input: "a.jsonl", output: "./a.jsonl" } }); // { first: "input", second: "output" }
 */
export type FileRole = "input" | "output" | "journal" | "backup";

/**
 * The first two of a repair's files that are the same file (by {@link fileIdentity}: a link, a hard link or
 * another spelling of the same path counts), or `undefined` when every one is a file of its own. Roles whose name
 * is absent are skipped; `sameAllowed` lists a pair that may be the same (the input and the output of `--in-place`).
 *
 * @example
 * await clashingFiles({ files: { input: "s.jsonl", journal: "link-to-s.jsonl" } });
 * // { first: "input", second: "journal" }
 */
export async function clashingFiles(options: {
  files: Partial<Record<FileRole, string>>;
  sameAllowed?: readonly [FileRole, FileRole];
}): Promise<{ first: FileRole; second: FileRole } | undefined> {
  const known: Array<{ role: FileRole; identity: string }> = [];
  for (const role of ["input", "output", "journal", "backup"] as const) {
    const name = options.files[role];
    if (name === undefined) continue;
    const identity = await fileIdentity(name);
    if (identity === undefined) continue;
    for (const other of known) {
      if (other.identity !== identity) continue;
      const allowed = options.sameAllowed;
      if (allowed?.includes(other.role) && allowed.includes(role)) continue;
      return { first: other.role, second: role };
    }
    known.push({ role, identity });
  }
  return undefined;
}
