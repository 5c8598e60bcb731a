// Check, repair and undo session files, the way the `toolcall` command line does, from a program. The parts the
// command line composes these from are in `@toolcall/files/parts`.

export {
  type CheckFileOptions,
  type CheckFileResult,
  checkFile,
  type FileCheck,
  type FileFinding,
} from "./api/check-file.js";
export {
  type FileRepair,
  type RepairFileOptions,
  type RepairFileResult,
  type RepairFinding,
  repairFile,
} from "./api/repair-file.js";
export { type UndoFileResult, undoFile } from "./api/undo-file.js";
export { describeInputIssue, INPUT_ISSUE_CODES, type InputIssue } from "./input/input-issue.js";
export { ALL_FORMATS, FORMATS, formatById, formatTable } from "./records/formats.js";
export { type ResolveRepairsResult, resolveRepairs } from "./records/repair-registry.js";
export { type SkippedEntry, walkTree } from "./tree/walk-tree.js";
