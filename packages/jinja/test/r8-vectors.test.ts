import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { buildVectorFiles, vectorsDir } from "../scripts/r8-vectors.mjs";
import { probeChatTemplate } from "../src/index.js";

// The R8 vectors are what Python + Jinja2 (transformers' setup, ../shared/parity/hf_render.py) gives today: rebuilt
// from their sources and compared with the files, so an expected value can never drift from the reference.

describe("R8 render vectors", () => {
  const files = buildVectorFiles({
    formFor: (t: { source: string }) => probeChatTemplate(t.source).argumentsForm,
  });

  for (const { file, groups } of files) {
    it(`${file} holds what Python renders`, () => {
      const onDisk = JSON.parse(readFileSync(join(vectorsDir, file), "utf8"));
      expect(onDisk).toEqual(JSON.parse(JSON.stringify(groups)));
    });
  }

  it("covers every filter and test Jinja2 defines", () => {
    const all = JSON.stringify(files);
    for (const name of [
      "batch",
      "groupby",
      "slice",
      "filesizeformat",
      "urlencode",
      "urlize",
      "xmlattr",
      "wordwrap",
      "format",
      "pprint",
      "striptags",
      "forceescape",
    ]) {
      expect(all, name).toContain(`|${name}`);
    }
    expect(files.reduce((n, f) => n + (f.groups[0]?.tests.length ?? 0), 0)).toBeGreaterThan(200);
  });
});
