import { stat } from "node:fs/promises";
import { usage } from "../input/usage.js";

/** What each file of a directory tree's journal is called in the journal directory: its path in the tree, and this. */
export const JOURNAL_SUFFIX = ".journal";

/**
 * True when `path` is a directory (a link to one too); false for anything else, `-` and what does not exist.
 *
 * @example
 * await isDirectory("data/"); // true
 */
export async function isDirectory(path: string): Promise<boolean> {
  if (path === "-") return false;
  return (await stat(path).catch(() => undefined))?.isDirectory() === true;
}

/**
 * `--include` and `--exclude` as given (each repeatable, or comma-free globs one per flag): an empty glob is refused.
 *
 * @example
 * globOptions("check", { include: ["**\/*.jsonl"] }); // { include: ["**\/*.jsonl"] }
 */
export function globOptions(
  command: string,
  values: { include?: string[] | undefined; exclude?: string[] | undefined },
): { include?: string[]; exclude?: string[] } {
  for (const glob of [...(values.include ?? []), ...(values.exclude ?? [])]) {
    if (glob.trim() === "") usage(command, "--include and --exclude take a glob, not an empty string");
  }
  return {
    ...(values.include !== undefined ? { include: values.include } : {}),
    ...(values.exclude !== undefined ? { exclude: values.exclude } : {}),
  };
}

/**
 * Where a repair of one directory writes: with `-o OUT`, OUT is a directory (made when missing) that mirrors the
 * tree; `--journal J` is a directory too, holding one journal per file (`J/PATH.journal`). `undefined` when the
 * input is not one directory. Refuses an OUT or J that exists and is not a directory, or standard output.
 *
 * @example
 * await treeRepair({ positionals: ["data/"], output: "fixed/", inPlace: false }); // { output: "fixed/" }
 */
export async function treeRepair(options: {
  positionals: readonly string[];
  output: string | undefined;
  journal: string | undefined;
  inPlace: boolean;
}): Promise<{ output?: string; journal?: string } | undefined> {
  const { positionals } = options;
  const directories = [];
  for (const path of positionals) if (await isDirectory(path)) directories.push(path);
  if (directories.length === 0) return undefined;
  if (!options.inPlace && positionals.length > 1)
    usage("repair", "one directory with -o OUT/ (several need --in-place)");
  if (options.output === "-")
    usage("repair", "a directory is written to a directory: -o OUT/, not standard output");
  for (const [flag, path] of [
    ["-o", options.output],
    ["--journal", options.journal],
  ] as const) {
    if (path === undefined) continue;
    const existing = await stat(path).catch(() => undefined);
    if (existing !== undefined && !existing.isDirectory())
      usage("repair", `${flag} ${path} is a file: a directory is written to a directory`);
  }
  for (const directory of directories) {
    const input = await stat(directory);
    for (const path of [options.output, options.journal]) {
      const other = path === undefined ? undefined : await stat(path).catch(() => undefined);
      if (other !== undefined && other.dev === input.dev && other.ino === input.ino)
        usage("repair", `${path} is the input directory; write elsewhere, or repair it --in-place`);
    }
  }
  if (options.output !== undefined && options.journal !== undefined && options.output === options.journal)
    usage("repair", "the output and the journal directories are one directory");
  return {
    ...(options.output !== undefined ? { output: options.output } : {}),
    ...(options.journal !== undefined ? { journal: options.journal } : {}),
  };
}
