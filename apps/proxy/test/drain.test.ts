import { type ChildProcess, spawn } from "node:child_process";
import { connect } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeUpstream, startUpstream } from "./upstream.js";

const BIN = join(import.meta.dirname, "../dist/cli.js");
const WORDS = Array.from({ length: 12 }, (_, i) => `w${i} `);
const frame = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`;

let upstream: FakeUpstream;

beforeAll(async () => {
  // A slow stream: one word every 80 ms, about a second in all.
  upstream = await startUpstream(async (_request, response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    for (const word of WORDS) {
      response.write(frame({ content: word }));
      await new Promise((resolve) => setTimeout(resolve, 80));
    }
    response.end(`${frame({}, "stop")}data: [DONE]\n\n`);
  });
});
afterAll(async () => {
  await upstream.close();
});

/** Starts the built bin; resolves with its port once it logs that it listens, and every log line it writes. */
async function startBin(): Promise<{
  child: ChildProcess;
  port: number;
  lines: Array<Record<string, unknown>>;
}> {
  const child = spawn(
    process.execPath,
    [BIN, "--upstream", upstream.url, "--port", "0", "--drain-timeout", "10s"],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const lines: Array<Record<string, unknown>> = [];
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("the bin did not start")), 10_000);
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
      const entry = JSON.parse(line) as Record<string, unknown>;
      lines.push(entry);
      if (entry.msg === "listening") {
        clearTimeout(timer);
        resolve(entry.port as number);
      }
    });
    child.once("exit", (code) => reject(new Error(`the bin exited with ${code}`)));
  });
  return { child, port, lines };
}

function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve("connected");
    });
    socket.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
  });
}

describe("SIGTERM", () => {
  it("lets a stream in flight finish, refuses new connections, then exits 0", async () => {
    const { child, port, lines } = await startBin();
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const response = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer k" },
      body: JSON.stringify({ model: "m", messages: [], stream: true }),
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = "";
    // The stream has begun: the first word has arrived.
    while (!text.includes("w0 ")) {
      const { value } = await reader.read();
      text += decoder.decode(value, { stream: true });
    }

    child.kill("SIGTERM");
    const deadline = Date.now() + 5_000;
    while (!lines.some((l) => l.msg === "draining") && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await tryConnect(port)).toBe("ECONNREFUSED");

    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    for (const word of WORDS) expect(text).toContain(JSON.stringify(word));
    expect(text.endsWith("data: [DONE]\n\n")).toBe(true);

    expect(await exited).toBe(0);
    expect(lines.map((l) => l.msg)).toEqual(["listening", "draining", "request", "stopped"]);
    expect(lines.find((l) => l.msg === "request")).toMatchObject({ status: 200, stream: true });
  });

  it("exits 0 at once when nothing is in flight", async () => {
    const { child } = await startBin();
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
