#!/usr/bin/env node
// A downstream project outside the workspace, installed as a user would: `npm i` with an `.npmrc` that sends the
// @toolcall scope (and only it) to the test run's registry (scripts/release.mjs published there); third-party
// packages (vitest, the `openai` peer) come from the usual registry. Then, in that project: the conformance suite
// runs against core through vitest and through the framework-neutral command line; core and conformance load from
// CommonJS; and a guarded `openai` client talks to a loopback server that answers with the tool-call payloads
// captured in the wild, whole and streamed: every call comes back as JSON object text, or as the model wrote it and
// reported unusable when no tool can run on it.
// Results: .test-results/consumer.json.
import { execFile, execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startFakeOpenAI } from "./lib/fake-openai.mjs";
import { publishedRegistry } from "./lib/registry.mjs";
import { createResults, root } from "./lib/results.mjs";

const results = createResults("consumer");
const scratch = mkdtempSync(join(tmpdir(), "toolcall-consumer-"));
const vitestVersion = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).devDependencies.vitest;
// `openai` is an optional peer of @toolcall/openai (its guarded fetch needs none): a user of guardOpenAI installs it
// beside, as the package's README says; the version the package's own tests run on.
const openaiVersion = JSON.parse(readFileSync(join(root, "packages/openai/package.json"), "utf8"))
  .devDependencies.openai;
const run = (command, args, options = {}) =>
  execFileSync(command, args, {
    cwd: scratch,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    ...options,
  });

const files = {
  "conformance.test.js": `import { describeConformance } from "@toolcall/conformance/vitest";
import { coreImplementation } from "@toolcall/core/conformance";
describeConformance({ implementation: coreImplementation });
`,
  "implementation.mjs": `export { coreImplementation as implementation } from "@toolcall/core/conformance";\n`,
  "require.cjs": `const core = require("@toolcall/core");
const { loadVectors } = require("@toolcall/conformance");
const openai = require("@toolcall/openai");
if (core.decodeArguments("42").status !== "non_object") throw new Error("core from CommonJS");
if (loadVectors().length === 0) throw new Error("vectors from CommonJS");
if (typeof openai.guardOpenAI !== "function") throw new Error("@toolcall/openai from CommonJS");
`,
  "guarded-client.mjs": `import OpenAI from "openai";
import { coreRepairs } from "@toolcall/core";
import { guardOpenAI } from "@toolcall/openai";

// OPENAI_BASE_URL and OPENAI_API_KEY come from the environment, as they would for any OpenAI-compatible server.
const client = guardOpenAI(new OpenAI(), { repairs: coreRepairs });
const request = { model: "fake-model", messages: [{ role: "user", content: "go" }] };
const isObjectText = (text) => {
  try {
    const value = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
};

// Every call comes back as JSON object text, or, when no tool can run on it (cut, not JSON, not an object), with the
// model's own text and reported unusable in the x-toolcall-repairs header: never turned into text that parses.
const { data: completion, response } = await client.chat.completions.create(request).withResponse();
const summary = JSON.parse(response.headers.get("x-toolcall-repairs") ?? "{}");
const reported = new Map((summary.calls ?? []).map((entry) => [entry.id, entry]));
const calls = completion.choices[0].message.tool_calls;
const bad = calls.filter((call) =>
  isObjectText(call.function.arguments)
    ? reported.get(call.id)?.usable === false
    : reported.get(call.id)?.usable !== false,
);
if (calls.length === 0 || bad.length > 0) throw new Error("whole: wrongly decided: " + JSON.stringify(bad));
const usable = calls.filter((call) => isObjectText(call.function.arguments)).length;
const repaired = [...reported.values()].filter((entry) => entry.usable && entry.repairs.length > 0).length;
if (usable === 0 || repaired === 0) throw new Error("whole: nothing usable or repaired: " + JSON.stringify(summary));

// Streamed, each call ends with the same text as in the whole answer.
const streamed = new Map();
for await (const chunk of await client.chat.completions.create({ ...request, stream: true }))
  for (const call of chunk.choices[0]?.delta.tool_calls ?? [])
    streamed.set(call.index, (streamed.get(call.index) ?? "") + (call.function?.arguments ?? ""));
const differ = calls.filter((call, index) => streamed.get(index) !== call.function.arguments);
if (streamed.size !== calls.length || differ.length > 0)
  throw new Error("streamed: " + streamed.size + " calls, differing from the whole answer: " + JSON.stringify(differ));
console.log(
  calls.length + " calls, whole and streamed alike: " + usable + " JSON object text (" + repaired + " repaired), " +
    (calls.length - usable) + " kept as the model wrote them and reported unusable",
);
`,
};

/**
 * The two commands as a user gets them: `npm i toolcall @toolcall/proxy` in a fresh project, then `npx toolcall check`,
 * `repair`, `undo` and `npx toolcall-proxy --help` from there. npm routes registries per scope only, so the unscoped
 * `toolcall` is installed from the tarball the test registry serves for its latest version (its @toolcall
 * dependencies come from that registry through the scope, the rest from the usual registry).
 */
async function commandsFromTheRegistry(registry) {
  const project = mkdtempSync(join(tmpdir(), "toolcall-commands-"));
  const npx = (args) =>
    execFileSync("npx", ["--no-install", ...args], {
      cwd: project,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
    });
  const status = (args) => {
    try {
      npx(args);
      return 0;
    } catch (error) {
      return error.status ?? 1;
    }
  };
  const installed = await results.check(
    "npm i toolcall @toolcall/proxy (the commands, from the registry)",
    async () => {
      writeFileSync(join(project, ".npmrc"), `@toolcall:registry=${registry.url}\n`);
      writeFileSync(
        join(project, "package.json"),
        JSON.stringify({ name: "toolcall-commands", private: true }, null, 2),
      );
      const packument = await fetch(`${registry.url}toolcall`).then((r) => r.json());
      const tarball = packument.versions?.[packument["dist-tags"]?.latest]?.dist?.tarball;
      if (!tarball) throw new Error("the registry has no toolcall package");
      execFileSync("npm", ["i", "--no-audit", "--no-fund", "--loglevel=error", tarball, "@toolcall/proxy"], {
        cwd: project,
        stdio: ["ignore", "pipe", "pipe"],
      });
      return true;
    },
  );
  if (!installed) return;
  const session = readFileSync(join(root, "apps", "cli", "examples", "poisoned-session.json"));
  writeFileSync(join(project, "session.json"), session);
  await results.check("npx toolcall check (a poisoned session: exit 1, its findings printed)", () => {
    if (status(["toolcall", "check", "session.json"]) !== 1)
      throw new Error("check did not exit 1 on a poisoned session");
  });
  await results.check("npx toolcall repair, then check the repaired copy", () => {
    npx(["toolcall", "repair", "session.json", "-o", "fixed.json", "--journal", "fixed.journal"]);
    if (status(["toolcall", "check", "fixed.json"]) !== 0)
      throw new Error("the repaired copy does not check clean");
  });
  await results.check("npx toolcall undo gives the input back byte for byte", () => {
    npx(["toolcall", "undo", "fixed.json", "--journal", "fixed.journal", "-o", "original.json"]);
    if (!readFileSync(join(project, "original.json")).equals(session))
      throw new Error("undo differs from the input");
  });
  await results.check("npx toolcall-proxy --help", () => {
    const help = npx(["toolcall-proxy", "--help"]);
    if (!/--upstream/.test(help)) throw new Error(`unexpected help: ${help.slice(0, 200)}`);
  });
  if (results.failed === 0) rmSync(project, { recursive: true, force: true });
  else console.error(`consumer smoke test: the commands' project is kept in ${project}`);
}

let registry;
let server;
try {
  registry = await publishedRegistry();
  server = await startFakeOpenAI();
  const installed = await results.check(
    "npm i @toolcall/openai openai (the @toolcall scope from the registry)",
    async () => {
      writeFileSync(join(scratch, ".npmrc"), `@toolcall:registry=${registry.url}\n`);
      writeFileSync(
        join(scratch, "package.json"),
        JSON.stringify({ name: "toolcall-consumer", private: true, type: "module" }, null, 2),
      );
      for (const [name, text] of Object.entries(files)) writeFileSync(join(scratch, name), text);
      run("npm", [
        "i",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        "@toolcall/openai",
        `openai@${openaiVersion}`,
        "@toolcall/core",
        "@toolcall/conformance",
        `vitest@${vitestVersion}`,
      ]);
      // The version the release step published, which exists in no other registry.
      const latest = (await fetch(`${registry.url}@toolcall%2fopenai`).then((r) => r.json()))["dist-tags"]
        .latest;
      const got = JSON.parse(
        readFileSync(join(scratch, "node_modules/@toolcall/openai/package.json"), "utf8"),
      ).version;
      if (got !== latest) throw new Error(`installed @toolcall/openai@${got}, the registry has ${latest}`);
      return true;
    },
  );
  if (installed) {
    await results.check("the conformance suite through vitest", () => {
      run(join(scratch, "node_modules", ".bin", "vitest"), [
        "run",
        "--reporter=json",
        "--outputFile=report.json",
      ]);
      const report = JSON.parse(readFileSync(join(scratch, "report.json"), "utf8"));
      if (report.numFailedTests > 0 || report.numPassedTests < 100)
        throw new Error(`${report.numPassedTests} passed, ${report.numFailedTests} failed`);
      console.log(
        `  vitest in the consumer: ${report.numPassedTests} passed, ${report.numPendingTests} skipped`,
      );
    });
    await results.check("the conformance suite through toolcall-conformance", () => {
      const line = run(join(scratch, "node_modules", ".bin", "toolcall-conformance"), [
        "run",
        "--implementation",
        "implementation.mjs",
      ])
        .trim()
        .split("\n")
        .at(-1);
      if (!/^\d+ passed, 0 failed/.test(line)) throw new Error(line);
      console.log(`  toolcall-conformance in the consumer: ${line}`);
    });
    await results.check("core, conformance and openai from CommonJS", () => run("node", ["require.cjs"]));
    await results.check("a guarded openai client against a loopback server", async () => {
      // Not a synchronous child: the loopback server answers from this process's event loop.
      const { stdout } = await promisify(execFile)("node", ["guarded-client.mjs"], {
        cwd: scratch,
        timeout: 60_000,
        env: { ...process.env, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "sk-loopback" },
      });
      console.log(`  guarded client: ${stdout.trim()}`);
    });
  }
  await commandsFromTheRegistry(registry);
} catch (error) {
  await results.check("the registry to install from", () => {
    throw error;
  });
} finally {
  await server?.close();
  await registry?.close();
  process.exitCode = results.write() > 0 ? 1 : 0;
  if (process.exitCode === 0) rmSync(scratch, { recursive: true, force: true });
  else console.error(`consumer smoke test: the project is kept in ${scratch}`);
  console.log(`consumer smoke test: ${process.exitCode === 0 ? "ok" : "FAILED"}`);
}
