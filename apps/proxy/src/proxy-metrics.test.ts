import fc from "fast-check";
import { Counter, Histogram, Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { createProxyMetrics, TalliedCounter, TalliedHistogram } from "./proxy-metrics.js";

const BUCKETS = [0.001, 0.01, 0.1, 1, 10];
const routes = fc.constantFrom("chat.completions", "responses", "passthrough");
const stages = fc.constantFrom("sanitize", "repair", 'odd "stage"\\\n');
const values = fc.oneof(
  fc.double({ min: 0, max: 100, noNaN: true }),
  fc.constantFrom(...BUCKETS),
  fc.constant(1e9),
);

describe("TalliedHistogram", () => {
  it("writes out what prom-client's Histogram writes for the same observations", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(routes, stages, values), { maxLength: 60 }),
        async (observations) => {
          // A tallied metric and prom-client's own, each in a registry of its own, fed the same calls.
          const ours = new Registry();
          const theirs = new Registry();
          const config = {
            name: "t_seconds",
            help: "help",
            labelNames: ["route", "stage"] as const,
            buckets: BUCKETS,
          };
          const tallied = new TalliedHistogram({ ...config, registers: [ours] });
          const reference = new Histogram({
            ...config,
            labelNames: [...config.labelNames],
            registers: [theirs],
          });
          for (const [route, stage, value] of observations) {
            tallied.observe({ route, stage }, value);
            reference.observe({ route, stage }, value);
          }
          expect(await ours.metrics()).toBe(await theirs.metrics());
        },
      ),
    );
  });

  it("starts over on reset, as prom-client's does", async () => {
    const registry = new Registry();
    const tallied = new TalliedHistogram({
      name: "t",
      help: "h",
      labelNames: ["route"],
      buckets: BUCKETS,
      registers: [registry],
    });
    tallied.observe({ route: "a" }, 0.5);
    registry.resetMetrics();
    expect(await registry.metrics()).toBe("# HELP t h\n# TYPE t histogram\n");
  });
});

describe("TalliedCounter", () => {
  it("writes out what prom-client's Counter writes for the same increments, scraped at any points", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(fc.tuple(routes, fc.constantFrom(200, "200", 499, 502)), fc.constant("scrape" as const)),
          {
            maxLength: 60,
          },
        ),
        async (steps) => {
          // A tallied metric and prom-client's own, each in a registry of its own, fed the same calls.
          const ours = new Registry();
          const theirs = new Registry();
          const config = { name: "t_total", help: "help", labelNames: ["route", "status"] as const };
          const tallied = new TalliedCounter({ ...config, registers: [ours] });
          const reference = new Counter({
            ...config,
            labelNames: [...config.labelNames],
            registers: [theirs],
          });
          for (const step of steps) {
            if (step === "scrape") expect(await ours.metrics()).toBe(await theirs.metrics());
            else {
              tallied.inc({ route: step[0], status: step[1] });
              reference.inc({ route: step[0], status: step[1] });
            }
          }
          expect(await ours.metrics()).toBe(await theirs.metrics());
        },
      ),
    );
  });
});

describe("createProxyMetrics", () => {
  it("serves requests in flight by route as a gauge read when scraped", async () => {
    const metrics = createProxyMetrics({ processMetrics: false });
    metrics.inFlight.set("chat.completions", 3);
    metrics.inFlight.set("responses", 0);
    const text = await metrics.registry.metrics();
    expect(text).toContain('toolcall_proxy_requests_in_flight{route="chat.completions"} 3');
    expect(text).toContain('toolcall_proxy_requests_in_flight{route="responses"} 0');
  });
});
