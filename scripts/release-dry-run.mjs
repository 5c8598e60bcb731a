#!/usr/bin/env node
// Proves a release instead of assuming one: in a scratch copy of the repository, `changeset version` applies the
// pending changesets (each package bumped on its own), then `pnpm publish -r --dry-run` packs every public package.
// Checks that each bumped package would ship its build, types and README, and nothing else of the source tree.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => join(root, "node_modules", ".bin", name);
const scratch = mkdtempSync(join(tmpdir(), "toolcall-release-"));
const fail = (message) => {
  console.error(`release dry run: ${message}`);
  process.exit(1);
};

try {
  const files = execFileSync("git", ["ls-files", "-co", "--exclude-standard", "-z"], {
    cwd: root,
    encoding: "utf8",
  })
    .split("\0")
    .filter((f) => f !== "" && existsSync(join(root, f)));
  for (const file of files) {
    mkdirSync(dirname(join(scratch, file)), { recursive: true });
    cpSync(join(root, file), join(scratch, file));
  }
  const packages = readdirSync(join(root, "packages")).map((name) => {
    const dir = join("packages", name);
    const manifest = JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
    if (!existsSync(join(root, dir, "dist"))) fail(`${manifest.name} is not built (run the build first)`);
    cpSync(join(root, dir, "dist"), join(scratch, dir, "dist"), { recursive: true });
    return { dir, name: manifest.name, before: manifest.version, private: manifest.private === true };
  });

  const pending = readdirSync(join(scratch, ".changeset")).filter(
    (f) => f.endsWith(".md") && f !== "README.md",
  );
  const bumped = new Set();
  for (const file of pending) {
    const front =
      /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(scratch, ".changeset", file), "utf8"))?.[1] ?? "";
    for (const match of front.matchAll(/^"?([^":]+)"?:\s*(major|minor|patch)$/gm)) bumped.add(match[1]);
  }
  execFileSync(bin("changeset"), ["version"], { cwd: scratch, stdio: ["ignore", "ignore", "inherit"] });
  for (const pkg of packages) {
    const after = JSON.parse(readFileSync(join(scratch, pkg.dir, "package.json"), "utf8")).version;
    if (bumped.has(pkg.name) && after === pkg.before)
      fail(`${pkg.name} has a changeset but stayed at ${after}`);
    if (!bumped.has(pkg.name) && after !== pkg.before && !pkg.private)
      console.log(`  ${pkg.name} bumped as a dependent: ${pkg.before} -> ${after}`);
    if (bumped.has(pkg.name) && !existsSync(join(scratch, pkg.dir, "CHANGELOG.md")))
      fail(`${pkg.name} got no CHANGELOG.md`);
    pkg.after = after;
  }
  const left = readdirSync(join(scratch, ".changeset")).filter((f) => f.endsWith(".md") && f !== "README.md");
  if (left.length > 0) fail(`changesets left unconsumed: ${left.join(", ")}`);

  // Packing resolves `workspace:` ranges from the installed workspace; the store makes this an offline link step.
  execFileSync(bin("pnpm"), ["install", "--prefer-offline", "--ignore-scripts", "--no-frozen-lockfile"], {
    cwd: scratch,
    stdio: ["ignore", "ignore", "inherit"],
  });
  const output = execFileSync(
    bin("pnpm"),
    ["publish", "-r", "--dry-run", "--no-git-checks", "--report-summary"],
    {
      cwd: scratch,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, npm_config_loglevel: "warn" },
    },
  );
  const summary = JSON.parse(readFileSync(join(scratch, "pnpm-publish-summary.json"), "utf8"));
  const published = new Map(summary.publishedPackages.map((p) => [p.name, p.version]));
  for (const pkg of packages.filter((p) => !p.private)) {
    if (published.get(pkg.name) !== pkg.after)
      fail(`${pkg.name}@${pkg.after} was not packed (packed: ${[...published].join(", ")})`);
    const listing = execFileSync(bin("pnpm"), ["pack", "--dry-run", "--json"], {
      cwd: join(scratch, pkg.dir),
      encoding: "utf8",
    });
    const contents = JSON.parse(listing.slice(listing.indexOf("{"))).files.map((f) => f.path);
    for (const required of [
      "package.json",
      "README.md",
      "dist/index.js",
      "dist/index.cjs",
      "dist/index.d.ts",
    ]) {
      if (!contents.includes(required)) fail(`${pkg.name} would ship without ${required}`);
    }
    const stray = contents.filter((f) => /^(src|test)\/|\.test\.|tsconfig|vitest\.config/.test(f));
    if (stray.length > 0) fail(`${pkg.name} would ship source or test files: ${stray.join(", ")}`);
    console.log(`  ${pkg.name}: ${pkg.before} -> ${pkg.after}, ${contents.length} files`);
  }
  if (output.includes("ERR_")) fail(output);
  console.log(`release dry run: ok (${pending.length} changesets, ${published.size} packages packed)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
