#!/usr/bin/env node
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { assignVectorIds } from "./assign-ids.js";
import { checkVectors } from "./check-vectors.js";
import { type ConformanceImplementation, checkImplementation } from "./implementation.js";
import { isLevel } from "./levels.js";
import { defaultVectorsRoot, loadVectors } from "./load-vectors.js";
import { runConformance } from "./node-run-test.js";
import { skipList } from "./skip-list.js";

const HELP = `toolcall-conformance: the tool-call conformance suite

Usage:
  toolcall-conformance check [--vectors DIR]
      Validate vector files against the schema and the suite's rules. Exit 1 on any problem.
  toolcall-conformance ids [--write] [--vectors DIR]
      List an id for every test that has none (its file's folder and topic, then its description); with
      --write, insert each as the test's first key.
  toolcall-conformance run --implementation MODULE [--level mapping|full] [--skip ID]... [--rules R1,R4]
                           [--vectors DIR] [--json]
      Run the suite against MODULE's export \`implementation\` (or its default export), at its declared level
      (\`level: "mapping"\` or \`"full"\`, the default) or the one given. --skip takes a vector id or an id prefix
      ending in * (r1-lossless-*). Prints each failure, the totals per rule, then "N passed, N failed, N skipped
      (LEVEL level)". Exit 1 when a case fails, 2 on a bad declaration or a skip entry that names no vector.

Options:
  --vectors DIR   the vectors directory (default: the one shipped with this package, or $TOOLCALL_VECTORS)
  -h, --help      this help
`;

/** Skip entries that name no vector of the whole suite. */
function runSkipProblems(root: string, skip: readonly string[]): string[] {
  return skipList(skip).unmatched(loadVectors({ root }).map((c) => c.id));
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      vectors: { type: "string" },
      implementation: { type: "string" },
      skip: { type: "string", multiple: true },
      rules: { type: "string" },
      json: { type: "boolean" },
      write: { type: "boolean" },
      level: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  const command = positionals[0];
  if (values.help || command === undefined) {
    process.stdout.write(HELP);
    return command === undefined && !values.help ? 2 : 0;
  }
  const root = values.vectors ?? process.env.TOOLCALL_VECTORS ?? defaultVectorsRoot();
  if (command === "check") {
    const problems = checkVectors(root);
    for (const problem of problems) process.stderr.write(`${problem.file}: ${problem.message}\n`);
    const cases = loadVectors({ root });
    process.stdout.write(
      problems.length === 0 ? `vectors ok: ${cases.length} cases\n` : `${problems.length} problems\n`,
    );
    return problems.length === 0 ? 0 : 1;
  }
  if (command === "ids") {
    const given = assignVectorIds({ root, write: values.write === true });
    for (const { file, id } of given) process.stdout.write(`${file}: ${id}\n`);
    process.stdout.write(
      `${given.length} ${given.length === 1 ? "id" : "ids"} ${values.write ? "written" : "to write (--write)"}\n`,
    );
    return 0;
  }
  if (command === "run") {
    if (values.implementation === undefined) {
      process.stderr.write("run needs --implementation MODULE\n");
      return 2;
    }
    const module = (await import(pathToFileURL(resolve(values.implementation)).href)) as {
      implementation?: ConformanceImplementation;
      default?: ConformanceImplementation;
    };
    const implementation = module.implementation ?? module.default;
    if (implementation === undefined) {
      process.stderr.write(`${values.implementation} exports no \`implementation\` and no default\n`);
      return 2;
    }
    const problems = checkImplementation(implementation);
    if (values.level !== undefined && !isLevel(values.level))
      problems.push(`--level ${values.level} is not mapping or full`);
    if (problems.length > 0) {
      process.stderr.write(`${values.implementation}: ${problems.join("; ")}\n`);
      return 2;
    }
    const unmatched = runSkipProblems(root, values.skip ?? []);
    if (unmatched.length > 0) {
      process.stderr.write(`skip entries that name no vector: ${unmatched.join(", ")}\n`);
      return 2;
    }
    const rules = values.rules?.split(",").map((r) => r.trim().toUpperCase());
    const cases = loadVectors({ root, ...(rules ? { rules } : {}) });
    const summary = await runConformance({
      implementation,
      cases,
      skip: values.skip ?? [],
      ...(isLevel(values.level) ? { level: values.level } : {}),
    });
    if (values.json) {
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
    } else {
      for (const failure of summary.failures)
        process.stdout.write(`FAIL ${failure.id}\n  ${failure.messages.join("\n  ")}\n`);
      for (const [rule, totals] of Object.entries(summary.byRule).sort())
        process.stdout.write(
          `${rule}: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped, ${totals.notApplicable} not at this level\n`,
        );
      process.stdout.write(
        `${summary.passed} passed, ${summary.failed} failed, ${summary.skipped} skipped (${summary.level} level)\n`,
      );
    }
    return summary.failed === 0 ? 0 : 1;
  }
  process.stderr.write(`unknown command ${command}\n${HELP}`);
  return 2;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`toolcall-conformance: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
