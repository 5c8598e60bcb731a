import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { ConformanceOperation } from "./implementation.js";
import { type ConformanceCase, casesFromVectors } from "./vector-cases.js";

export type { ConformanceCase } from "./vector-cases.js";

/** The vectors directory shipped with this package. */
export function defaultVectorsRoot(): string {
  return fileURLToPath(new URL("../vectors", import.meta.url));
}

/** Every vector file under `root`, sorted, relative paths. */
export function listVectorFiles(root: string = defaultVectorsRoot()): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".json")) files.push(relative(root, path));
    }
  };
  walk(root);
  return files.sort();
}

/** Which vectors `loadVectors` reads: the folder, and the rules and operations to keep. */
export interface LoadVectorsOptions {
  /** The vectors directory (default: the one shipped with this package, or `TOOLCALL_VECTORS`). */
  root?: string;
  /** Only these rules (`"R1"`, `"R4"` …). */
  rules?: readonly string[];
  /** Only these operations. */
  operations?: readonly ConformanceOperation[];
}

/**
 * Reads every vector file into a flat list of cases, group options merged into each test's, tags decoded. Throws on
 * a test without an `id` (`toolcall-conformance ids --write` gives one to each).
 *
 * @example
 * const cases = loadVectors({ rules: ["R1"] });
 * cases[0].id; // "r1-pinned-cases-json-object-string"
 */
export function loadVectors(options: LoadVectorsOptions = {}): ConformanceCase[] {
  const root = options.root ?? process.env.TOOLCALL_VECTORS ?? defaultVectorsRoot();
  const files = listVectorFiles(root).map((file) => ({
    file,
    groups: JSON.parse(readFileSync(join(root, file), "utf8")) as unknown,
  }));
  return casesFromVectors({
    files,
    ...(options.rules ? { rules: options.rules } : {}),
    ...(options.operations ? { operations: options.operations } : {}),
  });
}
