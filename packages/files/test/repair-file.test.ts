import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkFile, repairFile, undoFile } from "../src/index.js";
import { readJournal } from "../src/parts.js";

// Every tool-call payload captured in the wild (the shared collection: concatenated objects, fences, Python
// literals, leaked markers…), each saved as the arguments of one call in an OpenAI Chat session line; a line cut
// short and a blank line among them, CRLF endings on some, non-ASCII text kept as written.
const payloads = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../../../shared/wild/payloads.json"), "utf8"),
) as Array<{ source: string; raw: string }>;
const line = (raw: string, index: number) =>
  JSON.stringify({
    id: `s${index}`,
    messages: [
      { role: "user", content: "héllo" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: `c${index}`, type: "function", function: { name: "run", arguments: raw } }],
      },
      { role: "tool", tool_call_id: `c${index}`, content: "done" },
    ],
  });
const folder = mkdtempSync(join(tmpdir(), "toolcall-files-repair-"));
const path = join(folder, "wild.jsonl");
const input = [
  ...payloads.map((payload, index) => line(payload.raw, index) + (index % 3 === 0 ? "\r" : "")),
  "",
  '{"messages": [{"role": "user"',
].join("\n");
writeFileSync(path, input);

describe("repairFile and undoFile", () => {
  it("repair, then undo with the journal, gives the input back byte for byte", async () => {
    const output = join(folder, "fixed.jsonl");
    const journal = join(folder, "fixed.jsonl.journal");
    const repaired = await repairFile({ path, output, journal });
    expect(repaired.ok).toBe(true);
    if (!repaired.ok) return;
    expect(repaired.repair.records).toBe(payloads.length);
    expect(repaired.repair.changed).toBeGreaterThan(0);
    expect(repaired.repair.passedThrough).toBe(1);
    const read = readJournal(readFileSync(journal, "utf8"));
    expect(read.ok && read.entries.length).toBe(repaired.repair.changed);
    expect(readFileSync(output, "utf8")).not.toBe(input);

    const restored = join(folder, "restored.jsonl");
    const undone = await undoFile({ path: output, journal, output: restored });
    expect(undone).toEqual({
      ok: true,
      bytes: Buffer.byteLength(input),
      replacements: repaired.repair.changed,
    });
    expect(readFileSync(restored).equals(readFileSync(path))).toBe(true);
  });

  it("a repaired file has fewer errors than its input, and repairing it again changes nothing", async () => {
    const output = join(folder, "once.jsonl");
    const again = join(folder, "twice.jsonl");
    const first = await repairFile({ path, output });
    const before = await checkFile({ path });
    const after = await checkFile({ path: output });
    expect(first.ok && before.ok && after.ok).toBe(true);
    if (!first.ok || !before.ok || !after.ok) return;
    expect(after.check.withErrors).toBeLessThan(before.check.withErrors);
    const second = await repairFile({ path: output, output: again });
    expect(second.ok && second.repair.changed).toBe(0);
    expect(readFileSync(again).equals(readFileSync(output))).toBe(true);
  });

  it("refuses, writing nothing, an output that is the input or a journal that is the output", async () => {
    const same = await repairFile({ path, output: path });
    expect(same.ok === false && same.issue.code).toBe("output_is_input");
    const output = join(folder, "x.jsonl");
    const clash = await repairFile({ path, output, journal: output });
    expect(clash.ok === false && clash.issue.code).toBe("outputs_are_one_file");
    expect(readFileSync(path, "utf8")).toBe(input);
    expect(existsSync(output)).toBe(false);
  });

  it("undo refuses a repaired file edited after the repair, and a journal that is not one", async () => {
    const output = join(folder, "edited.jsonl");
    const journal = join(folder, "edited.journal");
    expect((await repairFile({ path, output, journal })).ok).toBe(true);
    writeFileSync(output, `${readFileSync(output, "utf8")} `);
    const edited = await undoFile({ path: output, journal, output: join(folder, "never.jsonl") });
    expect(edited.ok === false && edited.issue.code).toBe("output_changed");
    const notJournal = await undoFile({ path: output, journal: path, output: join(folder, "never.jsonl") });
    expect(notJournal.ok === false && notJournal.issue.code).toBe("journal_unreadable");
    const missing = await undoFile({
      path: output,
      journal: join(folder, "none"),
      output: join(folder, "never.jsonl"),
    });
    expect(missing.ok === false && missing.issue.code).toBe("journal_unreadable");
    expect(existsSync(join(folder, "never.jsonl"))).toBe(false);
  });
});
