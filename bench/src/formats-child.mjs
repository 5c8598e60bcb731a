// Section 6 for one syntax in its own process, started by main.mjs: a server runs one family, so the engine's type
// feedback is that family's alone. Prints the rows and notes as JSON on stdout; progress goes to stderr.
import { measurePlainFormat } from "./formats.mjs";

const [id, rounds, timeMs, warmupMs] = process.argv.slice(2);
const progress = (message) => process.stderr.write(`[bench] ${message}\n`);
process.stdout.write(
  JSON.stringify(
    measurePlainFormat({
      id,
      rounds: Number(rounds),
      timeMs: Number(timeMs),
      warmupMs: Number(warmupMs),
      progress,
    }),
  ),
);
