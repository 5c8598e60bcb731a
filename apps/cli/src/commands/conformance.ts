import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { isAbsolute, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { ConformanceImplementation } from "@toolcall/conformance";

export interface ConformanceCommandOptions {
  implementation: string;
  /** A named export to use instead of `implementation` or the default export. */
  exportName?: string;
  skip: readonly string[];
  rules?: readonly string[];
  /** The level to check at (default: the implementation's declared level, else full). */
  level?: "mapping" | "full";
  json: boolean;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
}

/** A path (relative to the working directory) or a package name resolved from the working directory. */
function moduleUrl(specifier: string): string {
  const asPath = isAbsolute(specifier) ? specifier : resolve(specifier);
  if (specifier.startsWith(".") || isAbsolute(specifier) || existsSync(asPath))
    return pathToFileURL(asPath).href;
  const require = createRequire(join(process.cwd(), "noop.js"));
  return pathToFileURL(require.resolve(specifier)).href;
}

/**
 * `toolcall conformance --implementation MODULE`: the conformance suite (`@toolcall/conformance`) against a
 * downstream module's export `implementation` (or its default export, or `--export NAME`), for projects that do
 * not use vitest. Prints each failure and `N passed, N failed, N skipped`; exit 1 when a case fails, 2 when the
 * module cannot be loaded.
 *
 * @example
 * await runConformanceCommand({ implementation: "./implementation.mjs", skip: [], json: false });
 */
export async function runConformanceCommand(options: ConformanceCommandOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  let module: Record<string, unknown>;
  try {
    module = (await import(moduleUrl(options.implementation))) as Record<string, unknown>;
  } catch (error) {
    stderr.write(
      `toolcall conformance: cannot load ${options.implementation}: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 2;
  }
  const name = options.exportName;
  const implementation = (name !== undefined ? module[name] : (module.implementation ?? module.default)) as
    | ConformanceImplementation
    | undefined;
  if (typeof implementation !== "object" || implementation === null) {
    stderr.write(
      `toolcall conformance: ${options.implementation} exports no ${name !== undefined ? `\`${name}\`` : "`implementation` and no default"} object\n`,
    );
    return 2;
  }
  // Loaded here, not at startup: only this command needs the suite (and its vectors and schema validator).
  const { loadVectors, runConformance } = await import("@toolcall/conformance");
  const cases = loadVectors(options.rules ? { rules: options.rules.map((rule) => rule.toUpperCase()) } : {});
  // Awaited: the runner may be asynchronous (implementations may be).
  const summary = await runConformance({
    implementation,
    cases,
    skip: options.skip,
    ...(options.level !== undefined ? { level: options.level } : {}),
  });
  if (options.json) {
    stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
  } else {
    for (const failure of summary.failures)
      stdout.write(`FAIL ${failure.id}\n  ${failure.messages.join("\n  ")}\n`);
    stdout.write(`${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped\n`);
  }
  return summary.failed === 0 ? 0 : 1;
}
