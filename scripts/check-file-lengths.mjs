#!/usr/bin/env node
// The style's limit on file length (one concept per file, most under 300 lines, never over 400: DESIGN.md and the
// contributing standards), checked on every source file under packages/*/src and apps/*/src, tests among them:
// tracked files and new ones git does not ignore, as they are in the working tree. Exits 1 listing each file over
// the limit with its length, longest first.
//
//   node scripts/check-file-lengths.mjs            # the repository
//   node scripts/check-file-lengths.mjs --max 300  # another limit, to see what comes next
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const MAX_LINES = 400;
const SOURCE = /^(packages|apps)\/[^/]+\/src\/.+\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;

/** Lines of a text as `wc -l` counts them, plus a last line without its newline. */
export function lineCount(text) {
  if (text === "") return 0;
  let lines = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return text.endsWith("\n") ? lines : lines + 1;
}

/** Source files of `root` longer than `max` lines: `[{ file, lines }]`, longest first. */
export function longFiles({ root, max = MAX_LINES }) {
  const listed = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const found = [];
  for (const file of new Set(listed.split("\0"))) {
    if (!SOURCE.test(file)) continue;
    let text;
    try {
      text = readFileSync(join(root, file), "utf8");
    } catch {
      continue; // listed by git but deleted in the working tree
    }
    const lines = lineCount(text);
    if (lines > max) found.push({ file, lines });
  }
  return found.sort((a, b) => b.lines - a.lines || (a.file < b.file ? -1 : 1));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf("--max");
  const max = at === -1 ? MAX_LINES : Number(process.argv[at + 1]);
  if (!Number.isSafeInteger(max) || max < 1) {
    console.error("check-file-lengths: --max wants a positive whole number of lines");
    process.exit(2);
  }
  const root = join(fileURLToPath(new URL(".", import.meta.url)), "..");
  const found = longFiles({ root, max });
  if (found.length === 0) {
    console.log(
      `file lengths: every source file under packages/*/src and apps/*/src has at most ${max} lines`,
    );
  } else {
    console.error(
      `file lengths: ${found.length} source file${found.length === 1 ? "" : "s"} over ${max} lines (the style: one concept per file, most under 300 lines, never over 400). Split each along its concepts, into kebab-case files named after their main export:`,
    );
    const width = Math.max(...found.map((f) => String(f.lines).length));
    for (const { file, lines } of found) console.error(`  ${String(lines).padStart(width)}  ${file}`);
    process.exitCode = 1;
  }
}
