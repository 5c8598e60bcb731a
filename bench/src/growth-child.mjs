// Section 10 in its own process, started by main.mjs with V8's --single-threaded: the growth exponent is judged on CPU
// time, and with V8's background threads (concurrent compilation, parallel and concurrent garbage collection) folded
// into the main thread, this process's CPU time is the measured code's own work, its collections included. Prints
// the results as JSON on stdout; progress goes to stderr.
import { measureGrowth } from "./growth.mjs";

const rounds = Number(process.argv[2] ?? 7);
const progress = (message) => process.stderr.write(`[bench] ${message}\n`);
process.stdout.write(JSON.stringify(measureGrowth({ rounds, progress })));
