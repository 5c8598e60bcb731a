import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import { OPERATIONS } from "./implementation.js";
import { expectedLevels } from "./levels.js";
import { defaultVectorsRoot, listVectorFiles } from "./load-vectors.js";
import { decodeTags } from "./tags.js";
import { vectorIdPrefix } from "./vector-id.js";

/** One problem found in a vector file. */
export interface VectorProblem {
  file: string;
  message: string;
}

/** The JSON Schema every vector file must pass. */
export function vectorsSchema(): object {
  return JSON.parse(
    readFileSync(fileURLToPath(new URL("../vectors.schema.json", import.meta.url)), "utf8"),
  ) as object;
}

const DIRECTORY_RULE = /^(r[1-9][0-9]*)\//;

/** Keys of an operation's `expected` that the schema gives no `x-level` (a level must be stated, never guessed). */
function schemaLevelProblems(schema: object): string[] {
  const problems: string[] = [];
  const levels = expectedLevels(schema);
  const defs =
    (schema as { $defs?: Record<string, { $ref?: string; properties?: Record<string, unknown> }> }).$defs ??
    {};
  for (const operation of OPERATIONS) {
    let expected = defs[`expected.${operation}`];
    if (expected?.$ref !== undefined) expected = defs[expected.$ref.replace("#/$defs/", "")];
    const keys = Object.keys(expected?.properties ?? {});
    if (keys.length === 0) problems.push(`the schema has no expected.${operation}`);
    for (const key of keys)
      if (levels[operation]?.[key] === undefined)
        problems.push(`expected.${operation}.${key} has no "x-level" ("mapping" or "full")`);
  }
  return problems;
}

/**
 * Validates vector files: the JSON Schema, then what a schema cannot say (ids unique across the suite and starting
 * with their file's folder and topic, descriptions unique in their scope and free of "should", a file's rule
 * matching its directory, an operation the runners know, tags that decode, a level for every expected key).
 *
 * @example
 * const problems = checkVectors();
 * if (problems.length > 0) process.exitCode = 1;
 */
export function checkVectors(root: string = defaultVectorsRoot()): VectorProblem[] {
  const problems: VectorProblem[] = [];
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const schema = vectorsSchema();
  const validate = ajv.compile(schema);
  for (const message of schemaLevelProblems(schema)) problems.push({ file: "vectors.schema.json", message });
  const files = listVectorFiles(root);
  const idFiles = new Map<string, string>();
  if (files.length === 0) problems.push({ file: root, message: "no vector files" });
  for (const file of files) {
    let groups: unknown;
    try {
      groups = JSON.parse(readFileSync(join(root, file), "utf8"));
    } catch (error) {
      problems.push({ file, message: `not JSON: ${(error as Error).message}` });
      continue;
    }
    if (!validate(groups)) {
      for (const error of validate.errors ?? [])
        problems.push({ file, message: `${error.instancePath || "/"} ${error.message}` });
      continue;
    }
    const groupNames = new Set<string>();
    const directoryRule = DIRECTORY_RULE.exec(file.replace(/\\/g, "/"))?.[1];
    for (const group of groups as Array<{
      description: string;
      rule: string;
      operation: string;
      tests: Array<{ id: string; description: string; input?: unknown; expected: unknown }>;
    }>) {
      if (groupNames.has(group.description))
        problems.push({ file, message: `group description repeated: ${group.description}` });
      groupNames.add(group.description);
      if (directoryRule !== undefined && group.rule.toLowerCase() !== directoryRule) {
        problems.push({
          file,
          message: `group "${group.description}" is ${group.rule} in directory ${directoryRule}`,
        });
      }
      if (!(OPERATIONS as readonly string[]).includes(group.operation))
        problems.push({ file, message: `unknown operation ${group.operation}` });
      const testNames = new Set<string>();
      for (const test of group.tests) {
        for (const text of [group.description, test.description]) {
          if (/\bshould\b/i.test(text))
            problems.push({ file, message: `description says "should": ${text}` });
        }
        if (testNames.has(test.description))
          problems.push({
            file,
            message: `test description repeated in "${group.description}": ${test.description}`,
          });
        testNames.add(test.description);
        const prefix = vectorIdPrefix(file);
        if (!test.id.startsWith(prefix))
          problems.push({ file, message: `id ${test.id} does not start with ${prefix}` });
        const other = idFiles.get(test.id);
        if (other !== undefined)
          problems.push({ file, message: `id ${test.id} is used twice (also in ${other})` });
        idFiles.set(test.id, file);
        try {
          decodeTags(test.input);
          decodeTags(test.expected);
        } catch (error) {
          problems.push({ file, message: `${test.description}: ${(error as Error).message}` });
        }
      }
    }
  }
  return problems;
}
