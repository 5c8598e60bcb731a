import type { SanitizeOptions } from "@toolcall/core";
import type { ConversationFormat, PendingPolicy, RepairRule } from "@toolcall/core/kit";
import type { SkippedEntry } from "@toolcall/files";
import type { InputFormat } from "@toolcall/files/parts";

/** What `toolcall repair` was asked to do (its flags, read and checked). */
export interface RepairOptions {
  /** One file with `output`; one or more with `inPlace`. `-` is standard input. */
  files: readonly string[];
  /** A path (a regular file, or a device, FIFO or `/dev/fd/N` written in place), or `-` for standard output. */
  output?: string;
  inPlace: boolean;
  backupSuffix: string;
  policy: NonNullable<SanitizeOptions["policy"]>;
  missingResult: NonNullable<SanitizeOptions["missingResult"]>;
  /** Calls awaiting their results at the end of a history: kept (default), synthesized, or dropped. */
  pending?: PendingPolicy;
  repairs: readonly RepairRule[];
  /** The names the repairs were given by (worker threads resolve them again). */
  repairNames?: readonly string[];
  /** Worker threads for JSONL (1: none). */
  jobs?: number;
  /** True when `--jobs` was given: workers start whatever the file's size. */
  jobsGiven?: boolean;
  syntheticResult?: string;
  /** Read every record with this format instead of detecting one. */
  format?: ConversationFormat;
  /**
   * A provider profile (`--provider`): each history is made one it accepts too (its constraints' fixes after core's),
   * and what is left is checked against it.
   */
  provider?: string;
  /** Where to write the journal that `toolcall undo` rebuilds the input from (one input file). */
  journal?: string;
  /** Each file of a directory tree: its own output (`-o OUT/`) and journal (`--journal DIR/`), by file. */
  targets?: ReadonlyMap<string, { output?: string; journal?: string }>;
  /** Paths that could not be read as a whole before any file was (a directory that cannot be read, or holds none). */
  unreadable?: ReadonlyArray<{ file: string; issue: { code: string; message: string } }>;
  /** What the walk of a directory did not read (symbolic links, the output inside the tree). */
  skipped?: readonly SkippedEntry[];
  json: boolean;
  quiet: boolean;
  summaryOnly?: boolean;
  maxFindings?: number;
  maxLineBytes: number;
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/** Totals for one file. */
export interface RepairFileSummary {
  file: string;
  output?: string;
  framing?: InputFormat;
  formats: string[];
  records: number;
  conversations: number;
  changed: number;
  changes: number;
  /** Records with errors left after the repair (no rule repairs them, or their format cannot hold the repair). */
  withErrors: number;
  notRewritable: number;
  passedThrough: number;
  /** True when the output was written (with `--in-place`: false when nothing needed a change). */
  written: boolean;
  backup?: string;
  journal?: string;
  error?: { code: string; message: string };
}

/** Totals for the whole run. */
export interface RepairSummary {
  files: number;
  records: number;
  conversations: number;
  changed: number;
  changes: number;
  byRule: Record<string, number>;
  withErrors: number;
  notRewritable: number;
  passedThrough: number;
  findingsNotShown: number;
  /** What the walk of a directory did not read. */
  skipped: SkippedEntry[];
  exitCode: number;
}

/** What `runRepair` answers: the exit code, the totals and each file's. */
export interface RepairRunResult {
  exitCode: number;
  summary: RepairSummary;
  files: RepairFileSummary[];
}
