#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { createProxy } from "./create-proxy.js";
import { resolveAutoContentCalls } from "./detect-content-calls.js";
import { parseProxyArgs, USAGE } from "./parse-proxy-args.js";

// Repairing malformed arguments means trying parses that fail, and each failure builds an Error. The proxy never
// logs stack traces, and capturing them was half the cost of a repair (see the README's benchmark), so they are
// off unless asked for with NODE_OPTIONS=--stack-trace-limit=N.
if (!`${process.env.NODE_OPTIONS ?? ""} ${process.execArgv.join(" ")}`.includes("--stack-trace-limit"))
  Error.stackTraceLimit = 0;

/** The `toolcall-proxy` command: reads flags and environment, listens, drains on SIGTERM or SIGINT, exits 0. */
async function main(): Promise<number | undefined> {
  const parsed = parseProxyArgs({ argv: process.argv.slice(2), env: process.env });
  if (!parsed.ok) {
    // The mistake and where to read more: the whole help after every mistake would bury the one line that matters.
    process.stderr.write(`toolcall-proxy: ${parsed.error}\nSee: toolcall-proxy --help\n`);
    return 2;
  }
  if ("help" in parsed) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if ("version" in parsed) {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
      version: string;
    };
    process.stdout.write(`${manifest.version}\n`);
    return 0;
  }
  const { command } = parsed;
  if (command.contentCallsAuto !== undefined) {
    const resolved = await resolveAutoContentCalls({
      upstream: command.options.upstream,
      templateFile: command.contentCallsAuto.templateFile,
    });
    if (!resolved.ok) {
      process.stderr.write(`toolcall-proxy: ${resolved.error}\n`);
      return 2;
    }
    command.options.contentCalls = [...(command.options.contentCalls ?? []), resolved.extractor];
    process.stderr.write(
      `toolcall-proxy: --content-calls auto: ${resolved.syntax} (${resolved.method}, from ${resolved.source}${resolved.startInReasoning ? ", starts in reasoning" : ""})\n`,
    );
  }
  const created = createProxy(command.options);
  if (!created.ok) {
    process.stderr.write(`toolcall-proxy: ${created.error}\n`);
    return 2;
  }
  const { proxy } = created;
  // Signals are handled before the port is announced: a supervisor may signal as soon as it sees the port.
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) {
      // A second signal: stop now.
      proxy.logger.event("error", "stopped before requests finished", { signal });
      proxy.logger.flush();
      process.exit(1);
    }
    stopping = true;
    proxy.logger.event("info", "draining", { signal, inFlight: proxy.inFlight });
    proxy.drain().then(
      ({ timedOut }) => {
        proxy.logger.event(timedOut ? "error" : "info", "stopped", { timedOut });
        proxy.logger.flush();
        process.exit(timedOut ? 1 : 0);
      },
      (error: unknown) => {
        proxy.logger.event("error", "drain failed", { error: (error as Error)?.message });
        proxy.logger.flush();
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // Log lines are held for a few milliseconds; whatever ends the process writes them out first.
  process.on("exit", () => proxy.logger.flush());
  let address: Awaited<ReturnType<typeof proxy.listen>>;
  try {
    address = await proxy.listen({ port: command.port, host: command.host });
  } catch (error) {
    process.stderr.write(
      `toolcall-proxy: cannot listen on ${command.host}:${command.port}: ${(error as Error).message}\n`,
    );
    return 1;
  }
  proxy.logger.event("info", "listening", {
    host: address.address,
    port: address.port,
    upstream: command.options.upstream,
    repairs: (command.options.repairs ?? []).map((rule) => rule.id),
    contentCalls: (command.options.contentCalls ?? []).map((extractor) => extractor.name),
  });

  return undefined;
}

main().then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`toolcall-proxy: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 1;
  },
);
