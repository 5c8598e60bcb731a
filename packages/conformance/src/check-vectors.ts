import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Ajv2020 from "ajv/dist/2020.js";
import { OPERATIONS } from "./implementation.js";
import { defaultVectorsRoot, listVectorFiles } from "./load-vectors.js";
import { decodeTags } from "./tags.js";

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

/**
 * Validates vector files: the JSON Schema, then what a schema cannot say (descriptions unique in their scope and
 * free of "should", a file's rule matching its directory, an operation the runners know, tags that decode).
 *
 * @example
 * const problems = checkVectors();
 * if (problems.length > 0) process.exitCode = 1;
 */
export function checkVectors(root: string = defaultVectorsRoot()): VectorProblem[] {
  const problems: VectorProblem[] = [];
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  const validate = ajv.compile(vectorsSchema());
  const files = listVectorFiles(root);
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
      tests: Array<{ description: string; input?: unknown; expected: unknown }>;
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
