#!/usr/bin/env node
// Keeps every core busy, as another heavy job on the same machine would: one worker thread per core (or the number
// given by --workers), each spinning on arithmetic and a little allocation, until --seconds have passed (default:
// until stopped with Ctrl-C or SIGTERM). Used to check that `pnpm test` passes on a loaded machine:
//   node scripts/cpu-load.mjs --seconds 1200 & npx -y pnpm@10.34.9 test
import { availableParallelism } from "node:os";
import { parseArgs } from "node:util";
import { isMainThread, Worker } from "node:worker_threads";

if (isMainThread) {
  const { values } = parseArgs({ options: { workers: { type: "string" }, seconds: { type: "string" } } });
  const count = Number(values.workers ?? availableParallelism());
  const workers = Array.from({ length: count }, () => new Worker(new URL(import.meta.url)));
  const stop = () => {
    for (const worker of workers) worker.terminate();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  if (values.seconds) setTimeout(stop, Number(values.seconds) * 1000).unref();
  console.log(`cpu-load: ${count} busy workers (pid ${process.pid})`);
} else {
  let sink = 0;
  for (;;) {
    const block = [];
    for (let i = 0; i < 100_000; i++) {
      sink = (sink * 31 + i) % 1_000_003;
      if (i % 1000 === 0) block.push({ sink });
    }
  }
}
