import { describe, expect, it } from "vitest";
import { skipList } from "./skip-list.js";

describe("skipList", () => {
  it("matches ids exactly and prefixes that end in *", () => {
    const skip = skipList(["r1-lossless-*", "r4-sanitize-empty-only-call", "r6-*"]);
    expect(skip.match("r1-lossless-python-float-written-1-0")).toBe("r1-lossless-*");
    expect(skip.match("r4-sanitize-empty-only-call")).toBe("r4-sanitize-empty-only-call");
    expect(skip.match("r4-sanitize-empty-only-call-2")).toBeUndefined();
    expect(skip.match("r6-repairs-json-fence")).toBe("r6-*");
    expect(skip.match("r1-statuses-null-is-absent")).toBeUndefined();
    expect(skip.match("R1-LOSSLESS-x")).toBeUndefined();
  });

  it("reports entries that name no id", () => {
    const skip = skipList(["r1-lossless-*", "r1-statuses-null-is-absent", "r9-nothing", "r7-*"]);
    expect(skip.unmatched(["r1-lossless-a", "r1-statuses-null-is-absent"])).toEqual(["r9-nothing", "r7-*"]);
    expect(skipList().unmatched(["a"])).toEqual([]);
  });
});
