import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, extname, isAbsolute, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { RepairRule } from "@toolcall/core/kit";
import { isPlainObject } from "@toolcall/core/kit";
import { createPainter } from "../report/colors.js";
import { plural } from "../report/human-counts.js";
import { runCheck } from "./check.js";
import { runRepair } from "./repair.js";

/**
 * The bundled poisoned session, shipped with the command line.
 *
 * @example
 * bundledSessionPath(); // ".../apps/cli/examples/poisoned-session.json"
 */
export function bundledSessionPath(): string {
  return fileURLToPath(new URL("../examples/poisoned-session.json", import.meta.url));
}

/**
 * Where the default run writes a repaired copy and its journal: a new directory of its own in the OS temp directory
 * (`$TMPDIR/toolcall-XXXXXX/`), never next to the input, never a path another run shares.
 *
 * @example
 * await repairedPathsFor("sessions/a.json"); // { output: "/tmp/toolcall-Ab12Cd/a.repaired.json", journal: "/tmp/toolcall-Ab12Cd/a.journal.jsonl" }
 */
export async function repairedPathsFor(file: string): Promise<{ output: string; journal: string }> {
  const directory = await mkdtemp(join(tmpdir(), "toolcall-"));
  const name = basename(file === "-" ? "stdin.jsonl" : file);
  const gz = name.endsWith(".gz") ? ".gz" : "";
  const stem = gz ? name.slice(0, -3) : name;
  const extension = extname(stem);
  return {
    output: join(directory, `${basename(stem, extension)}.repaired${extension || ".json"}${gz}`),
    journal: join(directory, `${basename(stem, extension)}.journal.jsonl`),
  };
}

function displayPath(path: string): string {
  const near = relative(process.cwd(), path);
  return near !== "" && !near.startsWith("..") && !isAbsolute(near) ? near : path;
}

function short(text: string, width = 90): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > width ? `${flat.slice(0, width - 1)}…` : flat;
}

/** One message per line: role, then content or calls, so the repaired session reads at a glance. */
function describeMessage(message: unknown): string {
  if (!isPlainObject(message)) return JSON.stringify(message);
  const role = String(message.role ?? "?");
  if (Array.isArray(message.tool_calls)) {
    const calls = message.tool_calls.map((call) => {
      if (!isPlainObject(call) || !isPlainObject(call.function)) return JSON.stringify(call);
      return `${String(call.function.name)}(${String(call.function.arguments)}) [${String(call.id)}]`;
    });
    return `${role}: ${calls.join(", ")}`;
  }
  if (role === "tool") return `${role} [${String(message.tool_call_id)}]: ${short(String(message.content))}`;
  return `${role}: ${short(typeof message.content === "string" ? message.content : JSON.stringify(message.content))}`;
}

/**
 * `toolcall` with no arguments (or with one session file): check the session, repair it into the OS temp directory,
 * check the repaired copy, and show it. With no file, the bundled poisoned session is used: the README's first
 * command. Exit 0 when the repaired copy has no errors.
 *
 * @example
 * await runDefault({ repairs, repairNames: ["core", "gemma-quote-markers"] });
 */
export async function runDefault(options: {
  file?: string;
  repairs: readonly RepairRule[];
  repairNames: readonly string[];
  maxLineBytes: number;
}): Promise<number> {
  const shown = displayPath(options.file ?? bundledSessionPath());
  const file = shown;
  const { output, journal } = await repairedPathsFor(file);
  const paint = createPainter({ stream: process.stdout });
  const say = (text: string) => process.stdout.write(`${text}\n`);

  say(paint("bold", `1. toolcall check ${shown}`));
  say(paint("dim", "   every rule this session breaks, and the provider profiles that reject each\n"));
  const before = await runCheck({
    files: [file],
    json: false,
    quiet: false,
    repairs: options.repairs,
    maxLineBytes: options.maxLineBytes,
  });
  if (before.exitCode === 2) return 2;

  say("");
  say(
    paint(
      "bold",
      `2. toolcall repair ${shown} -o ${output} --journal ${journal} --repair ${options.repairNames.join(",")}`,
    ),
  );
  say(
    paint(
      "dim",
      "   policy preserve (malformed arguments kept under _raw_arguments), missing results synthesized\n",
    ),
  );
  const repaired = await runRepair({
    files: [file],
    output,
    inPlace: false,
    backupSuffix: ".bak",
    policy: "preserve",
    missingResult: "synthesize",
    pending: "keep",
    repairs: options.repairs,
    journal,
    json: false,
    quiet: false,
    maxLineBytes: options.maxLineBytes,
  });
  if (repaired.exitCode === 2) return 2;

  say("");
  say(paint("bold", `3. toolcall check ${output}`));
  const after = await runCheck({
    files: [output],
    json: false,
    quiet: true,
    repairs: options.repairs,
    maxLineBytes: options.maxLineBytes,
  });
  const { warning } = after.summary.issues;
  // Unreadable lines were passed through as they were: they are reported, not counted against the repair.
  const unreadable = after.summary.unreadableLines;
  const error = after.summary.issues.error - unreadable;
  say(
    error === 0
      ? paint(
          "green",
          `   ${plural(error, "error")}, ${plural(warning, "warning")}: no rule of core's is broken (check --provider ID adds a provider's own)`,
        )
      : paint(
          "red",
          `   ${plural(error, "error")}, ${plural(warning, "warning")}: still broken (see the repair's report)`,
        ),
  );
  if (unreadable > 0) {
    say(
      paint(
        "yellow",
        `   ${plural(unreadable, "unreadable line")} passed through unchanged (see the check above)`,
      ),
    );
  }
  if (repaired.files[0]?.framing === "json" && repaired.files[0]?.formats[0] === "openai-chat") {
    say("");
    say(paint("bold", "4. The repaired session, one message per line"));
    const value = JSON.parse(await readFile(output, "utf8")) as unknown;
    const messages = Array.isArray(value)
      ? value
      : isPlainObject(value) && Array.isArray(value.messages)
        ? value.messages
        : [];
    messages.forEach((message, index) => {
      say(`  ${String(index).padStart(2)}  ${describeMessage(message)}`);
    });
  }
  say("");
  say(
    `Written to ${output}; its journal is ${journal}, and toolcall undo ${output} --journal ${journal} -o FILE`,
  );
  say(
    "gives the input back byte for byte. Check your own files with: toolcall check FILE… (toolcall --help)",
  );
  return error === 0 && unreadable === 0 ? 0 : 1;
}
