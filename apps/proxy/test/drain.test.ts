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
/** Lets the upstream send the rest of its stream: the test opens it once it has seen the drain begin. */
let openGate: () => void = () => {};

beforeAll(async () => {
  // A stream in flight for as long as the test needs: the first word, then the rest once the gate opens (so the
  // stream cannot end before the signal arrives, however slow the machine).
  upstream = await startUpstream(async (_request, response) => {
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    response.writeHead(200, { "content-type": "text/event-stream" });
    response.write(frame({ content: WORDS[0] }));
    await gate;
    for (const word of WORDS.slice(1)) response.write(frame({ content: word }));
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
  /** Resolves once the bin has logged a line with this message. */
  logged: (msg: string) => Promise<void>;
}> {
  const child = spawn(
    process.execPath,
    [BIN, "--upstream", upstream.url, "--port", "0", "--drain-timeout", "10s"],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const lines: Array<Record<string, unknown>> = [];
  const waiting: Array<{ msg: string; resolve: () => void }> = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    const entry = JSON.parse(line) as Record<string, unknown>;
    lines.push(entry);
    for (const waiter of waiting.filter((w) => w.msg === entry.msg)) waiter.resolve();
  });
  // Waits on the bin's own lines, with no clock: a bin that never logs fails the test at its timeout.
  const logged = (msg: string) =>
    lines.some((l) => l.msg === msg)
      ? Promise.resolve()
      : new Promise<void>((resolve) => waiting.push({ msg, resolve }));
  await Promise.race([
    logged("listening"),
    new Promise((_, reject) =>
      child.once("exit", (code) => reject(new Error(`the bin exited with ${code}`))),
    ),
  ]);
  const port = lines.find((l) => l.msg === "listening")?.port as number;
  return { child, port, lines, logged };
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
    const { child, port, lines, logged } = await startBin();
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
    await logged("draining");
    expect(await tryConnect(port)).toBe("ECONNREFUSED");
    openGate();

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
