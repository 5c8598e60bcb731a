import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

// Every name the package exports says what it is and shows a use: a JSDoc comment with an `@example` on its
// declaration, read by the TypeScript compiler the way an editor shows it.

const entries = { "@toolcall/files": "index.ts", "@toolcall/files/parts": "parts.ts" } as const;
const paths = Object.values(entries).map((file) => join(import.meta.dirname, "..", "src", file));
const program = ts.createProgram(paths, {
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  noEmit: true,
});
const checker = program.getTypeChecker();

function exportsOf(file: string): ts.Symbol[] {
  const source = program.getSourceFile(join(import.meta.dirname, "..", "src", file));
  return source === undefined
    ? []
    : checker.getExportsOfModule(checker.getSymbolAtLocation(source) as ts.Symbol);
}

function declared(symbol: ts.Symbol): ts.Symbol {
  return symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

describe("every export of @toolcall/files is documented", () => {
  it("the main entry is what a program calls: about twenty names", () => {
    expect(exportsOf("index.ts").length).toBeGreaterThan(10);
    expect(exportsOf("index.ts").length).toBeLessThanOrEqual(25);
  });

  it("no name is exported by both entries", () => {
    const main = new Set(exportsOf("index.ts").map((symbol) => symbol.name));
    expect(
      exportsOf("parts.ts")
        .filter((symbol) => main.has(symbol.name))
        .map((symbol) => symbol.name),
    ).toEqual([]);
  });

  for (const [label, file] of Object.entries(entries)) {
    it(`${label}: each export has JSDoc with an @example`, () => {
      const missing = exportsOf(file)
        .filter((symbol) => {
          const target = declared(symbol);
          const text = ts.displayPartsToString(target.getDocumentationComment(checker)).trim();
          const example = target.getJsDocTags(checker).some((tag) => tag.name === "example");
          return text === "" || !example;
        })
        .map((symbol) => symbol.name);
      expect(missing).toEqual([]);
    });
  }
});
