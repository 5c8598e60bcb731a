#!/usr/bin/env node
// Dependencies run one way (DESIGN.md): a file never reaches itself again through the files it imports. Reads every
// source file under packages/*/src and apps/*/src (tracked and new, as the length check does), follows relative
// imports and re-exports (type-only ones too: a type cycle ties the layers together as much as a value one), and
// exits 1 listing each cycle, as the files of one strongly connected component and one loop through them.
//
//   node scripts/check-import-cycles.mjs          # the repository
//   node scripts/check-import-cycles.mjs --json   # the components, for tools
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const SOURCE = /^(packages|apps)\/[^/]+\/src\/.+\.(ts|tsx|mts|cts|mjs|js)$/;

/** Relative specifiers a file imports or re-exports (static `import`/`export … from`, `import()` with a literal). */
export function importedSpecifiers(text, fileName) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const found = [];
  const visit = (node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier)
      found.push(node.moduleSpecifier.text);
    else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments.length === 1 &&
      ts.isStringLiteral(node.arguments[0])
    )
      found.push(node.arguments[0].text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found.filter((specifier) => specifier.startsWith("."));
}

/** The file a relative specifier names: `./x.js` is `x.ts` in source, `./dir` its `index.ts`. */
function resolve(from, specifier, files) {
  const base = normalize(join(dirname(from), specifier));
  const stem = base.replace(/\.(js|mjs|cjs|jsx)$/, "");
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${base}.ts`, join(base, "index.ts")];
  return candidates.find((candidate) => files.has(candidate));
}

/** The strongly connected components with more than one file (or a file importing itself), Tarjan's algorithm. */
export function cycles(graph) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  // Iterative, so a long chain of imports cannot overflow the stack.
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work = [[root, 0]];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1];
      const [node, next] = frame;
      const targets = graph.get(node) ?? [];
      if (next < targets.length) {
        frame[1]++;
        const target = targets[next];
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push([target, 0]);
        } else if (onStack.has(target)) low.set(node, Math.min(low.get(node), index.get(target)));
        continue;
      }
      work.pop();
      if (work.length > 0) {
        const parent = work[work.length - 1][0];
        low.set(parent, Math.min(low.get(parent), low.get(node)));
      }
      if (low.get(node) === index.get(node)) {
        const component = [];
        let member;
        do {
          member = stack.pop();
          onStack.delete(member);
          component.push(member);
        } while (member !== node);
        if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
      }
    }
  }
  return found;
}

/** One loop through a component, from its first file back to it (what to read to break the cycle). */
export function loopThrough(component, graph) {
  const members = new Set(component);
  const start = component[0];
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift();
    for (const target of graph.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [node];
        for (let at = previous.get(node); at !== null && at !== undefined; at = previous.get(at))
          path.push(at);
        return [...path.reverse(), start];
      }
      if (!previous.has(target)) {
        previous.set(target, node);
        queue.push(target);
      }
    }
  }
  return component;
}

/** The import graph of the repository's source files: file → files it imports. */
export function importGraph({ root }) {
  const listed = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], {
    cwd: root,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const files = new Set(
    listed.split("\0").filter((file) => SOURCE.test(file) && existsSync(join(root, file))),
  );
  const graph = new Map();
  for (const file of files) {
    const text = readFileSync(join(root, file), "utf8");
    const targets = importedSpecifiers(text, file)
      .map((specifier) => resolve(file, specifier, files))
      .filter((target) => target !== undefined);
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), "..");
  const graph = importGraph({ root });
  const all = cycles(graph);
  const found = all;
  if (process.argv.includes("--json")) console.log(JSON.stringify(found, null, 2));
  else if (found.length === 0)
    console.log(
      `No import cycle among ${graph.size} source files${all.length > 0 ? ", outside the folders listed above" : ""}.`,
    );
  else {
    console.error(`${found.length} import cycle(s); dependencies must run one way:`);
    for (const component of found) {
      console.error(`\n- ${component.length} files: ${component.join(", ")}`);
      console.error(`  loop: ${loopThrough(component, graph).join(" → ")}`);
    }
  }
  process.exitCode = found.length === 0 ? 0 : 1;
}
