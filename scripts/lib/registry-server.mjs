#!/usr/bin/env node
// A throwaway npm registry (Verdaccio) for the release test: storage in the directory given as the first argument,
// no uplinks (nothing is fetched through it: a consumer gets third-party packages from its usual registry), on
// 127.0.0.1 with a port the kernel picks. Prints `{"port":N}` once it listens; stops on SIGTERM or when its parent
// closes its standard input.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { runServer } from "verdaccio";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: registry-server.mjs DIR");
  process.exit(2);
}
const config = join(dir, "config.yaml");
writeFileSync(
  config,
  [
    `storage: ${JSON.stringify(join(dir, "storage"))}`,
    "auth:",
    "  htpasswd:",
    `    file: ${JSON.stringify(join(dir, "htpasswd"))}`,
    "    max_users: 10",
    "uplinks: {}",
    "packages:",
    "  '**':",
    "    access: $all",
    "    publish: $authenticated",
    "    unpublish: $authenticated",
    "middlewares: {}",
    "web:",
    "  enable: false",
    "max_body_size: 50mb",
    // A client that was busy (a synchronous child process) may come back to a pooled connection much later.
    "server:",
    "  keepAliveTimeout: 600",
    "log: { type: stdout, format: pretty, level: error }",
    "",
  ].join("\n"),
);
const server = await runServer(config);
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: server.address().port })}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.stdin.on("end", stop);
process.stdin.resume();
