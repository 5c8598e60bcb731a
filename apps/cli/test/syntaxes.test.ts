import { SYNTAXES } from "@toolcall/model-formats";
import { describe, expect, it } from "vitest";
import { ROUNDTRIP_HELP } from "../src/help.js";
import { SYNTAX_IDS, toolCallSyntax } from "../src/syntaxes.js";

describe("the command line's syntaxes are the registry's", () => {
  it("every syntax of model-formats' registry, and Gemma 4, can be named, and roundtrip's help lists each", () => {
    for (const id of [...Object.keys(SYNTAXES), "gemma4"]) {
      expect(SYNTAX_IDS, id).toContain(id);
      expect(toolCallSyntax(id)?.id, id).toBe(id);
      expect(ROUNDTRIP_HELP, id).toMatch(new RegExp(`[ ,]${id.replace(/[-]/g, "\\-")}(,|\\n)`));
    }
    // Qwen3-Coder is the engine's family, not a second parser.
    expect(toolCallSyntax("qwen3-coder")).toBe(SYNTAXES["qwen3-coder"]);
  });
});
