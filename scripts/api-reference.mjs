#!/usr/bin/env node
// Every name a published entry exports is listed, with what it is, in its package's API.md: the reference a user
// reads without opening the code. The text comes from each export's JSDoc (its first paragraph), so the source stays
// the one place a name is described. `--check` (run by `pnpm lint`) exits 1 when an API.md is not what the source
// gives, or when an export of the package's own has no JSDoc to describe it.
//
//   node scripts/api-reference.mjs --write   # regenerate every API.md
//   node scripts/api-reference.mjs --check   # fail on a stale API.md or an export without JSDoc
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = join(fileURLToPath(import.meta.url), "..", "..");

/** The `types` path of an exports target, looking through `import` / `require` / `default` conditions. */
function typesOf(target) {
  if (typeof target !== "object" || target === null) return undefined;
  if (typeof target.types === "string") return target.types;
  for (const condition of ["import", "require", "default"]) {
    const found = typesOf(target[condition]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Every workspace package with `{ name, dir, published, entries: [{ specifier, source }] }`. */
export function workspacePackages() {
  const found = [];
  for (const group of ["packages", "apps"]) {
    for (const folder of readdirSync(join(root, group))) {
      const dir = join(root, group, folder);
      const manifestPath = join(dir, "package.json");
      if (!existsSync(manifestPath)) continue;
      const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
      const entries = [];
      for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
        const stem = typesOf(target)?.match(/^\.\/dist\/(.+)\.d\.[cm]?ts$/)?.[1];
        const source = stem === undefined ? undefined : join(dir, "src", `${stem}.ts`);
        const specifier = subpath === "." ? manifest.name : `${manifest.name}${subpath.slice(1)}`;
        if (source !== undefined && existsSync(source)) entries.push({ specifier, source });
      }
      found.push({ name: manifest.name, dir, published: manifest.private !== true, entries });
    }
  }
  return found;
}

/** The JSDoc's first paragraph on one line, `{@link X}` written as code. */
function summary(symbol, checker) {
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
  const first = text.split(/\n\s*\n/)[0] ?? "";
  return first
    .replace(/\{@link(?:code|plain)?\s+([^}\s|]+)(?:[\s|][^}]*)?\}/g, "`$1`")
    .replace(/\s+/g, " ")
    .replace(/\|/g, "\\|")
    .trim();
}

/** What kind of thing a symbol is, in a user's words. */
function kind(symbol) {
  const flags = symbol.flags;
  if (flags & ts.SymbolFlags.Class) return "class";
  if (flags & ts.SymbolFlags.Function) return "function";
  if (flags & ts.SymbolFlags.Interface) return "interface";
  if (flags & ts.SymbolFlags.TypeAlias) return "type";
  if (flags & ts.SymbolFlags.Enum) return "enum";
  if (flags & ts.SymbolFlags.Variable) return "constant";
  return "name";
}

/** The package (by its source folder) a declaration lives in, or undefined outside the workspace. */
function owner(symbol, packages) {
  const file = symbol.declarations?.[0]?.getSourceFile().fileName;
  if (file === undefined) return undefined;
  return packages.find((p) => file.startsWith(`${p.dir}${sep}`) || file.startsWith(`${p.dir}/`));
}

/** `{ files: Map<path, text>, undescribed: string[] }`: each published package's API.md and the exports lacking JSDoc. */
export function apiReference() {
  const packages = workspacePackages();
  const paths = {};
  for (const p of packages) for (const e of p.entries) paths[e.specifier] = [e.source];
  const sources = packages.filter((p) => p.published).flatMap((p) => p.entries.map((e) => e.source));
  const program = ts.createProgram(sources, {
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    skipLibCheck: true,
    paths,
  });
  const checker = program.getTypeChecker();
  const files = new Map();
  const undescribed = [];
  const resolved = (symbol) =>
    symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const exportsOf = new Map();
  for (const pkg of packages.filter((p) => p.published))
    for (const entry of pkg.entries) {
      const file = program.getSourceFile(entry.source);
      const moduleSymbol = file === undefined ? undefined : checker.getSymbolAtLocation(file);
      exportsOf.set(
        entry.specifier,
        moduleSymbol === undefined ? [] : checker.getExportsOfModule(moduleSymbol),
      );
    }
  /** The first entry of a package that exports the symbol (its main entry before a subpath). */
  const entryOf = (pkg, target) =>
    pkg.entries.find((e) => (exportsOf.get(e.specifier) ?? []).some((s) => resolved(s) === target))
      ?.specifier ?? pkg.name;
  for (const pkg of packages.filter((p) => p.published && p.entries.length > 0)) {
    const lines = [
      `# API of ${pkg.name}`,
      "",
      "Every name the package exports, entry by entry, with the first paragraph of its JSDoc. Generated from the",
      "source by `node scripts/api-reference.mjs --write`; `pnpm lint` fails when it is stale. The README shows how the",
      "names work together; each name's JSDoc in the source has an example.",
    ];
    for (const entry of pkg.entries) {
      const exported = exportsOf.get(entry.specifier) ?? [];
      const rows = [];
      for (const symbol of [...exported].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
        if (symbol.name === "default") continue;
        const target = resolved(symbol);
        const home = owner(target, packages);
        const from = home !== undefined && home.name !== pkg.name ? home : undefined;
        let text = summary(target, checker);
        if (from !== undefined) {
          text = `Re-exported from \`${entryOf(from, target)}\`${text === "" ? "." : `: ${text}`}`;
        } else if (text === "" && target.flags & ts.SymbolFlags.Variable) {
          const type = checker.getTypeOfSymbol(target);
          if (type.isStringLiteral())
            text = `The text \`${JSON.stringify(type.value).slice(1, -1).replace(/\|/g, "\\|").replace(/`/g, "\\`")}\`.`;
          else undescribed.push(`${entry.specifier}: ${symbol.name}`);
        } else if (text === "") {
          undescribed.push(`${entry.specifier}: ${symbol.name}`);
        }
        rows.push(`| \`${symbol.name}\` | ${kind(target)} | ${text} |`);
      }
      lines.push(
        "",
        `## \`${entry.specifier}\``,
        "",
        `${rows.length} name${rows.length === 1 ? "" : "s"}.`,
        "",
      );
      lines.push("| name | kind | what it is |", "|---|---|---|", ...rows);
    }
    files.set(join(pkg.dir, "API.md"), `${lines.join("\n")}\n`);
  }
  return { files, undescribed };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { files, undescribed } = apiReference();
  if (process.argv.includes("--write")) {
    for (const [path, text] of files) writeFileSync(path, text);
    console.log(`wrote ${files.size} API.md files`);
  } else {
    const stale = [...files].filter(
      ([path, text]) => !existsSync(path) || readFileSync(path, "utf8") !== text,
    );
    for (const [path] of stale)
      console.error(`${relative(root, path)} is stale: run node scripts/api-reference.mjs --write`);
    for (const name of undescribed)
      console.error(`${name} has no JSDoc: say what it is above its declaration`);
    if (stale.length === 0 && undescribed.length === 0) console.log(`${files.size} API.md files current`);
    process.exitCode = stale.length === 0 && undescribed.length === 0 ? 0 : 1;
  }
}
