import { ALL_FORMATS } from "@toolcall/files";

/**
 * `toolcall formats`: every format the command line reads, with the shape it expects; `--json` for machines.
 *
 * @example
 * runFormats({ json: false }); // prints one block per format
 */
export function runFormats(options: { json: boolean; stdout?: NodeJS.WritableStream }): number {
  const stdout = options.stdout ?? process.stdout;
  if (options.json) {
    const formats = ALL_FORMATS.map(({ id, name, expected, unit }) => ({ id, name, unit, expected }));
    stdout.write(`${JSON.stringify({ command: "formats", formats })}\n`);
    return 0;
  }
  const width = Math.max(...ALL_FORMATS.map((format) => format.id.length));
  const lines = ALL_FORMATS.map(
    (format) =>
      `${format.id.padEnd(width)}  ${format.name}${format.unit === "session" ? " (a whole file)" : ""}\n${" ".repeat(width + 2)}${format.expected}`,
  );
  stdout.write(`${lines.join("\n")}\n`);
  return 0;
}
