import { SYNTAX_IDS, SYNTAXES, syntaxById } from "@toolcall/model-formats";
import { describe, expect, it } from "vitest";
import { ROUNDTRIP_HELP } from "../src/commands/help.js";

describe("the command line's syntaxes are the registry's", () => {
  it("every syntax of model-formats' registry (Gemma 4 among them) can be named, and roundtrip's help lists each", () => {
    for (const id of Object.keys(SYNTAXES)) {
      expect(SYNTAX_IDS, id).toContain(id);
      expect(syntaxById(id)?.id, id).toBe(id);
      expect(ROUNDTRIP_HELP, id).toMatch(new RegExp(`[ ,]${id.replace(/[-]/g, "\\-")}(,|\\n)`));
    }
    // Qwen3-Coder is the engine's family, not a second parser.
    expect(syntaxById("qwen3-coder")).toBe(SYNTAXES["qwen3-coder"]);
  });
});
