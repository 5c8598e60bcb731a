import type { SyntaxToolCall, ToolCallSyntax } from "@toolcall/core/kit";

/**
 * The texts a rendered assistant turn may end with that a model's output lacks, because a server strips the stop
 * token there: the template's end of turn (`<|im_end|>\n`, an EOS token), and, for a turn with calls, whatever the
 * template writes after the calls as the syntax writes them (Gemma 4 closes a calling turn with
 * `<|tool_response>`, the token the model stops on there, not with its end of turn). What the syntax's own encoding
 * holds (a section's closing marker) is never among them: an output without it does not match.
 *
 * @example
 * turnEndings({ rendered: "<|turn>model\n<|tool_call>call:f{}<tool_call|><|tool_response>", endOfTurn: "<turn|>\n", syntax: gemma4, calls });
 * // ["<|tool_response>"]
 */
export function turnEndings(options: {
  rendered: string;
  endOfTurn: string;
  syntax: ToolCallSyntax;
  calls: readonly SyntaxToolCall[];
}): string[] {
  const { rendered, endOfTurn, syntax, calls } = options;
  const endings = endOfTurn !== "" && rendered.endsWith(endOfTurn) ? [endOfTurn] : [];
  if (calls.length === 0) return endings;
  let written: string;
  try {
    written = syntax.encode(calls);
  } catch {
    return endings;
  }
  const at = written === "" ? -1 : rendered.lastIndexOf(written);
  const after = at === -1 ? "" : rendered.slice(at + written.length);
  if (after !== "" && !endings.includes(after)) endings.push(after);
  return endings;
}

/**
 * The output without the stop token it may end on: the visible part of the template's end of turn (`<|im_end|>`
 * of `<|im_end|>\n`), which a model samples and a rollout may keep. Only a whole, trailing one is cut.
 *
 * @example
 * withoutStopText("Hi.<|im_end|>", "<|im_end|>\n"); // "Hi."
 */
export function withoutStopText(output: string, endOfTurn: string): string {
  const stop = endOfTurn.trimEnd();
  return stop !== "" && output.endsWith(stop) ? output.slice(0, output.length - stop.length) : output;
}
