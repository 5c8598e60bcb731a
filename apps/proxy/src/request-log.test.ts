import fc from "fast-check";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { createLogger, LOG_BATCH_MS, type RequestLogEntry } from "./request-log.js";

function collect(batch: boolean) {
  const writes: string[] = [];
  const logger = batch
    ? createLogger({
        sink: { write: (bytes: Uint8Array) => writes.push(new TextDecoder().decode(bytes)) },
        level: "info",
        batch: true,
      })
    : createLogger({ sink: { write: (text: string) => writes.push(text) }, level: "info" });
  return { writes, logger };
}

const base: RequestLogEntry = {
  requestId: "r1",
  method: "POST",
  path: "/v1/chat/completions",
  route: "chat.completions",
  status: 200,
  durationMs: 1.25,
};

describe("createLogger", () => {
  it("writes one JSON line per request, fields without a value left out", () => {
    const { writes, logger } = collect(false);
    logger.request(base);
    logger.request({
      ...base,
      status: 502,
      upstreamMs: 0.5,
      stream: true,
      repairs: new Map([["python-literal", 2]]),
      history: new Map([["result_synthesized", 1]]),
      error: { code: "upstream_reset", message: 'cut "mid" stream' },
      clientClosed: true,
      upstreamRequestId: "up-1",
    });
    expect(writes).toHaveLength(2);
    const [first, second] = writes.map((line) => JSON.parse(line));
    expect(first).toEqual({ time: expect.any(String), level: "info", msg: "request", ...base });
    expect(second).toMatchObject({
      level: "error",
      upstreamMs: 0.5,
      stream: true,
      repairs: { "python-literal": 2 },
      history: { result_synthesized: 1 },
      error: { code: "upstream_reset", message: 'cut "mid" stream' },
      clientClosed: true,
      upstreamRequestId: "up-1",
    });
    expect(new Date(first.time).toISOString()).toBe(first.time);
  });

  it("writes the repair and history counts as JSON.stringify writes them, whatever their names", () => {
    const names = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.constantFrom("content-calls:gemma4", '"', "__proto__"),
    );
    const countsOf = fc.uniqueArray(fc.tuple(names, fc.nat()), { selector: ([name]) => name, maxLength: 4 });
    fc.assert(
      fc.property(countsOf, countsOf, (repairs, history) => {
        const { writes, logger } = collect(false);
        logger.request({ ...base, repairs: new Map(repairs), history: new Map(history) });
        const line = writes[0] as string;
        expect(line).toContain(`"history":${JSON.stringify(Object.fromEntries(history))}`);
        expect(line).toContain(`"repairs":${JSON.stringify(Object.fromEntries(repairs))}`);
        expect(line.endsWith("}\n")).toBe(true);
      }),
    );
  });

  it("keeps any path, method, id or route on one line of valid JSON", () => {
    const anyText = fc.oneof(fc.string({ unit: "binary" }), fc.string(), fc.constantFrom('"', "\\", "a b"));
    fc.assert(
      fc.property(anyText, anyText, anyText, anyText, (path, method, requestId, route) => {
        const { writes, logger } = collect(false);
        logger.request({ ...base, path, method, requestId, route });
        const line = writes[0] as string;
        expect(line.endsWith("\n")).toBe(true);
        expect(line.slice(0, -1)).not.toContain("\n");
        expect(JSON.parse(line)).toMatchObject({ path, method, requestId, route });
      }),
    );
  });

  it("writes each line's time as ISO 8601 to the millisecond, across seconds, days and years", () => {
    // The system time is set by the test: the time written is compared with the one set, never with a clock.
    vi.useFakeTimers({ toFake: ["Date"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const { writes, logger } = collect(false);
    const times = [
      Date.UTC(2026, 10, 28, 15, 13, 50, 0),
      Date.UTC(2026, 10, 28, 15, 13, 50, 7),
      Date.UTC(2026, 10, 28, 15, 13, 50, 999),
      Date.UTC(2026, 10, 28, 15, 13, 51, 42),
      Date.UTC(2026, 11, 31, 23, 59, 59, 999),
      Date.UTC(2027, 0, 1, 0, 0, 0, 1),
      Date.UTC(2026, 10, 28, 15, 13, 50, 500),
    ];
    for (const time of times) {
      vi.setSystemTime(time);
      logger.request(base);
    }
    expect(writes.map((line) => JSON.parse(line).time)).toEqual(times.map((t) => new Date(t).toISOString()));
  });

  it("makes the time text once per second, however many milliseconds its lines fall in", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const made = vi.spyOn(Date.prototype, "toISOString");
    onTestFinished(() => {
      made.mockRestore();
      vi.useRealTimers();
    });
    const { writes, logger } = collect(false);
    const start = Date.UTC(2026, 10, 28, 15, 13, 50, 0);
    // 3 000 lines, one per millisecond, over three seconds.
    for (let ms = 0; ms < 3000; ms++) {
      vi.setSystemTime(start + ms);
      logger.request(base);
    }
    expect(writes).toHaveLength(3000);
    expect(made).toHaveBeenCalledTimes(3);
  });

  it("with batch, holds lines until a short timer or flush(), then writes them at once", () => {
    // Fake timers: the batch timer fires when the test moves the clock, not when a loaded machine gets to it.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    onTestFinished(() => {
      vi.useRealTimers();
    });
    const { writes, logger } = collect(true);
    logger.request(base);
    logger.event("info", "listening", { port: 1 });
    expect(writes).toHaveLength(0);
    vi.advanceTimersByTime(LOG_BATCH_MS - 1);
    expect(writes).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(writes).toHaveLength(1);
    expect((writes[0] as string).split("\n")).toHaveLength(3);
    logger.request(base);
    logger.flush();
    expect(writes).toHaveLength(2);
    logger.flush();
    expect(writes).toHaveLength(2);
  });

  it("with batch, writes at once when the held lines grow large, and loses no line or byte", () => {
    const { writes, logger } = collect(true);
    const paths: string[] = [];
    for (let i = 0; i < 1000 && writes.length === 0; i++) {
      paths.push(`/${i}/${"é😀".repeat(i % 50)}`);
      logger.request({ ...base, path: paths.at(-1) as string });
    }
    expect(writes).toHaveLength(1);
    // A line too long for the buffer goes out on its own, after what was held.
    paths.push(`/${"x".repeat(100_000)}`);
    logger.request({ ...base, path: paths.at(-1) as string });
    logger.flush();
    const lines = writes.join("").split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.map((line) => JSON.parse(line).path)).toEqual(paths);
  });

  it("writes nothing at silent, only failures at error, and survives a broken sink", () => {
    const silent = createLogger({ sink: { write: () => expect.unreachable() }, level: "silent" });
    silent.request(base);
    const writes: string[] = [];
    const errors = createLogger({ sink: { write: (text: string) => writes.push(text) }, level: "error" });
    errors.request(base);
    errors.request({ ...base, status: 503 });
    expect(writes).toHaveLength(1);
    const broken = createLogger({
      sink: {
        write: () => {
          throw new Error("disk full");
        },
      },
      level: "info",
    });
    expect(() => broken.request(base)).not.toThrow();
  });
});
