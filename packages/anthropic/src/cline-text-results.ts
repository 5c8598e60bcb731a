import { isPlainObject } from "@toolcall/core/kit";

/** Cline's header of a result kept as text: `[read_file for 'src/a.ts'] Result:`, `[execute_command] Result:`. */
const HEADER = /^\[([A-Za-z_][\w.-]*)(?: for [^\]\n]*)?\] Result:/;

/**
 * The text blocks of a user message that are Cline's tool results, each paired with the first call of that name the
 * assistant message before it made and no earlier block answered: the header block's index maps to the call's id
 * and the block of its output (the next text block, when the header's block holds nothing after `Result:`); that
 * output block maps to `null`.
 * Blocks that pair with no call are left as text.
 *
 * @example
 * clineTextResults([{ type: "text", text: "[read_file for 'a'] Result:" }, { type: "text", text: "x" }], [{ id: "toolu_1", name: "read_file" }]);
 * // Map { 0 => { id: "toolu_1", body: [1] }, 1 => null }
 */
export function clineTextResults(
  content: readonly unknown[],
  calls: ReadonlyArray<{ id: unknown; name: unknown }>,
): Map<number, { id: unknown; body: number[] } | null> {
  const out = new Map<number, { id: unknown; body: number[] } | null>();
  if (calls.length === 0) return out;
  const open = [...calls];
  let current: { id: unknown; body: number[] } | undefined;
  content.forEach((block, index) => {
    const text =
      isPlainObject(block) && block.type === "text" && typeof block.text === "string"
        ? block.text
        : undefined;
    const name = text === undefined ? undefined : HEADER.exec(text)?.[1];
    const headerOnly = current;
    current = undefined;
    if (name !== undefined) {
      const at = open.findIndex((call) => call.name === name);
      if (at === -1) return;
      const call = open.splice(at, 1)[0] as { id: unknown };
      const result = { id: call.id, body: [] as number[] };
      out.set(index, result);
      // A header alone in its block: the output is the next text block.
      if (/Result:\s*$/.test(text as string)) current = result;
      return;
    }
    if (headerOnly !== undefined && text !== undefined) {
      headerOnly.body.push(index);
      out.set(index, null);
    }
  });
  return out;
}
