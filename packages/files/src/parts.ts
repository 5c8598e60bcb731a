// The parts `checkFile`, `repairFile`, `undoFile` and the command line are built from: opened inputs, the record
// pipeline and its worker threads, output targets, the journal, the folder walk's expansion of paths.

export { clashingFiles, type FileRole } from "./input/file-identity.js";
export { describeError, type InputSource, type OpenInputResult, openInput } from "./input/input-source.js";
export type { InputFormat } from "./input/scan-input.js";
export { type JournalEntry, JournaledOutput, type ReadJournalResult, readJournal } from "./output/journal.js";
export {
  isStandardOutput,
  type OutputTarget,
  OutputWriteError,
  openOutputFile,
  removeTemporaryFiles,
  streamTarget,
} from "./output/output-target.js";
export { type RestoreResult, restoreInput } from "./output/restore-input.js";
export { processFile } from "./pipeline/process-file.js";
export type { ProcessResult, RecordHandler } from "./pipeline/process-input.js";
export { findingPlace, type RecordPlace } from "./records/places.js";
export { providerCheckOf } from "./records/provider-verdicts.js";
export type { RecordData, WorkContext } from "./records/record-work.js";
export { expandInputs, SKIPPED_REASONS } from "./tree/tree-inputs.js";
export { PoolCache } from "./workers/pool-cache.js";
