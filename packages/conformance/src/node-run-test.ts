// The runner as the Node entry exports it: render vectors that name a shared template file read it from disk, in
// `templatesDir` or `$TOOLCALL_TEMPLATES` (the browser entry exports the runner without file access).
import type { ConformanceImplementation } from "./implementation.js";
import type { ConformanceCase } from "./load-vectors.js";
import {
  type ConformanceOutcome,
  type ConformanceSummary,
  type RunTestOptions,
  runConformance as runConformanceWith,
  runTest as runTestWith,
} from "./run-test.js";
import { readTemplateFile, templatesDirectory } from "./template-file.js";

/**
 * Runs one case against an implementation; never rejects. Template files of render vectors are read from disk.
 *
 * @example
 * const outcome = await runTest(implementation, loadVectors()[0]);
 */
export function runTest(
  implementation: ConformanceImplementation,
  testCase: ConformanceCase,
  options: RunTestOptions = {},
): Promise<ConformanceOutcome> {
  const templatesDir = templatesDirectory(options.templatesDir);
  return runTestWith(implementation, testCase, {
    readTemplateFile,
    ...options,
    ...(templatesDir !== undefined ? { templatesDir } : {}),
  });
}

/**
 * Runs every case and totals the outcomes. Template files of render vectors are read from disk.
 *
 * @example
 * const summary = await runConformance({ implementation, cases: loadVectors(), level: "mapping" });
 */
export function runConformance(args: Parameters<typeof runConformanceWith>[0]): Promise<ConformanceSummary> {
  const templatesDir = templatesDirectory(args.templatesDir);
  return runConformanceWith({
    readTemplateFile,
    ...args,
    ...(templatesDir !== undefined ? { templatesDir } : {}),
  });
}
