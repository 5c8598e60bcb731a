import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { InputIssue } from "../input/input-issue.js";
import { DEFAULT_INCLUDE, type SkippedEntry, walkTree } from "./walk-tree.js";

/** A file found under a directory given on the command line. */
export interface TreeFile {
  /** The directory as given. */
  root: string;
  /** Its path in the tree (`/` between names). */
  relative: string;
}

/** The command line's paths with every directory replaced by the files of its tree. */
export interface ExpandedInputs {
  files: string[];
  /** The files that came from a directory, and where in it. */
  trees: Map<string, TreeFile>;
  /** What the walks did not read (links, output directories inside the tree…), for the summary. */
  skipped: SkippedEntry[];
  /** Directories that could not be read, or held no file to read: reported as files that could not be read. */
  unreadable: Array<{ file: string; issue: InputIssue }>;
}

/**
 * The words for a skipped entry in a report.
 *
 * @example
 * SKIPPED_REASONS.symbolic_link; // "a symbolic link, not followed (name it to read it)"
 */
export const SKIPPED_REASONS: Record<SkippedEntry["reason"], string> = {
  symbolic_link: "a symbolic link, not followed (name it to read it)",
  unreadable_directory: "a directory that cannot be read",
  output_inside: "the output or journal directory, inside the tree",
  seen_before: "a directory already walked under another name",
};

/**
 * Expands the paths given to `check` or `repair`: a file (or `-`) stays as it is, whatever its name (the globs do
 * not apply to a file named on the command line); a directory becomes the files of its tree that `include`
 * (default {@link DEFAULT_INCLUDE}) matches and `exclude` does not, walked as {@link walkTree} walks. A directory
 * given as a symbolic link is walked (it was named); links inside it are not followed.
 *
 * @example
 * const { files } = await expandInputs({ paths: ["data/"], include: ["**\/*.jsonl"] });
 */
export async function expandInputs(options: {
  paths: readonly string[];
  include?: readonly string[];
  exclude?: readonly string[];
  /** Directories never read (the output and journal directories of a repair). */
  skip?: readonly string[];
}): Promise<ExpandedInputs> {
  const expanded: ExpandedInputs = { files: [], trees: new Map(), skipped: [], unreadable: [] };
  const include =
    options.include !== undefined && options.include.length > 0 ? options.include : DEFAULT_INCLUDE;
  for (const path of options.paths) {
    const stats = path === "-" ? undefined : await stat(path).catch(() => undefined);
    if (stats === undefined || !stats.isDirectory()) {
      expanded.files.push(path);
      continue;
    }
    const walked = await walkTree({
      root: path,
      include,
      ...(options.exclude !== undefined ? { exclude: options.exclude } : {}),
      ...(options.skip !== undefined ? { skip: options.skip } : {}),
    });
    for (const entry of walked.skipped) {
      if (entry.reason === "unreadable_directory") {
        expanded.unreadable.push({
          file: entry.path,
          issue: { code: "input_unreadable", message: `a directory that cannot be read (${entry.message})` },
        });
      } else expanded.skipped.push(entry);
    }
    if (walked.files.length === 0 && !walked.skipped.some((entry) => entry.path === path)) {
      expanded.unreadable.push({
        file: path,
        issue: {
          code: "input_unreadable",
          message: `a directory with no file matching ${include.join(" or ")}${(options.exclude ?? []).length > 0 ? ` but not ${options.exclude?.join(" or ")}` : ""} (--include, --exclude)`,
        },
      });
    }
    for (const file of walked.files) {
      const joined = join(path, file.relative);
      expanded.files.push(joined);
      expanded.trees.set(joined, { root: path, relative: file.relative });
    }
  }
  return expanded;
}
