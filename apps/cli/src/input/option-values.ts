// The values of options several commands share, read and checked: sizes, counts, providers, formats, repairs.
import { availableParallelism } from "node:os";
import { getProviderProfile, listProviderProfiles } from "@toolcall/core";
import { ALL_FORMATS, formatById, resolveRepairs } from "@toolcall/files";
import { usage } from "./usage.js";

/**
 * The default and the largest --max-line-bytes: 256 MiB, far beyond any real conversation. A line is held in memory a
 * few times over while it is read, checked, repaired and written; a longer one is streamed through unread
 * (`line_too_long`), so memory stays bounded whatever a file holds.
 */
export const DEFAULT_MAX_LINE_BYTES = 256 * 1024 * 1024;

const UNITS: Record<string, number> = {
  "": 1,
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  k: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gib: 1024 ** 3,
};

/** `600MB` (powers of 1000), `256MiB` or `256M` (powers of 1024), or plain bytes. */
function parseSize(value: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([a-zA-Z]*)$/.exec(value.trim());
  const unit = match ? UNITS[(match[2] as string).toLowerCase()] : undefined;
  if (!match || unit === undefined) return undefined;
  const bytes = Math.round(Number(match[1]) * unit);
  return Number.isSafeInteger(bytes) && bytes > 0 ? bytes : undefined;
}

export function maxLineBytes(command: string, value: string | undefined): number {
  if (value === undefined) return DEFAULT_MAX_LINE_BYTES;
  const bytes = parseSize(value);
  if (bytes === undefined)
    usage(command, `--max-line-bytes wants a size (268435456, 100MB, 256MiB), got ${value}`);
  if (bytes > DEFAULT_MAX_LINE_BYTES) {
    usage(
      command,
      `--max-line-bytes is at most 256 MiB (268435456 bytes), got ${value}: a line is held in memory a few times over while it is read and rewritten; longer lines are passed through unread (line_too_long), in bounded memory`,
    );
  }
  return bytes;
}

export function maxFindings(command: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const count = Number(value);
  if (!Number.isSafeInteger(count) || count < 0) usage(command, `--max-findings wants a count, got ${value}`);
  return count;
}

/** `--jobs N`: worker threads for JSONL; default one per core the machine offers (at most 8). */
export function jobs(command: string, value: string | undefined): number {
  if (value === undefined) return Math.min(8, availableParallelism());
  const count = Number(value);
  if (!Number.isSafeInteger(count) || count < 1 || count > 64)
    usage(command, `--jobs wants 1 to 64, got ${value}`);
  return count;
}

/**
 * `--provider ID` (repeatable, or `a,b`; `all` for every profile): the provider profiles named, checked to exist.
 * `single`: one profile at most (a repair makes a history one provider accepts).
 */
export function providerOption(command: string, values: readonly string[] | undefined, single: boolean) {
  if (values === undefined) return undefined;
  const ids = values.flatMap((value) => value.split(",")).map((id) => id.trim());
  const every = listProviderProfiles().map((profile) => profile.id);
  const named = ids.includes("all") ? every : ids;
  for (const id of named) {
    if (getProviderProfile(id) === undefined)
      usage(
        command,
        `--provider is one of ${every.join(", ")}${single ? "" : " (or all)"}; not ${JSON.stringify(id)}`,
      );
  }
  if (single && named.length !== 1)
    usage(command, "--provider names one profile here (a history is made for one provider at a time)");
  return [...new Set(named)];
}

export function formatOption(command: string, value: string | undefined) {
  if (value === undefined) return undefined;
  const format = formatById(value);
  if (format === undefined) {
    usage(
      command,
      `--format is one of ${ALL_FORMATS.map((f) => f.id).join(", ")}; not ${JSON.stringify(value)}`,
    );
  }
  return format;
}

/** What `toolcall` run without a command repairs with (it shows the names in the commands it suggests). */
export const DEFAULT_RUN_REPAIRS = ["core", "gemma-quote-markers"];

export async function repairs(command: string, names: readonly string[] | undefined) {
  const resolved = await resolveRepairs(names === undefined || names.length === 0 ? ["core"] : names);
  if (!resolved.ok) usage(command, resolved.error);
  return resolved;
}
