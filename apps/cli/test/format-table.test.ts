import { readFileSync } from "node:fs";
import { join } from "node:path";
import { formatTable } from "@toolcall/files";
import { describe, expect, it } from "vitest";
import { root } from "./helpers.js";

// The README's list of formats is the registry's: a format added to a package's list appears here or this fails.
describe("the README's table of formats", () => {
  it("is the one the registry generates (formatTable in @toolcall/files)", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const start = readme.indexOf("<!-- formats:start -->");
    const end = readme.indexOf("<!-- formats:end -->");
    expect(start).toBeGreaterThan(-1);
    expect(readme.slice(start + "<!-- formats:start -->".length, end).trim()).toBe(formatTable());
  });
});
