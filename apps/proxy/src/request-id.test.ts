import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { requestIdOf } from "./request-id.js";

describe("request ids", () => {
  it("keeps a client's plain id and replaces anything else with a new random one", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.stringMatching(/^[A-Za-z0-9._:-]{1,128}$/)), (header) => {
        const id = requestIdOf(header);
        if (/^[A-Za-z0-9._:-]{1,128}$/.test(header)) expect(id).toBe(header);
        else expect(id).toMatch(/^[0-9a-f]{24}$/);
      }),
    );
    expect(requestIdOf(["a", "b"])).toMatch(/^[0-9a-f]{24}$/);
    expect(requestIdOf(undefined)).toMatch(/^[0-9a-f]{24}$/);
  });

  it("never repeats an id across many refills of its random pool", () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20_000; i++) ids.add(requestIdOf(undefined));
    expect(ids.size).toBe(20_000);
  });
});
