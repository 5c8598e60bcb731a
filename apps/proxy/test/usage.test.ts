import { spawn, spawnSync } from "node:child_process";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, it } from "vitest";
import { startUpstream } from "./upstream.js";

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

describe("--max-response-body from the command line", () => {
  it("a whole answer larger than the flag's size is a readable 502, as the docs say", async () => {
    const upstream = await startUpstream((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ id: "x", object: "chat.completion", padding: "p".repeat(4096), choices: [] }),
      );
    });
    const child = spawn(
      process.execPath,
      [BIN, "--upstream", upstream.url, "--port", "0", "--max-response-body", "1kb", "--log-level", "info"],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    try {
      const port = await new Promise<number>((resolve, reject) => {
        createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
          const entry = JSON.parse(line) as { msg?: string; port?: number };
          if (entry.msg === "listening") resolve(entry.port as number);
        });
        child.once("exit", (code) => reject(new Error(`the bin exited with ${code}`)));
      });
      const response = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "x" }] }),
      });
      expect(response.status).toBe(502);
      const error = ((await response.json()) as { error: { code: string; message: string } }).error;
      expect(error.code).toBe("upstream_response_too_large");
      expect(error.message).toContain("larger than 1024 bytes");
    } finally {
      child.kill("SIGKILL");
      await upstream.close();
    }
  });
});
