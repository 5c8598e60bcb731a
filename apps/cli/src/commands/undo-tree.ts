import { mkdir } from "node:fs/promises";
import { dirname, join } from "node:path";
import { walkTree } from "@toolcall/files";
import { JOURNAL_SUFFIX } from "../pipeline/tree-options.js";
import { runUndo } from "./undo.js";

/**
 * `toolcall undo OUT/ --journal J/ -o RESTORED/` (or `--in-place`): every file a repair of a directory wrote, rebuilt
 * byte for byte from its journal. Each journal `J/PATH.journal` names the repaired file `OUT/PATH`, restored to
 * `RESTORED/PATH` (directories made as needed) or in place. Each file is checked as `undo` checks one (the repaired
 * bytes and the rebuilt bytes against the journal's digests) and refused on its own. Exit 0 when every file was
 * restored, 2 when any was refused or the journal directory holds no journal.
 *
 * @example
 * await runUndoTree({ directory: "fixed", journal: "journals", output: "restored", inPlace: false, quiet: false });
 */
export async function runUndoTree(options: {
  directory: string;
  journal: string;
  output?: string;
  inPlace: boolean;
  quiet: boolean;
}): Promise<number> {
  const journals = await walkTree({ root: options.journal, include: [`**/*${JOURNAL_SUFFIX}`] });
  if (journals.files.length === 0) {
    process.stderr.write(`toolcall undo: ${options.journal} holds no journal (*${JOURNAL_SUFFIX})\n`);
    return 2;
  }
  let exitCode = 0;
  for (const journal of journals.files) {
    const relative = journal.relative.slice(0, -JOURNAL_SUFFIX.length);
    const output = options.inPlace ? undefined : join(options.output as string, relative);
    if (output !== undefined) await mkdir(dirname(output), { recursive: true }).catch(() => {});
    const code = await runUndo({
      file: join(options.directory, relative),
      journal: journal.path,
      ...(output !== undefined ? { output } : {}),
      inPlace: options.inPlace,
      quiet: options.quiet,
    });
    exitCode = Math.max(exitCode, code);
  }
  if (!options.quiet && journals.files.length > 1) {
    process.stdout.write(
      `${exitCode === 0 ? "restored every file" : "some files were not restored"} of ${options.directory} (${journals.files.length} journals)\n`,
    );
  }
  return exitCode;
}
