import { describe, expect, it } from "vitest";
import { formatBytes } from "./progress.js";

describe("formatBytes", () => {
  it("SI units with one decimal below 100; powers of 1024 with whole numbers kept whole", () => {
    expect([512, 1_500, 812_000, 1_500_000_000].map((n) => formatBytes(n))).toEqual([
      "512 B",
      "1.5 kB",
      "812 kB",
      "1.5 GB",
    ]);
    expect(
      [512, 16 * 1024 ** 2, 1024 ** 3, 1.5 * 1024 ** 3, 17 * 1024 ** 2 + 1].map((n) =>
        formatBytes(n, { binary: true }),
      ),
    ).toEqual(["512 B", "16 MiB", "1 GiB", "1.5 GiB", "17.0 MiB"]);
  });
});
