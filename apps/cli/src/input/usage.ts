import { type ParseArgsConfig, parseArgs } from "node:util";

/** A mistake in the command line: printed as it is (with where to find help), exit code 2. */
export class UsageError extends Error {}

/** Stops the command with a usage error naming the command and what was wrong. */
export function usage(command: string, message: string): never {
  throw new UsageError(`toolcall ${command}: ${message}\nSee: toolcall ${command} --help`);
}

/** The command's arguments read strictly against its options; an unknown option is a usage error. */
export function parse<T extends NonNullable<ParseArgsConfig["options"]>>(
  command: string,
  args: string[],
  options: T,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>> {
  try {
    return parseArgs({ args, options, allowPositionals: true as const, strict: true as const });
  } catch (error) {
    return usage(command, parseErrorMessage(error));
  }
}

/**
 * A command-line parse error in the words of this tool: Node's message for an unknown option ends in an unbalanced
 * quote (`as in '-- "--bogus"`), so it is said again plainly, with the `--` way to name a file that starts with `-`.
 */
function parseErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if ((error as { code?: unknown })?.code !== "ERR_PARSE_ARGS_UNKNOWN_OPTION") return message;
  const option = /^Unknown option '([^']*)'/.exec(message)?.[1];
  if (option === undefined) return message;
  return `unknown option ${option} (a FILE whose name starts with - goes after --, as in: -- ${option})`;
}
