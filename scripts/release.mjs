#!/usr/bin/env node
// A real release, into a throwaway registry: in a scratch copy of the repository, `changeset version` applies the
// pending changesets (each package bumped on its own), then `pnpm publish -r` publishes every public package to a
// local Verdaccio (scripts/lib/registry.mjs; the one given by TOOLCALL_REGISTRY, or one started here). Each
// published tarball is then downloaded from the registry and checked: it holds its build, types, README and LICENSE
// and nothing of the source tree, every file its manifest points at, no `workspace:` range; `attw` (default profile,
// or the one the package's .attw.json names and its README explains) and `publint --strict` pass.
// Results: .test-results/release.json (the summary reads it).
import { execFileSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { npmrcFor, registryFromEnv, startRegistry } from "./lib/registry.mjs";
import { createResults, root } from "./lib/results.mjs";

const bin = (name) => join(root, "node_modules", ".bin", name);
const results = createResults("release");
const scratch = mkdtempSync(join(tmpdir(), "toolcall-release-"));
const quiet = { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" };

/** Every workspace package that is published (packages/* and apps/* without `"private": true`). */
export function publicPackages(base = root) {
  return ["packages", "apps"].flatMap((group) =>
    readdirSync(join(base, group))
      .filter((name) => existsSync(join(base, group, name, "package.json")))
      .map((name) => {
        const dir = join(group, name);
        const manifest = JSON.parse(readFileSync(join(base, dir, "package.json"), "utf8"));
        return { dir, name: manifest.name, before: manifest.version, private: manifest.private === true };
      })
      .filter((pkg) => !pkg.private),
  );
}

/** Every file a manifest points at (entry points, types, bins), wildcards left out. */
function pointedAt(manifest) {
  const found = new Set();
  const walk = (value) => {
    if (typeof value === "string") {
      if (value.startsWith("./") && !value.includes("*")) found.add(value.slice(2));
    } else if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk([
    manifest.main,
    manifest.module,
    manifest.types,
    manifest.exports,
    manifest.bin,
    manifest.typesVersions,
  ]);
  for (const file of [manifest.main, manifest.module, manifest.types])
    if (typeof file === "string" && !file.startsWith("./")) found.add(file);
  return [...found];
}

const copyRepository = () => {
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
  for (const pkg of publicPackages()) {
    if (!existsSync(join(root, pkg.dir, "dist")))
      throw new Error(`${pkg.name} is not built (run the build first)`);
    cpSync(join(root, pkg.dir, "dist"), join(scratch, pkg.dir, "dist"), { recursive: true });
  }
};

const registry = registryFromEnv() ?? (await startRegistry());
try {
  const packages = publicPackages();
  let pending = [];
  const versioned = await results.check("changeset version bumps each package with a changeset", () => {
    copyRepository();
    pending = readdirSync(join(scratch, ".changeset")).filter((f) => f.endsWith(".md") && f !== "README.md");
    const bumped = new Set();
    for (const file of pending) {
      const front =
        /^---\n([\s\S]*?)\n---/.exec(readFileSync(join(scratch, ".changeset", file), "utf8"))?.[1] ?? "";
      for (const match of front.matchAll(/^"?([^":]+)"?:\s*(major|minor|patch)$/gm)) bumped.add(match[1]);
    }
    execFileSync(bin("changeset"), ["version"], { cwd: scratch, ...quiet });
    for (const pkg of packages) {
      pkg.after = JSON.parse(readFileSync(join(scratch, pkg.dir, "package.json"), "utf8")).version;
      if (bumped.has(pkg.name) && pkg.after === pkg.before)
        throw new Error(`${pkg.name} has a changeset but stayed at ${pkg.after}`);
      if (bumped.has(pkg.name) && !existsSync(join(scratch, pkg.dir, "CHANGELOG.md")))
        throw new Error(`${pkg.name} got no CHANGELOG.md`);
    }
    const left = readdirSync(join(scratch, ".changeset")).filter(
      (f) => f.endsWith(".md") && f !== "README.md",
    );
    if (left.length > 0) throw new Error(`changesets left unconsumed: ${left.join(", ")}`);
    return true;
  });

  const published = versioned
    ? await results.check("pnpm publish -r publishes every public package to the registry", () => {
        // Publishing resolves `workspace:` ranges from the installed workspace; the store makes this a link step.
        execFileSync(
          bin("pnpm"),
          ["install", "--prefer-offline", "--ignore-scripts", "--no-frozen-lockfile"],
          {
            cwd: scratch,
            ...quiet,
          },
        );
        // Only now: the install above must reach the usual registry for everything but @toolcall.
        writeFileSync(join(scratch, ".npmrc"), npmrcFor(registry), { flag: "a" });
        execFileSync(
          bin("pnpm"),
          ["publish", "-r", "--no-git-checks", "--report-summary", "--registry", registry.url],
          { cwd: scratch, ...quiet, env: { ...process.env, npm_config_loglevel: "warn" } },
        );
        const summary = JSON.parse(readFileSync(join(scratch, "pnpm-publish-summary.json"), "utf8"));
        const versions = new Map(summary.publishedPackages.map((p) => [p.name, p.version]));
        const missing = packages.filter((p) => versions.get(p.name) !== p.after);
        if (missing.length > 0)
          throw new Error(
            `not published: ${missing.map((p) => `${p.name}@${p.after}`).join(", ")} (published: ${[...versions].join(", ")})`,
          );
        return true;
      })
    : undefined;

  const license = readFileSync(join(root, "LICENSE"), "utf8");
  for (const pkg of packages) {
    if (!published) {
      results.skip(`${pkg.name}: the published tarball`, "nothing was published (see the failure above)");
      continue;
    }
    const tarball = await results.check(
      `${pkg.name}@${pkg.after}: the tarball holds what it must, nothing else`,
      async () => {
        const packument = await fetch(`${registry.url}${pkg.name.replace("/", "%2f")}`).then((r) => r.json());
        const url = packument.versions?.[pkg.after]?.dist?.tarball;
        if (!url) throw new Error(`the registry has no ${pkg.name}@${pkg.after}`);
        const file = join(scratch, `${pkg.name.replace("/", "-").replace("@", "")}-${pkg.after}.tgz`);
        writeFileSync(file, Buffer.from(await fetch(url).then((r) => r.arrayBuffer())));
        const contents = execFileSync("tar", ["-tzf", file], { encoding: "utf8" })
          .split("\n")
          .filter(Boolean)
          .map((f) => f.replace(/^package\//, ""));
        const manifest = JSON.parse(
          execFileSync("tar", ["-xzOf", file, "package/package.json"], { encoding: "utf8" }),
        );
        const missing = ["package.json", "README.md", "LICENSE", ...pointedAt(manifest)].filter(
          (f) => !contents.includes(f),
        );
        if (missing.length > 0)
          throw new Error(
            `ships without ${missing.join(", ")}${missing.includes("LICENSE") ? ` (copy the root LICENSE into ${pkg.dir} and list it in "files")` : ""}`,
          );
        if (execFileSync("tar", ["-xzOf", file, "package/LICENSE"], { encoding: "utf8" }) !== license)
          throw new Error("its LICENSE differs from the repository's");
        const stray = contents.filter((f) =>
          /^(src|test)\/|\.test\.|tsconfig|vitest\.config|tsup\.config/.test(f),
        );
        if (stray.length > 0) throw new Error(`ships source or test files: ${stray.join(", ")}`);
        const ranges = ["dependencies", "peerDependencies", "optionalDependencies"].flatMap((field) =>
          Object.entries(manifest[field] ?? {}).filter(([, range]) => /^(workspace|file|link):/.test(range)),
        );
        if (ranges.length > 0) throw new Error(`ships unresolvable ranges: ${JSON.stringify(ranges)}`);
        const source = JSON.parse(readFileSync(join(root, pkg.dir, "package.json"), "utf8"));
        const usesWorkspace = ["dependencies", "peerDependencies", "optionalDependencies"].some((field) =>
          Object.values(source[field] ?? {}).some((range) => String(range).startsWith("workspace:")),
        );
        if (usesWorkspace && source.scripts?.prepack !== "node ../../scripts/prepack-guard.mjs")
          throw new Error(
            `names workspace: ranges but has no "prepack": "node ../../scripts/prepack-guard.mjs" (npm pack would ship them)`,
          );
        console.log(`  ${pkg.name}: ${pkg.before} -> ${pkg.after}, ${contents.length} files`);
        return file;
      },
    );
    if (!tarball) continue;
    const manifest = JSON.parse(readFileSync(join(root, pkg.dir, "package.json"), "utf8"));
    if (!manifest.exports && !manifest.main && !manifest.types) {
      // A command only (its bin is checked above to ship): there is no module whose types attw could resolve.
      results.skip(`${pkg.name}: attw`, "a command with no module to import");
    } else
      await results.check(`${pkg.name}: attw`, () =>
        execFileSync(bin("attw"), [tarball, "--format", "ascii", "--no-color"], {
          cwd: join(scratch, pkg.dir),
          ...quiet,
        }),
      );
    // publint reads the published files themselves (the tarball, unpacked), instead of packing the package again.
    await results.check(`${pkg.name}: publint --strict`, () => {
      const unpacked = mkdtempSync(join(scratch, "unpacked-"));
      execFileSync("tar", ["-xzf", tarball, "-C", unpacked]);
      return execFileSync(bin("publint"), ["--strict", "--pack", "false", join(unpacked, "package")], quiet);
    });
  }
  console.log(
    `release: ${results.failed === 0 ? "ok" : `${results.failed} failed`} (${pending.length} changesets, ${packages.length} packages published to ${registry.url})`,
  );
} finally {
  await registry.close();
  process.exitCode = results.write() > 0 ? 1 : 0;
  if (process.exitCode === 0) rmSync(scratch, { recursive: true, force: true });
  else console.error(`release: the scratch copy is kept in ${scratch}`);
}
