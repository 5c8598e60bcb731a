#!/usr/bin/env node
// Every published package's `prepack`. Its package.json names workspace packages by `workspace:` ranges, which only
// pnpm (and Yarn 2+) rewrite to real versions when packing; `npm pack` or `npm publish` would ship them as written,
// and the tarball would fail to install (EUNSUPPORTEDPROTOCOL). So packing with anything else stops here.
import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync("package.json", "utf8"));
const workspaceRanges = ["dependencies", "peerDependencies", "optionalDependencies"].flatMap((field) =>
  Object.entries(manifest[field] ?? {})
    .filter(([, range]) => String(range).startsWith("workspace:"))
    .map(([name, range]) => `${name}@${range}`),
);
// biome-ignore lint/suspicious/noUndeclaredEnvVars: set by the package manager running this prepack, not by turbo
const agent = process.env.npm_config_user_agent ?? "";
const rewrites = /^pnpm\//.test(agent) || /^yarn\/([2-9]|\d\d)/.test(agent);
if (workspaceRanges.length > 0 && !rewrites) {
  console.error(
    [
      `${manifest.name}: refusing to pack with ${agent.split(" ")[0] || "this client"}.`,
      `package.json names ${workspaceRanges.join(", ")}; only pnpm rewrites workspace: ranges to versions.`,
      "Pack or publish with pnpm from the repository: `pnpm pack` in this directory, or `pnpm publish -r`.",
    ].join("\n"),
  );
  process.exit(1);
}
