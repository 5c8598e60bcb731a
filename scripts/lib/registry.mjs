// Starts the throwaway registry (registry-server.mjs) as a child process and signs one user in, so `pnpm publish`
// has a token to publish with. One registry serves a whole test run: the release step publishes to it, the consumer
// smoke test and the doc tests install from it (their `.npmrc` names it for the @toolcall scope only).
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const server = join(dirname(fileURLToPath(import.meta.url)), "registry-server.mjs");

/** The registry a run was given (TOOLCALL_REGISTRY, TOOLCALL_REGISTRY_TOKEN), or undefined. */
export function registryFromEnv() {
  const url = process.env.TOOLCALL_REGISTRY;
  if (!url) return undefined;
  return { url, token: process.env.TOOLCALL_REGISTRY_TOKEN ?? "", close: async () => {} };
}

/** `.npmrc` lines that send the @toolcall scope (and only it) to `registry`, with the token for publishing. */
export function npmrcFor(registry) {
  const host = registry.url.replace(/^https?:/, "");
  return `@toolcall:registry=${registry.url}\n${host}:_authToken=${registry.token}\n`;
}

/**
 * Starts a registry: `{ url, token, close() }`. `url` ends with a slash.
 *
 * @example
 * const registry = await startRegistry();
 * try { … } finally { await registry.close(); }
 */
export async function startRegistry() {
  const dir = mkdtempSync(join(tmpdir(), "toolcall-registry-"));
  const child = spawn(process.execPath, [server, dir], { stdio: ["pipe", "pipe", "inherit"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const close = async () => {
    child.stdin.end();
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const port = await new Promise((resolve, reject) => {
      let text = "";
      child.stdout.on("data", (chunk) => {
        text += chunk;
        const line = /^\{"port":(\d+)\}$/m.exec(text);
        if (line) resolve(Number(line[1]));
      });
      child.once("exit", (code) => reject(new Error(`the registry exited (${code}) before it listened`)));
    });
    const url = `http://127.0.0.1:${port}/`;
    const name = "toolcall-release";
    const response = await fetch(`${url}-/user/org.couchdb.user:${name}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name, password: randomBytes(16).toString("hex"), type: "user", roles: [] }),
    });
    const { token } = await response.json();
    if (!response.ok || typeof token !== "string")
      throw new Error(`the registry refused a user (${response.status})`);
    return { url, token, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The registry this run publishes to: the one TOOLCALL_REGISTRY names (the test run's: its release step has
 * published there), or, for a step run on its own, a new one the release script (scripts/release.mjs) publishes to
 * first. `close()` stops only a registry started here.
 */
export async function publishedRegistry() {
  const given = registryFromEnv();
  if (given) return given;
  const registry = await startRegistry();
  const release = join(dirname(server), "..", "release.mjs");
  const { status } = spawnSync(process.execPath, [release], {
    stdio: "inherit",
    env: { ...process.env, TOOLCALL_REGISTRY: registry.url, TOOLCALL_REGISTRY_TOKEN: registry.token },
  });
  if (status !== 0) {
    await registry.close();
    throw new Error("the release step failed: nothing to install from the registry");
  }
  return registry;
}
