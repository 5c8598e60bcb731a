/**
 * `toolcall render` and `toolcall probe` need the chat-template renderer (RULES.md R8), which this release does not
 * have yet. The commands exist so scripts and help can name them; they say so and exit 2, never a made-up prompt.
 *
 * @example
 * runNotYet({ command: "render" }); // prints why, returns 2
 */
export function runNotYet(options: { command: "render" | "probe"; stderr?: NodeJS.WritableStream }): number {
  const stderr = options.stderr ?? process.stderr;
  const what =
    options.command === "render"
      ? "rendering a chat template (the exact prompt transformers' apply_chat_template gives)"
      : "probing a chat template's capabilities";
  stderr.write(
    `toolcall ${options.command}: not available yet. ${what[0]?.toUpperCase()}${what.slice(1)} needs the template renderer, which this release does not include. Nothing was rendered.\n`,
  );
  return 2;
}
