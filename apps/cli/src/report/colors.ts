import { styleText } from "node:util";

/** The styles the reports use. */
export type Style = "red" | "yellow" | "green" | "cyan" | "gray" | "bold" | "dim";

/** Paints text for one output stream, or returns it unchanged when that stream gets no colors. */
export interface Painter {
  (style: Style, text: string): string;
  readonly enabled: boolean;
}

/**
 * Colors only for a terminal and only while `NO_COLOR` is unset or empty (https://no-color.org); `FORCE_COLOR`
 * (non-empty, not `0`) turns them on for a pipe. Decided per stream: stdout may be a file while stderr is a terminal.
 *
 * @example
 * const paint = createPainter({ stream: process.stdout });
 * paint("red", "error"); // "\x1b[31merror\x1b[39m" on a terminal, "error" in a pipe
 */
export function createPainter(options: { stream: { isTTY?: boolean }; env?: NodeJS.ProcessEnv }): Painter {
  const env = options.env ?? process.env;
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== "";
  const force = env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "" && env.FORCE_COLOR !== "0";
  const enabled = !noColor && (force || options.stream.isTTY === true);
  // styleText (Node 20.12+) does the escapes; whether to use them is decided above, per stream.
  const paint = (style: Style, text: string) => (enabled ? styleText(style, text) : text);
  return Object.assign(paint, { enabled });
}
