import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkResult } from "./check-result.js";
import { checkRender } from "./render-case.js";
import { resolveRenderInput } from "./template-file.js";

const SHA = "a".repeat(64);

describe("render vectors: the shared-template form", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolcall-templates-"));
  writeFileSync(join(dir, "t.jinja"), "{{ messages|length }}");
  const sha = createHash("sha256").update("{{ messages|length }}").digest("hex");

  it("skips, saying why, when no template directory is given", () => {
    const result = resolveRenderInput({ templateFile: "t.jinja", templateSha256: SHA }, undefined);
    expect(result).toEqual({
      skip: "renders the shared template t.jinja: set TOOLCALL_TEMPLATES (or templatesDir) to its directory",
    });
  });

  it("skips a file that is absent or not the one the vector was made with", () => {
    expect(resolveRenderInput({ templateFile: "none.jinja", templateSha256: SHA }, dir)).toEqual({
      skip: `renders the shared template none.jinja, not found in ${dir}`,
    });
    const other = resolveRenderInput({ templateFile: "t.jinja", templateSha256: SHA }, dir);
    expect("skip" in other && other.skip).toMatch(/is not the template the vector was made with/);
  });

  it("reads the file and fills the defaults", () => {
    const result = resolveRenderInput({ templateFile: "t.jinja", templateSha256: sha }, dir);
    expect(result).toEqual({
      input: {
        template: "{{ messages|length }}",
        messages: [],
        tools: null,
        addGenerationPrompt: false,
        variables: {},
        now: "2026-01-02T03:04:05",
      },
    });
  });
});

describe("render vectors: comparing outcomes", () => {
  it("accepts the exact text or the exact error, nothing else", () => {
    expect(checkResult({ operation: "render", expected: { text: "a" }, actual: { text: "a" } })).toEqual([]);
    expect(
      checkResult({ operation: "render", expected: { text: "a" }, actual: { text: "a " } }),
    ).toHaveLength(1);
    const error = { type: "TypeError", message: "x" };
    expect(checkResult({ operation: "render", expected: { error }, actual: { error } })).toEqual([]);
    const failures: string[] = [];
    const at = () => true;
    checkRender({ error }, { error: { type: "TypeError", message: "y" } }, at, failures);
    checkRender({ error }, { text: "ok" }, at, failures);
    checkRender({ text: "ok" }, { error }, at, failures);
    expect(failures).toEqual([
      "error: expected TypeError: x, got TypeError: y",
      'error: expected TypeError, got text "ok"',
      'text: expected "ok", got TypeError: x',
    ]);
  });

  it("checks the text at the mapping level, the error only at the full level", () => {
    const error = { type: "TypeError", message: "x" };
    const wrong = { error: { type: "ValueError", message: "y" } };
    expect(
      checkResult({ operation: "render", expected: { error }, actual: wrong, level: "mapping" }),
    ).toEqual([]);
    expect(
      checkResult({ operation: "render", expected: { text: "a" }, actual: { text: "b" }, level: "mapping" }),
    ).toHaveLength(1);
  });
});
