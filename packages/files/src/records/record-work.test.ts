import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRecordEngine } from "@toolcall/core";
import { describe, expect, it } from "vitest";
import { detectRecordFormat } from "./formats.js";
import { layoutJson } from "./json-style.js";
import { computeRecord, rewrite, type WorkContext, workLine } from "./record-work.js";
import type { SpliceWork } from "./splice-json.js";

// Arguments captured in public bug reports (sources in the file): each is put in a session as one call.
const payloads = JSON.parse(
  readFileSync(join(import.meta.dirname, "../../../../../shared/wild/payloads.json"), "utf8"),
) as Array<{ source: string; raw: unknown }>;

function session(raw: unknown, index: number): Record<string, unknown> {
  const id = `call_${index}`;
  return {
    id: `s${index}`,
    reward: 0.962,
    messages: [
      { role: "system", content: "You are a coding agent. Café ☕" },
      { role: "user", content: "run it" },
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id, type: "function", function: { name: "run", arguments: raw } }],
      },
      { role: "tool", tool_call_id: id, content: "done" },
      // A call left without its result: the repair adds one.
      {
        role: "assistant",
        content: null,
        tool_calls: [{ id: `${id}b`, type: "function", function: { name: "run", arguments: "{}" } }],
      },
      { role: "user", content: "thanks" },
      { role: "assistant", content: "you are welcome" },
    ],
  };
}

const context: WorkContext = { mode: "repair", processor: createRecordEngine() };

/** What the line's record is written as when serialized whole (the way every record was written before). */
function serializedWhole(text: string): string | undefined {
  const value = JSON.parse(text) as unknown;
  const format = detectRecordFormat(value);
  if (format === undefined) return undefined;
  const written = rewrite(computeRecord(context, format, value, text), text);
  return written?.success ? written.value : undefined;
}

describe("workLine: a repaired record's bytes", () => {
  it("are the whole record serialized, its kept parts copied from the line (JSON.stringify's lines only)", () => {
    const work: SpliceWork = { reads: 0, spliced: 0 };
    const state = { work };
    let compactLines = 0;
    payloads.forEach((payload, index) => {
      const compact = JSON.stringify(session(payload.raw, index));
      // Python's json.dumps spacing: not what JSON.stringify writes, so serialized whole.
      const spaced = layoutJson(compact, { indent: "", spaced: true, ensureAscii: false, eol: "\n" });
      // Python's `json.dumps(separators=(",", ":"))`: compact, but "é" written `\u00e9`, which the rewrite keeps.
      const escaped = compact.replace(
        /[^\x00-\x7f]/g,
        (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`,
      );
      expect(escaped).toContain("\\u00e9");
      // A number JSON.stringify writes otherwise (`1.0`): not copied; the record is read again keeping its text.
      const exactNumber = compact.replace('"reward":0.962', '"reward":1.0');
      expect(exactNumber).toContain('"reward":1.0');
      for (const text of [compact, spaced, escaped, exactNumber]) {
        const result = workLine(context, Buffer.from(text), index + 2, state);
        expect(result.kind, payload.source).toBe("record");
        if (result.kind !== "record") continue;
        const bytes = result.bytes && Buffer.from(result.bytes).toString("utf8");
        expect(bytes, payload.source).toBe(serializedWhole(text));
        if (text === exactNumber) expect(bytes).toContain('"reward":1.0');
      }
      compactLines++;
    });
    // Every line was read beside its text once; only the compact ones were written from it (a spaced line is
    // refused at its first space, an escaped one at its first `\u00e9`, the other at `1.0`).
    expect(work).toEqual({ reads: 4 * compactLines, spliced: compactLines });
  });

  it("are none for a record that needs no repair (its line is kept as it is, nothing serialized)", () => {
    const work: SpliceWork = { reads: 0, spliced: 0 };
    const clean = JSON.stringify({
      messages: [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: null,
          tool_calls: [{ id: "a", type: "function", function: { name: "f", arguments: '{"x":1}' } }],
        },
        { role: "tool", tool_call_id: "a", content: "ok" },
      ],
    });
    const result = workLine(context, Buffer.from(clean), 1, { work });
    expect(result).toMatchObject({ kind: "record", format: "openai-chat" });
    expect(result.kind === "record" ? result.bytes : "not a record").toBeUndefined();
    expect(work).toEqual({ reads: 0, spliced: 0 });
  });
});
