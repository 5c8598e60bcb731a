import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Every name a published entry exports is named in the package's README or in a JSDoc `@example` of its source:
// a user can find each one without reading the code.

const root = join(import.meta.dirname, "..");

/** The names an entry file exports (`export { a, type B } from "…"`). */
function exportedNames(entry: string): string[] {
  const text = readFileSync(join(root, "src", entry), "utf8");
  return [...text.matchAll(/export (?:type )?\{([^}]*)\}/g)].flatMap((match) =>
    (match[1] ?? "")
      .split(",")
      .map((name) => name.replace(/^\s*type\s+/, "").trim())
      .filter((name) => name !== ""),
  );
}

/** The text of every JSDoc `@example` in the package's source (up to the end of its comment). */
function examples(): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) {
        const text = readFileSync(path, "utf8");
        for (const match of text.matchAll(/@example([\s\S]*?)\*\//g)) out.push(match[1] ?? "");
      }
    }
  };
  walk(join(root, "src"));
  return out.join("\n");
}

const documented = `${readFileSync(join(root, "README.md"), "utf8")}\n${examples()}`;
const named = (name: string) => new RegExp(`\\b${name}\\b`).test(documented);

describe("every export of @toolcall/core is documented", () => {
  for (const [entry, label] of [
    ["index.ts", "@toolcall/core"],
    ["kit.ts", "@toolcall/core/kit"],
  ] as const) {
    it(`${label}: each name is in the README or an @example`, () => {
      const missing = exportedNames(entry).filter((name) => !named(name));
      expect(missing, `${label} exports named nowhere`).toEqual([]);
    });
  }

  it("the main entry stays what a user calls: at most about 60 names", () => {
    // 59 since the parts for authors (RepairRule, parseRepairNames, provider profile types, serializeJson) moved to
    // the kit: docs/decisions.md, "Core's main entry by audience".
    expect(exportedNames("index.ts").length).toBeLessThanOrEqual(59);
  });
});
