import type { WorkMeter } from "@toolcall/core/kit";

/** What follows `<|tool_call>`: `call:NAME{`, a prefix of it that the text ends in, or anything else. */
export type CallHead =
  | { status: "ok"; name: string; brace: number }
  | { status: "partial" }
  | { status: "invalid" };

const CALL = "call:";
const SPACE = /\s/;

/**
 * Reads `\s*call:NAME{` from `from` (right after `<|tool_call>`), one forward pass charged to `meter`. The name runs
 * to the first `{` and must be one word; the text ending before the `{` is `partial` (more may come).
 */
export function readCallHead(text: string, from: number, meter: WorkMeter): CallHead {
  let i = from;
  while (i < text.length && SPACE.test(text.charAt(i))) i++;
  for (let k = 0; k < CALL.length; k++, i++) {
    if (i >= text.length) {
      meter.charge(i - from);
      return { status: "partial" };
    }
    if (text.charAt(i) !== CALL.charAt(k)) {
      meter.charge(i - from);
      return { status: "invalid" };
    }
  }
  const nameStart = i;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === 0x7b || c === 0x3c) break;
    i++;
  }
  meter.charge(2 * (i - from));
  if (i >= text.length) return { status: "partial" };
  if (text.charCodeAt(i) !== 0x7b) return { status: "invalid" };
  const name = text.slice(nameStart, i).trim();
  if (name === "" || SPACE.test(name)) return { status: "invalid" };
  return { status: "ok", name, brace: i };
}
