import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

// Every README example runs as printed, against the built package (the test task builds first).
const root = resolve(import.meta.dirname, "..");
const readme = readFileSync(join(root, "README.md"), "utf8");
const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string);

function entry(specifier: string): string {
  const sub = specifier.replace(/^@toolcall\/model-formats\/?/, "") || "index";
  return pathToFileURL(join(root, "dist", `${sub}.js`)).href;
}

describe("README examples", () => {
  it("has examples", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
  });
  blocks.forEach((block, i) => {
    it(`example ${i + 1} runs`, () => {
      const code = block
        .replace(
          /from "(@toolcall\/model-formats(?:\/[a-z0-9-]+)?)"/g,
          (_, spec: string) => `from "${entry(spec)}"`,
        )
        // `expression; // true` (or a number, or a string): the comment is checked, not only read.
        .replace(
          /^(\S[^\n]*?);\s*\/\/\s*(true|false|-?\d+|"[^"\n]*")(?=[\s:]|$)[^\n]*$/gm,
          (_, expression: string, value: string) =>
            `if (JSON.stringify(${expression}) !== JSON.stringify(${value})) throw new Error(${JSON.stringify(`${expression} is not ${value}`)});`,
        );
      const dir = mkdtempSync(join(tmpdir(), "model-formats-readme-"));
      const file = join(dir, `example-${i + 1}.mjs`);
      writeFileSync(file, code);
      expect(() => execFileSync(process.execPath, [file], { encoding: "utf8", cwd: root })).not.toThrow();
    });
  });
});
