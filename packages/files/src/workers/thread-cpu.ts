import { readFileSync } from "node:fs";

/** Clock ticks per second of `/proc` CPU times (`getconf CLK_TCK`: 100 on every Linux Node supports). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) the calling thread has used, read from Linux's `/proc/thread-self/stat`
 * (`process.cpuUsage()` counts every thread of the process); `undefined` where that file does not exist. The work
 * report shows how a run's CPU splits between the main thread and each worker: what scaling on idle cores hangs on.
 *
 * @example
 * const seconds = threadCpuSeconds(); // 0.42, or undefined off Linux
 */
export function threadCpuSeconds(): number | undefined {
  let stat: string;
  try {
    stat = readFileSync("/proc/thread-self/stat", "latin1");
  } catch {
    return undefined;
  }
  // The thread's name (in parentheses) may hold spaces: the fields are counted after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  if (!Number.isFinite(user) || !Number.isFinite(system)) return undefined;
  return (user + system) / TICKS_PER_SECOND;
}
