#!/usr/bin/env node
// Doc tests: every fenced TypeScript, JavaScript or shell example in every Markdown file of the repository (READMEs
// of the root, packages/*, apps/*, bench, docs/…; found anew on each run, so a new file or fence is tested without
// registering it) runs, or is marked as a fragment on purpose.
//
// - A fragment is marked by an HTML comment on the line before its fence: `<!-- fragment: why it cannot run -->`.
//   It is listed in the test summary as skipped, with its reason; a fragment without a reason fails.
// - TypeScript and JavaScript (ts, tsx, typescript, js, mjs, javascript) run as ES modules in a scratch project
//   of their own file (one per Markdown file), with types stripped by TypeScript's transpiler, where the file's
//   `npm install` examples have installed what they name: @toolcall packages from the test run's registry
//   (scripts/release.mjs published them there), everything else from the usual registry. Each fence is a module of
//   its own. They run with OPENAI_BASE_URL pointing at a loopback server (scripts/lib/fake-openai.mjs) that
//   answers chat completions with the tool-call payloads captured in the wild, and OPENAI_API_KEY set.
// - Shell (sh, bash, shell): a fence whose commands are all `npm install …` runs in that scratch project; any other
//   runs with bash (-e, pipefail) in the directory of its Markdown file, in the repository.
// - Other fences (json, text, python, none) are output or data, not examples, and are not run.
// Every example has a time limit (60 s; 300 s for shell in the repository). Results: .test-results/docs.json.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { startFakeOpenAI } from "./lib/fake-openai.mjs";
import { publishedRegistry } from "./lib/registry.mjs";
import { createResults, root } from "./lib/results.mjs";

const execFileAsync = promisify(execFile);
const CODE = new Set(["ts", "tsx", "typescript", "js", "mjs", "javascript"]);
const SHELL = new Set(["sh", "bash", "shell"]);

/** Markdown files of the repository, tracked or new (ignored files, changesets and changelogs left out). */
export async function markdownFiles() {
  const { stdout } = await execFileAsync(
    "git",
    ["ls-files", "-co", "--exclude-standard", "-z", "--", "*.md"],
    {
      cwd: root,
    },
  );
  // A file in a merge's conflict is listed once per stage: once is enough.
  return [...new Set(stdout.split("\0"))]
    .filter((f) => f !== "" && !f.startsWith(".changeset/") && !/(^|\/)CHANGELOG\.md$/.test(f))
    .sort();
}

/** The fenced blocks of a Markdown text: `[{ line, lang, code, fragment }]` (`fragment`: the reason, or undefined). */
export function fences(text) {
  const lines = text.split("\n");
  const found = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)(`{3,}|~{3,})\s*([\w+-]*)/.exec(lines[i]);
    if (!open) continue;
    const [, indent, marker, lang] = open;
    const body = [];
    let j = i + 1;
    while (j < lines.length && !new RegExp(`^\\s*${marker[0]}{${marker.length},}\\s*$`).test(lines[j])) {
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j]);
      j++;
    }
    let k = i - 1;
    while (k >= 0 && lines[k].trim() === "") k--;
    const comment = k >= 0 ? /^\s*<!--\s*fragment:?(.*?)-->\s*$/.exec(lines[k]) : null;
    found.push({
      line: i + 1,
      lang: lang.toLowerCase(),
      code: body.join("\n"),
      fragment: comment ? comment[1].trim() : undefined,
      marked: Boolean(comment),
    });
    i = j;
  }
  return found;
}

const isInstall = (code) =>
  code
    .split("\n")
    .map((l) => l.replace(/#.*$/, "").trim())
    .filter(Boolean)
    .every((l) => /^npm (install|i)\b/.test(l));

/** Compiler options of a user's strict project on Node: ES modules, Node's resolution, Node's types. */
const typecheckOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ["lib.es2022.d.ts"],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  types: ["node"],
  typeRoots: [join(root, "node_modules", "@types")],
  skipLibCheck: true,
  esModuleInterop: true,
};
const sourceFiles = new Map();

/** The type errors of one example file, as `line: message` relative to the fence's first line. */
export function typeErrors(file) {
  const host = ts.createCompilerHost(typecheckOptions);
  const read = host.getSourceFile.bind(host);
  // Library and dependency declarations are parsed once for the whole run; the example itself every time.
  host.getSourceFile = (name, version, ...rest) => {
    if (name === file) return read(name, version, ...rest);
    const key = `${name}\0${typeof version === "object" ? version.languageVersion : version}`;
    if (!sourceFiles.has(key)) sourceFiles.set(key, read(name, version, ...rest));
    return sourceFiles.get(key);
  };
  const program = ts.createProgram({ rootNames: [file], options: typecheckOptions, host });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    if (!d.file) return `TS${d.code}: ${text}`;
    const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
    return `${d.file.fileName === file ? `line ${line + 1}` : d.file.fileName}: TS${d.code}: ${text}`;
  });
}

const BUILTINS = new Set(builtinModules);

/** The packages an example imports (`node:` and other built-in modules left out). */
export function importedPackages(code) {
  const names = new Set();
  for (const match of code.matchAll(
    /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"'.][^"']*)["']|import\(\s*["']([^"'.][^"']*)["']\s*\)|^\s*import\s*["']([^"'.][^"']*)["']/gm,
  )) {
    const spec = match[1] ?? match[2] ?? match[3];
    if (spec.startsWith("node:") || BUILTINS.has(spec)) continue;
    const parts = spec.split("/");
    names.add(spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]);
  }
  return [...names];
}

/**
 * The example with each `console.log(…); // → TEXT` turned into a check that it prints TEXT; throws on a
 * `console.log` line that ends in any other comment (the README would state a result nothing checks).
 */
export function checkedPrints(code) {
  let count = 0;
  const lines = code.split("\n").map((line, index, all) => {
    const stated = /^(\s*)(?!.*console\.log\()(.+?);?\s*\/\/\s*→(.*)$/.exec(line);
    if (stated) {
      // `EXPRESSION; // → TEXT`: the expression's value, printed as console.log prints it, is TEXT.
      if (/^(const|let|var|return|if|for|while|import|export)\b/.test(stated[2]))
        throw new Error(`line ${index + 1}: \`// →\` follows a statement, not an expression`);
      count++;
      return `${stated[1]}__printed(${JSON.stringify(stated[3].trim())}, ${index + 1}, (${stated[2]}));`;
    }
    const previous = index > 0 ? (all[index - 1] ?? "") : "";
    if (
      /console\.log\(/.test(previous) &&
      !/\/\/\s*→/.test(previous) &&
      /^\s*\/\/\s*([[{"'\d-]|true|false|null|undefined)/.test(line)
    )
      throw new Error(
        `line ${index + 1}: the printed text of the console.log above is stated in a comment of its own: end that line with \`// → TEXT\` instead`,
      );
    const match = /^(.*?)console\.log\((.*)\);?\s*\/\/(.*)$/.exec(line);
    if (!match) return line;
    const comment = match[3].trim();
    if (!comment.startsWith("→"))
      throw new Error(
        `line ${index + 1}: a console.log ends in a comment that is not its printed text ("// ${comment}"): write \`// → TEXT\` (… for any text), or put the prose on its own line`,
      );
    count++;
    return `${match[1]}__printed(${JSON.stringify(comment.slice(1).trim())}, ${index + 1}, ${match[2]});`;
  });
  if (count === 0) return code;
  const prelude = `import { printed as __printed } from ${JSON.stringify(pathToFileURL(join(root, "scripts", "lib", "printed.mjs")).href)};\n`;
  return prelude + lines.join("\n");
}

async function main() {
  const results = createResults("docs");
  // `node scripts/doc-tests.mjs README.md apps/proxy/README.md` runs those files' examples only.
  const only = process.argv.slice(2);
  const files = (await markdownFiles()).filter((file) => only.length === 0 || only.includes(file));
  const plan = files
    .map((file) => ({
      file,
      blocks: fences(readFileSync(join(root, file), "utf8")).filter(
        (b) => CODE.has(b.lang) || SHELL.has(b.lang),
      ),
    }))
    .filter((entry) => entry.blocks.length > 0);
  let registry;
  let server;
  const scratches = [];
  try {
    const needsRegistry = plan.some((e) =>
      e.blocks.some((b) => !b.marked && (CODE.has(b.lang) || isInstall(b.code))),
    );
    if (needsRegistry) registry = await publishedRegistry();
    server = await startFakeOpenAI();
    const env = { ...process.env, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "sk-loopback" };
    delete env.TOOLCALL_REGISTRY_TOKEN;
    for (const { file, blocks } of plan) {
      let project;
      const consumer = () => {
        if (project) return project;
        project = mkdtempSync(join(tmpdir(), "toolcall-doc-"));
        scratches.push(project);
        writeFileSync(join(project, ".npmrc"), `@toolcall:registry=${registry.url}\n`);
        writeFileSync(
          join(project, "package.json"),
          `${JSON.stringify({ name: "doc-example", private: true, type: "module" })}\n`,
        );
        return project;
      };
      for (const block of blocks) {
        const name = `${file}:${block.line} (${block.lang})`;
        if (block.marked) {
          if (block.fragment) results.skip(name, `fragment: ${block.fragment}`);
          else
            await results.check(name, () => {
              throw new Error("marked as a fragment without a reason: <!-- fragment: why it cannot run -->");
            });
          continue;
        }
        const started = performance.now();
        await results.check(name, async () => {
          if (SHELL.has(block.lang) && isInstall(block.code)) {
            await execFileAsync("bash", ["-e", "-o", "pipefail", "-c", block.code], {
              cwd: consumer(),
              env: {
                ...env,
                npm_config_audit: "false",
                npm_config_fund: "false",
                npm_config_loglevel: "error",
                // Third-party metadata from npm's cache when it has it (the @toolcall scope is new on every run).
                npm_config_prefer_offline: "true",
              },
              timeout: 180_000,
            });
          } else if (SHELL.has(block.lang)) {
            await execFileAsync("bash", ["-e", "-o", "pipefail", "-c", block.code], {
              cwd: dirname(join(root, file)),
              env,
              timeout: 300_000,
              maxBuffer: 64 * 1024 * 1024,
            });
          } else {
            const installed = Object.keys(
              ((manifest) => ({ ...manifest.dependencies, ...manifest.devDependencies }))(
                JSON.parse(readFileSync(join(consumer(), "package.json"), "utf8")),
              ),
            );
            const missing = importedPackages(block.code).filter((name) => !installed.includes(name));
            if (missing.length > 0)
              throw new Error(
                `imports ${missing.join(", ")}, which no \`npm install\` line of ${file} above it installs`,
              );
            if (block.lang === "ts" || block.lang === "tsx" || block.lang === "typescript") {
              const typed = join(consumer(), `example-${block.line}.ts`);
              writeFileSync(typed, block.code);
              const errors = typeErrors(typed);
              if (errors.length > 0)
                throw new Error(`does not type-check under --strict:\n${errors.join("\n")}`);
            }
            const source = ts.transpileModule(checkedPrints(block.code), {
              compilerOptions: {
                module: ts.ModuleKind.ESNext,
                target: ts.ScriptTarget.ES2022,
                verbatimModuleSyntax: false,
              },
              fileName: "example.ts",
            }).outputText;
            const module = join(consumer(), `example-${block.line}.mjs`);
            writeFileSync(module, source);
            await execFileAsync(process.execPath, [module], { cwd: consumer(), env, timeout: 60_000 });
          }
          console.log(`  ran ${name} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
        });
      }
    }
    console.log(`doc tests: ${plan.length} files with examples`);
  } catch (error) {
    await results.check("doc tests", () => {
      throw error;
    });
  } finally {
    await server?.close();
    await registry?.close();
    const failed = results.write();
    if (failed === 0) for (const dir of scratches) rmSync(dir, { recursive: true, force: true });
    else if (scratches.length > 0)
      console.error(`doc tests: scratch projects kept in ${scratches.join(", ")}`);
    process.exitCode = failed > 0 ? 1 : 0;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
