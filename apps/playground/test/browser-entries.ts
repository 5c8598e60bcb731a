// Every published package's entry points, as a browser or an edge runtime imports them. Each package in
// packages/* is included as soon as it exists (a new package is checked without being registered here); only the
// entries listed in NODE_ONLY are left out, each with its reason.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repositoryRoot } from "./bundle-package.js";

/** Entry points meant for Node alone, and why. */
export const NODE_ONLY: Readonly<Record<string, string>> = {
  "@toolcall/conformance/vitest":
    "the vitest binding: vitest runs in Node and reads the vector files from disk (the runner itself is the browser entry)",
  "@toolcall/files":
    "checks and repairs files on disk: it reads and writes files, walks folders and starts worker threads (the record engine it drives is core's browser entry)",
  "@toolcall/files/parts":
    "the parts of @toolcall/files: file reading, the journal, the worker pool, all on Node's fs",
};

export interface BrowserEntry {
  /** The package's name. */
  name: string;
  /** What a user imports (`@toolcall/model-formats/glm`). */
  specifier: string;
  /** The package's peer dependencies: the user's own, left outside the bundle. */
  peers: string[];
}

interface Manifest {
  name: string;
  private?: boolean;
  exports?: Record<string, unknown>;
  peerDependencies?: Record<string, string>;
}

/** Whether an export's target is code (an object with `import`/`default`/`browser`), not data (`./vectors/*`). */
function isCode(target: unknown): boolean {
  return typeof target === "object" && target !== null && ("import" in target || "browser" in target);
}

/**
 * Every code entry point of every published package.
 *
 * @example
 * browserEntries().find((entry) => entry.specifier === "@toolcall/core"); // { name: "@toolcall/core", … }
 */
export function browserEntries(): BrowserEntry[] {
  const packagesDir = join(repositoryRoot, "packages");
  const entries: BrowserEntry[] = [];
  for (const dir of readdirSync(packagesDir).sort()) {
    const file = join(packagesDir, dir, "package.json");
    if (!existsSync(file)) continue;
    const manifest = JSON.parse(readFileSync(file, "utf8")) as Manifest;
    if (manifest.private) continue;
    const peers = Object.keys(manifest.peerDependencies ?? {});
    for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
      if (!isCode(target)) continue;
      const specifier = subpath === "." ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      if (Object.hasOwn(NODE_ONLY, specifier)) continue;
      entries.push({ name: manifest.name, specifier, peers });
    }
  }
  return entries;
}
