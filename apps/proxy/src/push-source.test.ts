import { describe, expect, it } from "vitest";
import { PushSource } from "./push-source.js";

describe("PushSource", () => {
  it("hands values over in order, to a waiting pull at once, then ends", async () => {
    const source = new PushSource<number>();
    const first = source.next();
    source.push(1);
    source.push(2);
    source.push(3);
    source.end();
    source.push(4);
    expect(await first).toEqual({ done: false, value: 1 });
    const rest: number[] = [];
    for await (const value of source) rest.push(value);
    expect(rest).toEqual([2, 3]);
  });

  it("raises a failure after what was queued", async () => {
    const source = new PushSource<number>();
    source.push(1);
    source.fail(new Error("cut"));
    expect(await source.next()).toEqual({ done: false, value: 1 });
    await expect(source.next()).rejects.toThrow("cut");
  });

  it("tells its producer when the consumer stops early", async () => {
    let stopped = 0;
    const source = new PushSource<number>({ onReturn: () => stopped++ });
    source.push(1);
    source.push(2);
    for await (const _ of source) break;
    expect(stopped).toBe(1);
    expect(source.size).toBe(0);
  });
});
