import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultVectorsRoot, listVectorFiles } from "./load-vectors.js";
import { suggestVectorId } from "./vector-id.js";

/** An id given to a test that had none. */
export interface AssignedId {
  file: string;
  group: string;
  description: string;
  id: string;
}

interface RawTest {
  id?: unknown;
  description?: unknown;
}

/** Offsets of the `{` opening each test object (`[group]["tests"][test]`), in file order. */
function testObjectOffsets(text: string): number[] {
  const offsets: number[] = [];
  // Each open container: its kind and, for an object, the last key read in it.
  const stack: Array<{ kind: "{" | "["; key?: string }> = [];
  let lastString: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      lastString = JSON.parse(text.slice(i, j + 1)) as string;
      i = j;
    } else if (char === ":") {
      const top = stack.at(-1);
      if (top?.kind === "{") top.key = lastString;
    } else if (char === "{" || char === "[") {
      const parent = stack[stack.length - 2];
      if (char === "{" && stack.length === 3 && stack[2]?.kind === "[" && parent?.key === "tests")
        offsets.push(i);
      stack.push({ kind: char });
    } else if (char === "}" || char === "]") {
      stack.pop();
    }
  }
  return offsets;
}

/** `text` with `"id": "<id>",` as the first key of the object opening at `offset`, in the file's own layout. */
function insertId(text: string, offset: number, id: string): string {
  const after = /^[ \t]*\r?\n([ \t]*)/.exec(text.slice(offset + 1));
  const insertion = after ? `\n${after[1]}"id": ${JSON.stringify(id)},` : `"id": ${JSON.stringify(id)}, `;
  return text.slice(0, offset + 1) + insertion + text.slice(offset + 1);
}

/**
 * Gives every test without an `id` one (`suggestVectorId`: the file's folder and topic, then its description),
 * unique across the suite. With `write`, the files are rewritten in place, each id inserted as the test's first key
 * and nothing else touched. Returns the ids given.
 *
 * @example
 * const given = assignVectorIds({ write: false });
 * for (const { file, id } of given) console.log(file, id);
 */
export function assignVectorIds(options: { root?: string; write?: boolean } = {}): AssignedId[] {
  const root = options.root ?? defaultVectorsRoot();
  const files = listVectorFiles(root);
  const parsed = files.map((file) => {
    const text = readFileSync(join(root, file), "utf8");
    return { file, text, groups: JSON.parse(text) as Array<{ description?: unknown; tests?: RawTest[] }> };
  });
  const taken = new Set<string>();
  for (const { groups } of parsed)
    for (const group of groups)
      for (const test of group.tests ?? []) if (typeof test.id === "string") taken.add(test.id);
  const assigned: AssignedId[] = [];
  for (const { file, text, groups } of parsed) {
    const tests = groups.flatMap((group) =>
      (group.tests ?? []).map((test) => ({ group: String(group.description ?? ""), test })),
    );
    const offsets = testObjectOffsets(text);
    if (offsets.length !== tests.length)
      throw new Error(
        `${file}: found ${offsets.length} test objects in the text, ${tests.length} in the JSON`,
      );
    const ids = tests.map(({ group, test }) => {
      if (typeof test.id === "string") return undefined;
      const description = String(test.description ?? "");
      const id = suggestVectorId({ file, group, description, taken });
      taken.add(id);
      assigned.push({ file, group, description, id });
      return id;
    });
    let updated = text;
    // From the end, so earlier offsets stay valid.
    for (let i = ids.length - 1; i >= 0; i--) {
      const id = ids[i];
      if (id !== undefined) updated = insertId(updated, offsets[i] as number, id);
    }
    if (options.write && updated !== text) writeFileSync(join(root, file), updated);
  }
  return assigned;
}
