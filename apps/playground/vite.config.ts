import { existsSync, readdirSync, readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, type Plugin } from "vite";

const appDir = fileURLToPath(new URL(".", import.meta.url));
/** The shared material beside the repository (../shared from its root), as the tests read it. */
const templatesDir = resolve(appDir, "../../../shared/templates");

interface TemplateIndex {
  names: string[];
  /** Each template's model licence, as ../shared/templates/SOURCES.md records it (unverified there). */
  licences: Record<string, string>;
  note?: string;
}

/** The model licence column of SOURCES.md's provenance table, by file name. */
function licences(): Record<string, string> {
  const file = join(templatesDir, "SOURCES.md");
  if (!existsSync(file)) return {};
  const found: Record<string, string> = {};
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const cells = line.split(" | ");
    const name = /^\| ([^|]+)\.jinja$/.exec(cells[0] ?? "")?.[1];
    const licence = cells
      .at(-1)
      ?.replace(/ \|\s*$/, "")
      .trim();
    if (name && licence && !(name in found)) found[name] = licence;
  }
  return found;
}

function templateIndex(): TemplateIndex {
  if (!existsSync(templatesDir))
    return { names: [], licences: {}, note: `${templatesDir} was not there when the page was built` };
  const names = readdirSync(templatesDir)
    .filter((file) => file.endsWith(".jinja"))
    .map((file) => file.slice(0, -".jinja".length))
    .sort();
  return { names, licences: licences() };
}

/** Answers `/templates/NAME.jinja` from ../shared/templates, for a name of the list only. */
function serveTemplate(request: IncomingMessage, response: ServerResponse, next: () => void): void {
  const file = decodeURIComponent((request.url ?? "").replace(/^\//, "").split("?")[0] ?? "");
  const name = file.replace(/\.jinja$/, "");
  if (!file.endsWith(".jinja") || !templateIndex().names.includes(name)) {
    next();
    return;
  }
  response.setHeader("content-type", "text/plain; charset=utf-8");
  response.setHeader("cache-control", "no-store");
  response.end(readFileSync(join(templatesDir, `${name}.jinja`)));
}

const INDEX_MODULE = "virtual:shared-templates";
const RESOLVED_INDEX_MODULE = `\0${INDEX_MODULE}`;

/**
 * The shared chat templates. Their names (and recorded licences) are read at build time into the page's script
 * (`virtual:shared-templates`: no request before the first render); their text is NOT copied into the build: the
 * model licences SOURCES.md records are unverified and several carry conditions a copied file would not meet (Llama,
 * Gemma, DeepSeek, modified MIT), so the dev and preview servers (`pnpm playground`) answer `templates/NAME.jinja`
 * from the local checkout at serve time. A plain file server of `dist/` lists the names, and the page asks for a
 * pasted template when one is picked.
 */
function sharedTemplatesPlugin(): Plugin {
  return {
    name: "toolcall-shared-templates",
    resolveId(id) {
      return id === INDEX_MODULE ? RESOLVED_INDEX_MODULE : undefined;
    },
    load(id) {
      if (id !== RESOLVED_INDEX_MODULE) return undefined;
      const index = templateIndex();
      if (index.names.length === 0) this.warn(`no shared templates: ${index.note}`);
      return `export default ${JSON.stringify(index)};\n`;
    },
    configureServer(server) {
      server.middlewares.use("/templates/", serveTemplate);
    },
    configurePreviewServer(server) {
      server.middlewares.use("/templates/", serveTemplate);
    },
  };
}

/** The package a bundled module comes from: `@toolcall/core`, `diff`, or `playground` for the page's own code. */
function packageOf(id: string): string {
  const path = id.replace(/\\/g, "/");
  const ours = /\/packages\/([^/]+)\/(dist|src)\//.exec(path);
  if (ours) return `@toolcall/${ours[1]}`;
  const installed = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
  if (installed?.[1]) return installed[1];
  return path.includes("/apps/playground/") ? "playground" : "other";
}

/**
 * The page's script, per package: how many bytes of the minified bundle each package's modules take
 * (`bundle-sizes.json` beside the page, and a table in the build's output).
 */
function bundleSizesPlugin(): Plugin {
  return {
    name: "toolcall-bundle-sizes",
    generateBundle(_options, bundle) {
      const sizes = new Map<string, number>();
      let total = 0;
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk") continue;
        total += chunk.code.length;
        for (const [id, info] of Object.entries(chunk.modules))
          sizes.set(packageOf(id), (sizes.get(packageOf(id)) ?? 0) + info.renderedLength);
      }
      const rows = [...sizes].sort((a, b) => b[1] - a[1]).map(([name, bytes]) => ({ name, bytes }));
      this.emitFile({
        type: "asset",
        fileName: "bundle-sizes.json",
        source: `${JSON.stringify({ scriptBytes: total, packages: rows }, null, 2)}\n`,
      });
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`.padStart(10);
      this.info(
        [
          `the page's script is ${kb(total).trim()} minified; by package, bytes before minification:`,
          ...rows.map((row) => `  ${row.name.padEnd(28)} ${kb(row.bytes)}`),
        ].join("\n"),
      );
    },
  };
}

export default defineConfig({
  // Relative addresses: the built page works from any directory of any static server.
  base: "./",
  plugins: [sharedTemplatesPlugin(), bundleSizesPlugin()],
  build: { target: "es2022", sourcemap: false, reportCompressedSize: true },
  server: { host: "127.0.0.1" },
  preview: { host: "127.0.0.1" },
});
