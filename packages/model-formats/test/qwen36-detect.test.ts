import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { detectOutputSyntax, detectToolCallSyntax, syntaxById } from "../src/index.js";
import { encodeQwen36, qwen36 } from "../src/qwen3-coder.js";

/*
 * Qwen3-Coder and Qwen3.6 / 3.8 / Coder-Next write the same calls but for non-string values (`| string`, Python's
 * `True`, against `tojson`, `true`): a probe with a string and a number cannot tell them apart, one with a boolean
 * can. The real templates are read where they are (../shared/templates), never copied into the repository.
 */
const shared = resolve(import.meta.dirname, "../../../../shared/templates");
const read = (name: string) => readFileSync(join(shared, `${name}.jinja`), "utf8");

describe("qwen36 in detection, on the real templates", () => {
  it.each([
    ["Qwen-Qwen3.5-4B", "qwen3-coder", true],
    ["Qwen-Qwen3-Coder-30B-A3B-Instruct", "qwen3-coder", false],
    ["Qwen-Qwen3-Coder-30B-A3B-Instruct.rev-2025-07-31", "qwen3-coder", false],
    ["Qwen-Qwen3-Coder-30B-A3B-Instruct.rev-2025-08-07", "qwen3-coder", false],
    ["Qwen-Qwen3-Coder-Next", "qwen36", false],
    ["families/Qwen-Qwen3.6-35B-A3B", "qwen36", true],
    ["families/Qwen-Qwen3.8-27B", "qwen36", true],
  ] as const)("%s writes %s", (name, id, startInReasoning) => {
    const detected = detectToolCallSyntax(read(name));
    expect(detected).toMatchObject({ id, method: "render", startInReasoning, candidates: [id] });
    // The text it rendered for the probe call is what the named syntax writes.
    expect(detected.callText).toContain("<function=probe_fn_alpha>");
  });

  it("the registry serves qwen36 by id, with Qwen3-Coder's reader and the tojson writer", () => {
    expect(syntaxById("qwen36")).toBe(qwen36);
    expect(qwen36.encode([{ function: { name: "f", arguments: '{"on": true}' } }])).toBe(
      encodeQwen36([{ function: { name: "f", arguments: '{"on": true}' } }]),
    );
  });

  it("from output alone, a Qwen3.6 call is named by its reader (qwen3-coder): the text cannot tell the writer", () => {
    const output = encodeQwen36([
      { function: { name: "set_flag", arguments: '{"on": false, "name": "x"}' } },
    ]);
    const detected = detectOutputSyntax(output);
    expect(detected).toMatchObject({ status: "detected", id: "qwen3-coder" });
    expect(detected.candidates).not.toContain("qwen36");
  });
});
