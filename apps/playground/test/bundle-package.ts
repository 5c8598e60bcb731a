// Bundles an entry point of one of our packages the way a browser or an edge runtime's bundler resolves it, and
// reports every way Node leaks in: an import of a Node built-in (`node:fs`, `path`), a free reference to a Node
// global (`Buffer`, `process`, `__dirname`, `global`, `setImmediate`), or a dynamic `require` left in the output.
// The package's peer dependencies stay outside the bundle: they are the user's own (the `openai` SDK,
// `@langchain/core`, `ai`), and their browser support is their projects' to declare.
import { builtinModules } from "node:module";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildOptions, build, type Plugin } from "esbuild";

/** Where the bundle is meant to run, and how that runtime's bundler resolves packages. */
export interface BundleTarget {
  name: string;
  options: BuildOptions;
}

/**
 * The targets every browser entry is proven for: a browser (esbuild's browser platform: the `browser` condition,
 * then `import`), Cloudflare Workers (the conditions wrangler asks for, in its order: `workerd`, `worker`,
 * `browser`) and Vercel's edge runtime (`edge-light`, `worker`, `browser`). Neither edge target gets Node's
 * platform defaults: a `node` condition or a Node built-in never resolves.
 */
export const TARGETS: readonly BundleTarget[] = [
  { name: "browser", options: { platform: "browser" } },
  {
    name: "workerd",
    options: {
      platform: "neutral",
      conditions: ["workerd", "worker", "browser"],
      mainFields: ["browser", "module", "main"],
    },
  },
  {
    name: "edge-light",
    options: {
      platform: "neutral",
      conditions: ["edge-light", "worker", "browser"],
      mainFields: ["browser", "module", "main"],
    },
  },
];

/**
 * Node's globals that no browser or worker has; a free reference to one is a Node dependency. (`require` is not
 * renamed: the bundler resolves CommonJS `require` calls itself, and one it cannot resolve stays in the output as a
 * "Dynamic require" that throws, which is checked.)
 */
export const NODE_GLOBALS = [
  "Buffer",
  "process",
  "global",
  "__dirname",
  "__filename",
  "setImmediate",
  "clearImmediate",
] as const;

const MARK = "__toolcall_node_global_";
const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));

/** One way Node leaked into a bundle. */
export interface NodeLeak {
  kind: "builtin" | "global" | "dynamic-require" | "unresolved";
  /** The built-in or global's name, or the unresolved import. */
  name: string;
  /** Which file asked for it (relative to the repository), when the bundler knows. */
  importer?: string;
}

/** A bundle and what it leaked. */
export interface PackageBundle {
  target: string;
  entry: string;
  /** The output (ES module text), empty when the build failed. */
  code: string;
  bytes: number;
  leaks: NodeLeak[];
  /** The packages left outside the bundle (peer dependencies). */
  external: string[];
}

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));
const appRoot = fileURLToPath(new URL("..", import.meta.url));

function show(path: string | undefined): string | undefined {
  if (path === undefined || path === "") return undefined;
  return relative(repoRoot, path)
    .replace(/\\/g, "/")
    .replace(/^(\.\.\/)+/, "");
}

/** Records Node built-ins instead of letting the platform decide, and keeps the peers outside. */
function guard(leaks: NodeLeak[], peers: readonly string[]): Plugin {
  const peer = peers.length === 0 ? undefined : new RegExp(`^(${peers.map(escapeRegExp).join("|")})(/|$)`);
  return {
    name: "node-guard",
    setup(context) {
      context.onResolve({ filter: /.*/ }, (args) => {
        if (BUILTINS.has(args.path)) {
          const importer = show(args.importer);
          leaks.push({ kind: "builtin", name: args.path, ...(importer ? { importer } : {}) });
          return { path: args.path, external: true };
        }
        if (peer?.test(args.path)) return { path: args.path, external: true };
        return undefined;
      });
    },
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

/**
 * Bundles `entry` (a package specifier such as `@toolcall/core` or `@toolcall/model-formats/glm`, or module text
 * given as `contents`) for `target`, from the playground's dependencies.
 *
 * @example
 * const bundle = await bundlePackage({ entry: "@toolcall/core", target: TARGETS[0] });
 * bundle.leaks; // []
 */
export async function bundlePackage(options: {
  entry: string;
  target: BundleTarget;
  peers?: readonly string[];
  contents?: string;
  minify?: boolean;
  /** Rename Node's globals to find them (default); off for a bundle that is meant to run. */
  checkGlobals?: boolean;
}): Promise<PackageBundle> {
  const leaks: NodeLeak[] = [];
  const peers = options.peers ?? [];
  const define =
    options.checkGlobals === false
      ? {}
      : Object.fromEntries(NODE_GLOBALS.map((name) => [name, `${MARK}${name}`]));
  const contents = options.contents ?? `export * from ${JSON.stringify(options.entry)};\n`;
  let code = "";
  try {
    const result = await build({
      ...options.target.options,
      stdin: { contents, resolveDir: appRoot, sourcefile: "entry.js", loader: "js" },
      bundle: true,
      write: false,
      format: "esm",
      target: "es2022",
      minify: options.minify ?? false,
      legalComments: "none",
      logLevel: "silent",
      define,
      plugins: [guard(leaks, peers)],
    });
    code = result.outputFiles[0]?.text ?? "";
  } catch (error) {
    const failures = (error as { errors?: Array<{ text: string; location?: { file?: string } | null }> })
      .errors ?? [{ text: String(error) }];
    for (const failure of failures) {
      const importer = show(failure.location?.file);
      leaks.push({ kind: "unresolved", name: failure.text, ...(importer ? { importer } : {}) });
    }
  }
  for (const name of NODE_GLOBALS)
    if (code.includes(`${MARK}${name}`)) leaks.push({ kind: "global", name, ...whereUsed(code, name) });
  if (code.includes("Dynamic require of")) leaks.push({ kind: "dynamic-require", name: "require" });
  return {
    target: options.target.name,
    entry: options.entry,
    code,
    bytes: Buffer.byteLength(code),
    leaks,
    external: peers.filter((name) => new RegExp(`from ["']${escapeRegExp(name)}(/[^"']*)?["']`).test(code)),
  };
}

/** The source file of the first use of a global, from the `// path` comments esbuild writes before each module. */
function whereUsed(code: string, name: string): { importer?: string } {
  const at = code.indexOf(`${MARK}${name}`);
  const before = code.slice(0, at);
  const comments = [...before.matchAll(/^\/\/ (.+)$/gm)];
  const last = comments.at(-1)?.[1];
  return last ? { importer: show(`${appRoot}/${last}`) ?? last } : {};
}

export const playgroundRoot = appRoot;
export const repositoryRoot = repoRoot;
