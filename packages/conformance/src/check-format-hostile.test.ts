import { describe, expect, it } from "vitest";
import { checkFormatHostile, type HostileEngine, type HostileFormat } from "./check-format-hostile.js";
import { expectFormatHostile } from "./expect-format-hostile.js";

// A small format written for these tests, `{ turns: [...] }`, and an engine whose repair writes what it is told: the
// check must report a throw and a repair that no longer reads, and pass a format that answers everything.
const turns: HostileFormat = {
  id: "turns",
  matches: (value) => typeof value === "object" && value !== null && "turns" in value,
  read: (value) =>
    Array.isArray((value as { turns: unknown }).turns)
      ? { issues: [] }
      : { issues: [{ code: "record_not_conversation" }] },
};
const engine = (repaired: unknown): HostileEngine => ({
  check: (format, value) => format.read(value),
  repair: () => ({ value: repaired }),
});

describe("checkFormatHostile", () => {
  it("passes a format that answers every value; skips what it does not claim", () => {
    const values = [
      "junk",
      1,
      null,
      { turns: [] },
      { turns: "no" },
      JSON.parse('{"__proto__": {"turns": 1}}'),
    ];
    expect(checkFormatHostile([turns], values, engine(undefined))).toEqual({ ok: true, issues: [] });
    expectFormatHostile([turns], { turns: [1] }, engine({ turns: [] }));
  });

  it("reports a throw (a getter) and a repaired record that no longer reads", () => {
    const trap = {};
    Object.defineProperty(trap, "turns", {
      enumerable: true,
      get() {
        throw new Error("trap");
      },
    });
    const result = checkFormatHostile([turns], [{ turns: [] }, "junk", trap], engine({ turns: "gone" }));
    expect(result.ok).toBe(false);
    expect(result.issues.map((issue) => [issue.code, issue.sample, issue.format])).toEqual([
      ["repaired_not_read", 0, "turns"],
      ["threw", 2, "turns"],
    ]);
    expect(result.issues[1]?.message).toBe("turns: threw: trap");
    expect(() => expectFormatHostile([turns], trap, engine(undefined))).toThrow(/threw: trap/);
  });
});
