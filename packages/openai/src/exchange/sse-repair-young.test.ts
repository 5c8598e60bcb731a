import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { createSseRepair } from "./repair-sse-stream.js";
import { RepairSummary } from "./repair-summary.js";

// A proxy holds one stream's repair per open stream and drops it at the end. What a stream makes must die young:
// an object V8 makes outside the young generation (an object literal with a getter, an object spread followed by a
// field, on Node 20) keeps everything it reaches alive through every young collection until a full one, and under
// many streams that was most of the proxy's garbage-collection time. Each test makes many, drops them, runs two
// young-generation collections (what survives two is moved to the old generation) and counts the old space's growth
// per object made: a few bytes now (the compiler's own data); 3–5 KB a stream and 270 bytes a summary before.
setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as (options?: { type: "minor" | "major" }) => void;

const utf8 = (text: string) => new TextEncoder().encode(text);

const oldBytes = (): number =>
  getHeapSpaceStatistics()
    .filter((space) => space.space_name === "old_space")
    .reduce((sum, space) => sum + space.space_used_size, 0);

/** Bytes the old generation grew by per `make()` once what it made was dropped and the young generation collected. */
function oldGrowthPer(make: () => unknown): number {
  const count = 2000;
  for (let i = 0; i < count; i++) make();
  gc({ type: "major" });
  const before = oldBytes();
  for (let i = 0; i < count; i++) make();
  gc({ type: "minor" });
  gc({ type: "minor" });
  return (oldBytes() - before) / count;
}

describe("a stream's repair dies young", () => {
  it("the repair createSseRepair hands back", () => {
    expect(oldGrowthPer(() => createSseRepair({ api: "chat.completions", checkEvents: true }))).toBeLessThan(
      256,
    );
  });

  it("a repair that read events, and its summary's options", () => {
    expect(
      oldGrowthPer(() => {
        const summary = new RepairSummary({});
        const repair = createSseRepair({ api: "chat.completions", summary, checkEvents: true });
        repair.push(utf8('data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}\n\n'));
        return summary.options;
      }),
    ).toBeLessThan(256);
  });

  it("a summary given the request's tools", () => {
    expect(
      oldGrowthPer(() => {
        const summary = new RepairSummary({});
        summary.useTools([]);
        return summary.options;
      }),
    ).toBeLessThan(64);
  });
});
