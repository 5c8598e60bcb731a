// How the server/client stack was chosen: a bare pass-through proxy on each candidate stack, in front of the same
// fake upstream, under the same load (autocannon, 50 connections), rounds interleaved; requests per second and the
// proxy process's CPU time per request. `node bench/compare-stacks.mjs`
import { join } from "node:path";
import { chatBody, cpuMs, median, startProcess, throughput } from "./load.mjs";

const here = import.meta.dirname;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const DURATION = Number(process.env.BENCH_DURATION ?? 3);
const STACKS = {
  "node:http + node:http client": "http",
  "node:http + undici request()": "undici",
  "node:http + undici stream()": "undici-stream",
  "node:http + undici dispatch() (handler API)": "undici-dispatch",
};

const upstream = await startProcess(join(here, "fake-upstream.mjs"));
const proxies = {};
try {
  for (const [name, mode] of Object.entries(STACKS))
    proxies[name] = await startProcess(join(here, "bare-proxy.mjs"), [String(upstream.port), mode]);
  const results = {};
  for (const stream of [false, true]) {
    const body = chatBody({ model: "clean", stream });
    for (const proxy of Object.values(proxies)) await throughput({ port: proxy.port, body, duration: 1 });
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, proxy] of Object.entries(proxies)) {
        const before = cpuMs(proxy.pid);
        const result = await throughput({ port: proxy.port, body, duration: DURATION });
        const key = `${name} | ${stream ? "stream" : "json"}`;
        results[key] ??= { rps: [], cpuUs: [], errors: 0 };
        results[key].rps.push(result.rps);
        results[key].cpuUs.push(((cpuMs(proxy.pid) - before) * 1000) / result.total);
        results[key].errors += result.errors;
      }
    }
  }
  for (const [key, r] of Object.entries(results))
    console.log(
      `${key.padEnd(60)} ${String(Math.round(median(r.rps))).padStart(6)} req/s  ${String(Math.round(median(r.cpuUs))).padStart(5)} µs CPU/req  errors ${r.errors}`,
    );
} finally {
  for (const proxy of Object.values(proxies)) proxy.stop();
  upstream.stop();
}
