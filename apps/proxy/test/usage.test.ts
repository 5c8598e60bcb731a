import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const BIN = join(import.meta.dirname, "../dist/cli.js");

describe("the command line's mistakes", () => {
  it("a usage error is the mistake and where to read more, not the whole help", () => {
    const result = spawnSync(process.execPath, [BIN, "--upstream", "http://127.0.0.1:1", "--port", "70000"], {
      encoding: "utf8",
      env: { PATH: process.env.PATH ?? "" },
    });
    expect(result.status).toBe(2);
    expect(result.stderr.trimEnd().split("\n")).toEqual([
      'toolcall-proxy: --port must be a port number (got "70000")',
      "See: toolcall-proxy --help",
    ]);
    expect(result.stdout).toBe("");
  });

  it("--help still prints the whole help", () => {
    const result = spawnSync(process.execPath, [BIN, "--help"], { encoding: "utf8" });
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Usage: toolcall-proxy --upstream URL [options]");
  });
});
