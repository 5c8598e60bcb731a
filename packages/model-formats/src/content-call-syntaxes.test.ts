import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { contentCallSyntaxes } from "./content-call-syntaxes.js";
import { hermes } from "./families/hermes.js";

const template = (name: string) =>
  readFileSync(`${import.meta.dirname}/../../../../shared/templates/${name}`, "utf8");

describe("contentCallSyntaxes", () => {
  it("takes syntaxes as given, and none by default", () => {
    expect(contentCallSyntaxes({ contentCalls: [hermes] })).toEqual({ success: true, value: [hermes] });
    expect(contentCallSyntaxes({})).toEqual({ success: true, value: [] });
  });

  it('"auto" names the one syntax a real template renders', () => {
    const qwen = contentCallSyntaxes({
      contentCalls: "auto",
      chatTemplate: template("Qwen-Qwen3-Coder-30B-A3B-Instruct.jinja"),
    });
    expect(qwen.success && qwen.value.map((syntax) => syntax.id)).toEqual(["qwen3-coder"]);
    const qwen3 = contentCallSyntaxes({
      contentCalls: "auto",
      chatTemplate: template("Qwen-Qwen3-8B.jinja"),
    });
    expect(qwen3.success && qwen3.value.map((syntax) => syntax.id)).toEqual(["hermes"]);
  });

  it('"auto" refuses what it is not sure of, with a code that says why', () => {
    const code = (chatTemplate?: string) => {
      const result = contentCallSyntaxes({ contentCalls: "auto", chatTemplate });
      return result.success ? "detected" : result.error.code;
    };
    expect(code()).toBe("chat_template_missing");
    expect(code(template("google-gemma-3-it.jinja"))).toBe("syntax_undetected");
    expect(code("{{ messages }}")).toBe("syntax_undetected");
    expect(code("{% if")).toBe("syntax_undetected");
    // Gemma 4 is a family of this package's registry: its template names it.
    const gemma = contentCallSyntaxes({
      contentCalls: "auto",
      chatTemplate: template("google-gemma-4-31B-it.jinja"),
    });
    expect(gemma.success && gemma.value.map((syntax) => syntax.id)).toEqual(["gemma4"]);
  });
});
